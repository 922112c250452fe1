// The viewer an html export carries (`loupe export --format html`, and the viewer's Export menu),
// built by `npm run build` through vite.config.ts's plugin (or alone by `npm run build:export`).
// One script, React and every dependency inside, workers inlined (as in the library build), so the
// page it goes into needs no other file and no network.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const REDACTION_ABSENT = fileURLToPath(new URL('./src/app/redaction.absent.ts', import.meta.url));
const SQLITE_ABSENT = fileURLToPath(new URL('./src/app/sqlite.absent.ts', import.meta.url));

/**
 * No redaction ruleset in the page (src/app/redaction.absent.ts says why): the modules that load it
 * on demand (src/share/redact/redactLine.ts, detect.ts) resolve to a stand-in, wherever they are
 * imported from.
 */
const withoutRedaction = (): Plugin => ({
  name: 'loupe-export-without-redaction',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!/\/redact\/(redactLine|detect)(\.ts)?$/.test(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved && /\/redact\/(redactLine|detect)\.ts$/.test(resolved.id) ? REDACTION_ABSENT : resolved;
  },
});

/** No SQLite in the page (src/app/sqlite.absent.ts says why): its loader resolves to a stand-in. */
const withoutSqlite = (): Plugin => ({
  name: 'loupe-export-without-sqlite',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!/\/sqlite\/sqljs(\.ts)?$/.test(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved && /\/sqlite\/sqljs\.ts$/.test(resolved.id) ? SQLITE_ABSENT : resolved;
  },
});

export default defineConfig({
  plugins: [react(), withoutRedaction(), withoutSqlite()],
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
    // One script: every dynamic import inlined. Minified whitespace too, which Vite's library mode
    // leaves (a library's bundler would minify it); this script goes into a page as it is.
    rollupOptions: {
      output: { codeSplitting: false, minify: true },
      // This build runs inside the app's (vite.config.ts): see the note on pluginTimings there.
      checks: { pluginTimings: false },
    },
    // One script by design (kB, minified): the limit is the page's budget, so growth past it warns.
    chunkSizeWarningLimit: 1600,
  },
  // Classic workers: a page opened from disk has an opaque origin, where module workers do not start.
  // The parser's worker is a build of its own: it leaves out what the page does.
  worker: { format: 'iife', plugins: () => [withoutRedaction(), withoutSqlite()] },
});
