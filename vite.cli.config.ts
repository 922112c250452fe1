// Node build of the CLI and of the model for benchmarks: the same code as the browser's.
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: 'dist/cli',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      input: { loupe: 'src/cli/loupe.ts', model: 'src/model/index.ts' },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
  ssr: { noExternal: true },
});
