import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The app's Content-Security-Policy, as a meta element in the built page: its own scripts only (no
 * inline script), WebAssembly for hashing (hash-wasm), workers from itself (and blob: for an
 * embedder's inlined ones), no plugins, no <base>, no form posts. A meta policy is fixed when the
 * page is built, but what the user opens (`?src=`) is known only when it loads, so this one allows
 * requests to any http(s) origin and `src/app/csp.ts` adds a second policy at start-up naming only
 * this origin and the one `?src=` points at: a page under two policies must satisfy both, so the
 * second one can only narrow the first. Dev (`vite`) injects inline scripts, so the policy is
 * added to builds only. `frame-ancestors` has no effect in a meta policy; a host sends it as a header.
 */
export const APP_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' https: http:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
].join('; ');

const strictPolicy = (): Plugin => ({
  name: 'loupe-app-csp',
  apply: 'build',
  transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: APP_POLICY }, injectTo: 'head-prepend' }],
});

const EXPORT_CONFIG = fileURLToPath(new URL('./vite.export.config.ts', import.meta.url));
const EXPORT_FILES = ['standalone.js', 'standalone.css'];

/**
 * The export viewer (vite.export.config.ts) built into the app as `export/standalone.{js,css}`: the
 * viewer's html export fetches it from there (same origin, which the policy allows) when that export
 * is chosen, so the app's own first load does not carry it. The same build is written to
 * dist/export, where the CLI and the package's hosts read it, so `npm run build` builds it once.
 * Dev serves the last build at the same path.
 */
const exportViewer = (): Plugin => ({
  name: 'loupe-export-viewer',
  async generateBundle() {
    const result = await build({ configFile: EXPORT_CONFIG, logLevel: 'warn' });
    const outputs = Array.isArray(result) ? result : [result];
    for (const output of outputs) {
      if (!('output' in output)) continue;
      for (const file of output.output) {
        if (!EXPORT_FILES.includes(file.fileName)) continue;
        this.emitFile({ type: 'asset', fileName: `export/${file.fileName}`, source: file.type === 'chunk' ? file.code : file.source });
      }
    }
  },
  configureServer(server) {
    server.middlewares.use('/export', (req, res, next) => {
      const name = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
      const path = fileURLToPath(new URL(`./dist/export/${name}`, import.meta.url));
      if (!EXPORT_FILES.includes(name) || !existsSync(path)) return next();
      res.setHeader('Content-Type', name.endsWith('.js') ? 'text/javascript' : 'text/css');
      res.end(readFileSync(path));
    });
  },
});

/**
 * secretlint's preset imports node:path, node:fs and crypto for the one rule that reads a key file
 * from disk (GCP service-account keys, only when the file linted is a `.p12` or `.json`); Loupe lints
 * text as `.txt`, so in the browser those imports are never used. They resolve to an empty module,
 * said here once, instead of Vite's stand-in and a warning for each on every build. sql.js's
 * Emscripten build imports node:fs and node:crypto the same way, used only when it runs in Node.
 */
export const secretlintInBrowsers = (): Plugin => ({
  name: 'loupe-secretlint-in-browsers',
  enforce: 'pre',
  resolveId(source, importer) {
    const secretlint = importer?.includes('/@secretlint/') === true && ['node:path', 'node:fs', 'crypto'].includes(source);
    // sql.js (Emscripten) requires node:fs and node:crypto only when it runs in Node.
    const sqlJs = importer?.includes('/sql.js/') === true && ['node:fs', 'node:crypto'].includes(source);
    return secretlint || sqlJs ? `\0loupe-unused:${source}` : null;
  },
  load(id) {
    return id.startsWith('\0loupe-unused:') ? 'export default {};' : null;
  },
});

export default defineConfig({
  plugins: [react(), strictPolicy(), exportViewer(), secretlintInBrowsers()],
  // Relative base so the built app also works when served from a sub-path or opened from a static host.
  base: './',
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: true,
    // Rolldown reports when plugins take most of a build. Here they do by design: the export viewer
    // and the workers are builds of their own, run inside this one, and the share moves with the
    // machine's load. Nothing in the report is for a reader to act on.
    rollupOptions: { checks: { pluginTimings: false } },
    // The entry chunk is the viewer itself (React DOM, the UI, immutable, markdown) and the app's
    // react-query: 633 kB minified, 198 kB gzip (2026-12-02). The limit is its budget (kB), so growth past it warns; the
    // default 500 would warn on every build about a size that is known and chosen.
    chunkSizeWarningLimit: 700,
  },
  worker: {
    // Module workers: the parser worker imports the model as ES modules (and its wasm), like the main thread.
    format: 'es',
    plugins: () => [secretlintInBrowsers()],
    rollupOptions: { checks: { pluginTimings: false } },
  },
  preview: { port: 4173, strictPort: true },
});
