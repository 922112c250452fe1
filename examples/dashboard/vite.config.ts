// The host app's own build. scripts/build-hosts.mjs copies this example into dist/hosts/<name>,
// beside a node_modules where `npm install` put 'agent-loupe' (from the packed tarball) and that host's
// React: nothing here points back into the repository, as in any app that installed the package.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  // The library and its dependencies import React too: all of them must get the host's one copy.
  resolve: { dedupe: ['react', 'react-dom'] },
  // One chunk of React, the viewer and their dependencies (~580 kB): an example need not code-split.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1000 },
});
