#!/usr/bin/env node
/* global window, document, HTMLSelectElement, Event, MutationObserver, requestAnimationFrame -- the functions passed to page.evaluate run in the page */
// npm run bench:library -- --machines 10: a team's index over HTTP (`?index=URL`). N machines ×
// S sessions generated with scripts/gen-session.mjs (C calls each), each machine's indexed with
// `loupe index --out BASE --machine NAME`; made once into .bench/ and reused. BASE is served by a
// small HTTP server with range support (206, CORS) beside the built app, which reads it by range.
// Prints, from the same run: the time to the union's first rows and the bytes fetched by then, to
// every stat and the bytes fetched in all, and a label filter's time; beside them the tables'
// whole size (what a page without range requests downloads) and the time to serve them whole
// from the same server (the floor). Asserts nothing. Issue 34's aims: first rows ≤ 2 s, a label filter ≤ 100 ms.
//   node scripts/bench-library.mjs --machines 10 [--sessions 1000] [--calls 20] [--runs 3]
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { chromium } from '@playwright/test';
import { arg, root } from './bench-common.mjs';
import { generate } from './gen-session.mjs';

const MACHINES = Number(arg('machines', '10'));
const SESSIONS = Number(arg('sessions', '1000'));
const CALLS = Number(arg('calls', '20'));
const RUNS = Number(arg('runs', '3'));
const APP = resolve(root, arg('app', 'dist/app'));
const FIRST_ROWS_AIM_MS = 2000;
const FILTER_AIM_MS = 100;
const LOUPE = join(root, 'bin/loupe.mjs');

