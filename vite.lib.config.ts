// `npm run build:lib`: the embeddable library. ESM, React as a peer, dependencies left to the
// host's bundler (so one copy of each is shared), CSS extracted to dist/lib/loupe.css. The React UI
// libraries (react-markdown, react-diff-viewer-continued: devDependencies) are bundled in instead,
// so a global install of the CLI, which bundles everything it runs, does not pull them and their
// packages.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

const external = [...Object.keys(pkg.peerDependencies), ...Object.keys(pkg.dependencies)];

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The library inlines its parser and diff workers (see src/worker/spawn.inline.ts).
    alias: [
      { find: /^\.\/spawn$/, replacement: fileURLToPath(new URL('./src/worker/spawn.inline.ts', import.meta.url)) },
      { find: /^\.\/workerRedactor$/, replacement: fileURLToPath(new URL('./src/worker/workerRedactor.inline.ts', import.meta.url)) },
      { find: /^\.\/spawnChainWorker$/, replacement: fileURLToPath(new URL('./src/worker/spawnChainWorker.inline.ts', import.meta.url)) },
      { find: /^\.\/spawnDiffWorker$/, replacement: fileURLToPath(new URL('./src/ui/calls/spawnDiffWorker.inline.ts', import.meta.url)) },
    ],
  },
  publicDir: false,
  build: {
    outDir: 'dist/lib',
    emptyOutDir: true,
    sourcemap: true,
    cssCodeSplit: false,
    lib: {
      entry: { loupe: 'src/embed/index.ts', model: 'src/model/index.ts' },
      formats: ['es'],
      cssFileName: 'loupe',
    },
    rollupOptions: {
      // `react/jsx-runtime` and other subpaths are the host's too.
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      // The inlined workers are builds of their own inside this one, so plugins take most of its
      // time by design, more so on a busy machine: rolldown's report of it is nothing to act on.
      checks: { pluginTimings: false },
    },
  },
  worker: { format: 'es' },
});
