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
      // fileChunks: how the CLI reads a file, for `npm run bench` to read with it too.
      input: { loupe: 'src/cli/loupe.ts', model: 'src/model/index.ts', fileChunks: 'src/cli/fileChunks.ts' },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
  ssr: { noExternal: true },
});