execFileSync('node', [join(root, 'scripts/ensure-chromium.mjs')], { stdio: 'inherit' });
if (!existsSync(join(APP, 'index.html')) || !existsSync(join(root, 'dist/cli/loupe.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

const base = teamIndex();
const tables = readdirSync(base, { recursive: true }).filter((name) => String(name).endsWith('.parquet')).map((name) => join(base, String(name)));
const wholeBytes = tables.reduce((sum, file) => sum + statSync(file).size, 0);
const sessionsBytes = tables.filter((file) => file.endsWith('sessions.parquet')).reduce((sum, file) => sum + statSync(file).size, 0);

const served = { bytes: 0, requests: 0, ranged: 0 };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const [dir, rel] = path.startsWith('/team/') ? [base, path.slice('/team/'.length)] : [APP, path === '/' ? 'index.html' : path.slice(1)];
  const file = resolve(dir, rel);
  if (!file.startsWith(dir + sep) && file !== dir) return void res.writeHead(403).end();
  let size;
  try {
    size = statSync(file).size;
  } catch {
    return void res.writeHead(404).end();
  }
  const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' }[extname(file)] ?? 'application/octet-stream';
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const [start, end] = range ? [Number(range[1]), range[2] ? Math.min(Number(range[2]), size - 1) : size - 1] : [0, size - 1];
  if (dir === base) {
    served.bytes += end - start + 1;
    served.requests++;
    if (range) served.ranged++;
  }
  res.writeHead(range ? 206 : 200, {
    'Content-Type': type, 'Content-Length': end - start + 1, 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store',
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  createReadStream(file, { start, end }).pipe(res);
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const results = [];
  for (let run = 0; run < RUNS; run++) results.push(await benchPage());
  const floor = await wholeFloor();
  const best = (key) => Math.min(...results.map((r) => r[key]));
  const all = (key) => results.map((r) => r[key].toFixed(0)).join(' / ');
  const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
  console.log(`\nteam library over HTTP (?index=), ${MACHINES} machines × ${SESSIONS} sessions × ${CALLS} calls, ${RUNS} runs (best, then each run):`);
  console.log(`  tables: ${tables.length} files, ${mb(wholeBytes)} whole (sessions tables ${mb(sessionsBytes)})`);
  console.log(`  first rows                ${best('firstRows').toFixed(0).padStart(6)} ms   (${all('firstRows')})   aim ≤ ${FIRST_ROWS_AIM_MS}; fetched by then ${mb(results[0].bytesAtRows)}`);
  console.log(`  every stat                ${best('stats').toFixed(0).padStart(6)} ms   (${all('stats')});   fetched in all ${mb(results[0].bytes)} in ${results[0].requests} range requests (${((results[0].bytes / wholeBytes) * 100).toFixed(0)}% of the tables)`);
  console.log(`  filter (label ${results[0].label.padEnd(10)})  ${best('filter').toFixed(0).padStart(6)} ms   (${all('filter')})   aim ≤ ${FILTER_AIM_MS}`);
  console.log(`  floor: every table fetched whole from the same server, in the same browser: ${floor.toFixed(0)} ms; first rows / floor = ${(best('firstRows') / floor).toFixed(2)}`);
  console.log(`  load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  await browser.close();
  await new Promise((done) => server.close(done));
}

/** The team's folder in .bench/, made once: each machine's sessions generated, indexed into BASE, then the sessions removed. */
function teamIndex() {
  const dir = join(root, '.bench', `team-${MACHINES}x${SESSIONS}x${CALLS}`);
  if (existsSync(join(dir, 'index.json'))) return dir;
  const making = `${dir}.making`;
  rmSync(making, { recursive: true, force: true });
  const t0 = performance.now();
  for (let m = 0; m < MACHINES; m++) {
    const machine = `m-${String(m).padStart(2, '0')}`;
    const sessions = join(making, 'sessions', machine);
    mkdirSync(sessions, { recursive: true });
    for (let s = 0; s < SESSIONS; s++) {
      const format = ['acp', 'grok', 'ledger'][(m + s) % 3];
      writeFileSync(join(sessions, `session-${String(s).padStart(5, '0')}.jsonl`), generate({ format, calls: CALLS, seed: m * 100_000 + s + 1 }).text);
    }
    execFileSync(process.execPath, [LOUPE, 'index', sessions, '--out', join(making, 'team'), '--machine', machine], { stdio: ['ignore', 'ignore', 'inherit'] });
    rmSync(sessions, { recursive: true, force: true });
    console.log(`bench-library: ${machine} generated and indexed (${((performance.now() - t0) / 1000).toFixed(0)} s so far)`);
  }
  renameSync(join(making, 'team'), dir);
  rmSync(making, { recursive: true, force: true });
  return dir;
}

/** One load of `?index=` and a label filter, timed in the page; the bytes served counted by the server. */
async function benchPage() {
  served.bytes = 0;
  served.requests = 0;
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__bench = { firstRows: 0, stats: 0 };
    const check = () => {
      const b = w.__bench;
      if (!b.firstRows && document.querySelector('[data-session-file]')) {
        b.firstRows = performance.now();
        // The table bytes received by the first rows (same origin: the sizes are the page's to read).
        b.bytesAtRows = performance.getEntriesByType('resource').filter((e) => e.name.includes('/team/') && e.name.endsWith('.parquet') && (e).responseEnd <= b.firstRows).reduce((sum, e) => sum + (e).encodedBodySize, 0);
      }
      if (!b.stats && document.querySelector('[data-fetched-bytes]')) b.stats = performance.now();
    };
    document.addEventListener('DOMContentLoaded', () => new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true }));
  });
  await page.goto(`${origin}/?index=${encodeURIComponent(`${origin}/team/index.json`)}`);
  await page.waitForFunction(() => /** @type {any} */ (window).__bench.stats > 0, null, { timeout: 600_000, polling: 100 });
  const { firstRows, stats, bytesAtRows } = await page.evaluate(() => ({ .../** @type {any} */ (window).__bench }));
  const bytes = served.bytes;
  const requests = served.requests;
  // The label with the most calls: the stats table's first row.
  const label = await page.locator('table[aria-label="Calls per label"] tbody tr').first().getAttribute('data-label');
  const filter = await page.evaluate(timedSelect, { selector: 'select[data-filter="label"]', value: label });
  await page.close();
  return { firstRows, stats, bytesAtRows, bytes, requests, label, filter };
}

/** A select's change, from the event to the last DOM change it makes once the page has settled (as bench-library.mjs times its queries). */
async function timedSelect({ selector, value }) {
  const target = document.querySelector(selector);
  if (!target) throw new Error(`no ${selector}`);
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  await frame();
  let changed = 0;
  const observer = new MutationObserver(() => (changed = performance.now()));
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const start = performance.now();
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set?.call(target, value);
  target.dispatchEvent(new Event('change', { bubbles: true }));
  for (;;) {
    const before = changed;
    await frame();
    if (changed === before) break;
  }
  observer.disconnect();
  return (changed || start) - start;
}

/** The floor: every table fetched whole, in parallel, by a page of the same browser from the same server. */
async function wholeFloor() {
  const page = await browser.newPage();
  await page.goto(`${origin}/team/index.json`);
  const urls = tables.map((file) => `${origin}/team/${file.slice(base.length + 1).split(sep).map(encodeURIComponent).join('/')}`);
  const ms = await page.evaluate(async (list) => {
    const start = performance.now();
    await Promise.all(list.map((url) => fetch(url, { cache: 'no-store' }).then((res) => res.arrayBuffer())));
    return performance.now() - start;
  }, urls);
  await page.close();
  return ms;
}
