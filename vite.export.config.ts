// The viewer an html export carries (`loupe export --format html`, and the viewer's Export menu),
// built by `npm run build` through vite.config.ts's plugin (or alone by `npm run build:export`).
// One script, React and every dependency inside, workers inlined (as in the library build), so the
// page it goes into needs no other file and no network.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^\.\/spawn$/, replacement: fileURLToPath(new URL('./src/worker/spawn.inline.ts', import.meta.url)) },
      { find: /^\.\/workerRedactor$/, replacement: fileURLToPath(new URL('./src/worker/workerRedactor.inline.ts', import.meta.url)) },
      { find: /^\.\/spawnChainWorker$/, replacement: fileURLToPath(new URL('./src/worker/spawnChainWorker.inline.ts', import.meta.url)) },
      { find: /^\.\/spawnDiffWorker$/, replacement: fileURLToPath(new URL('./src/ui/calls/spawnDiffWorker.inline.ts', import.meta.url)) },
    ],
  },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  publicDir: false,
  build: {
    outDir: 'dist/export',
    emptyOutDir: true,
    cssCodeSplit: false,
    minify: true,
    lib: { entry: 'src/app/standalone.tsx', formats: ['es'], fileName: () => 'standalone.js', cssFileName: 'standalone' },
    rollupOptions: { output: { inlineDynamicImports: true } },
  },
  // Classic workers: a page opened from disk has an opaque origin, where module workers do not start.
  worker: { format: 'iife' },
});
