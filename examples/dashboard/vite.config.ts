// The host app's own build. scripts/build-hosts.mjs copies this example into dist/hosts/<name>,
// beside a node_modules where `npm install` put 'agent-loupe' (from the packed tarball) and that host's
// React: nothing here points back into the repository, as in any app that installed the package.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * secretlint's preset (Loupe's redaction, loaded only when a person asks to redact) imports
 * node:path, node:fs and crypto for one rule that reads key files from disk (`.p12`, `.json`);
 * Loupe lints text as `.txt`, so a browser never uses them. Without this plugin Vite stands in for
 * them anyway and warns once per import; with it they are empty modules and the build is quiet.
 */
const secretlintInBrowsers = (): Plugin => ({
  name: 'secretlint-in-browsers',
  enforce: 'pre',
  resolveId: (source, importer) => (importer?.includes('/@secretlint/') && ['node:path', 'node:fs', 'crypto'].includes(source) ? `\0unused:${source}` : null),
  load: (id) => (id.startsWith('\0unused:') ? 'export default {};' : null),
});

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), secretlintInBrowsers()],
  // The library and its dependencies import React too: all of them must get the host's one copy.
  resolve: { dedupe: ['react', 'react-dom'] },
  // One chunk of React, the viewer and their dependencies (~580 kB): an example need not code-split.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1000 },
});
