#!/usr/bin/env node
// `npm start`: build the viewer if needed and serve it on a bundled sample session.
//
//   1. installs dependencies if node_modules is missing (`npm install`)
//   2. runs `npm run build` when dist/app/index.html is missing or older than its sources
//   3. serves dist/app with `vite preview` on port 5173 (override: PORT=8080 npm start)
//      and prints the URL of the bundled sample. It does not open a browser.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = 'dist/app';
const PORT = Number(process.env.PORT ?? 5173);
const SAMPLE = 'samples/grok-esc-interrupt.updates.jsonl';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @param {string[]} args */
function npmRun(args) {
  console.log(`loupe: $ npm ${args.join(' ')}`);
  const r = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`loupe: \`npm ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status ?? 1);
  }
}

/** Newest mtime (ms) among files under `path` (a file or a directory), 0 if absent. */
function newestMtime(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

// 1. Dependencies.
if (!existsSync(join(root, 'node_modules', 'vite', 'package.json'))) {
  console.log('loupe: dependencies missing; installing…');
  npmRun(['install']);
}

// 2. Build when stale.
const builtIndex = join(root, OUT_DIR, 'index.html');
const built = newestMtime(builtIndex);
const sources = Math.max(
  ...['src', 'public', 'index.html', 'vite.config.ts', 'vite.export.config.ts', 'package.json', 'package-lock.json'].map((p) =>
    newestMtime(join(root, p)),
  ),
);
if (built === 0 || built < sources) {
  console.log(built === 0 ? `loupe: no build in ${OUT_DIR}; building…` : 'loupe: sources changed; rebuilding…');
  npmRun(['run', 'build']);
  if (!existsSync(builtIndex)) {
    console.error(`loupe: the build did not produce ${OUT_DIR}/index.html.`);
    process.exit(1);
  }
} else {
  console.log(`loupe: ${OUT_DIR} is up to date.`);
}

// 3. Serve.
const { preview } = await import('vite');
let server;
try {
  server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir: OUT_DIR },
    preview: { port: PORT, strictPort: true, open: false },
  });
} catch (err) {
  const msg = err instanceof Error ? err.message : String(err);
  console.error(`loupe: could not start the server on port ${PORT}: ${msg}`);
  console.error(`loupe: is something else using it? Try: PORT=${PORT + 1} npm start`);
  process.exit(1);
}

const base = `http://localhost:${PORT}/`;
console.log('');
console.log(`  Loupe is running at ${base}`);
console.log(`  Bundled sample session:  ${base}?src=${SAMPLE}`);
console.log('');
console.log('  Open the link above in a browser. Press Ctrl+C to stop.');

const stop = () => {
  void server.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
