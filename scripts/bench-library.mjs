#!/usr/bin/env node
/* global window, document, PerformanceObserver, HTMLInputElement, HTMLSelectElement, Event, MutationObserver, requestAnimationFrame -- the functions passed to page.evaluate run in the page */
// npm run bench:library: the library page (`loupe open DIR`'s `?library`) in Chromium over a
// generated index of N sessions / M calls. The two Parquet files are written straight from
// synthetic rows with `loupe index`'s own writer (TableWriter), so a 1M-call index costs seconds,
// not 1 GB of sessions to read; the page is served by `loupe open`'s own server (startServer).
// Prints, from the same run: time to the first rows, to every fleet stat, and the time of a
// filter, a sort and a subject search (each from the event to the last change it makes to the
// page, once nothing is busy: the rows and the stats both show it); the JSON.parse floor of the same number of rows is printed beside
// them. Asserts nothing. Issue 21's aims: first rows < 1 s, a filter or sort < 100 ms.
// `--app` takes a list of built apps (another build's folder, say main's): their runs alternate, so
// they are compared under the same load.
//   node scripts/bench-library.mjs [--sessions 1000] [--calls 1000000] [--runs 3] [--app dist/app[,other/app]]
// With `--machines N`, a team's index over HTTP instead (scripts/bench-library-team.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { arg, root } from './bench-common.mjs';

// `--machines N`: a team's index read over HTTP by range (`?index=`), its own benchmark.
if (process.argv.includes('--machines')) {
  await import('./bench-library-team.mjs');
  process.exit(0);
}

const SESSIONS = Number(arg('sessions', '1000'));
const CALLS = Number(arg('calls', '1000000'));
const RUNS = Number(arg('runs', '3'));
const APPS = arg('app', 'dist/app').split(',').map((app) => resolve(root, app));
const FIRST_ROWS_AIM_MS = 1000;
const QUERY_AIM_MS = 100;

execFileSync('node', [join(root, 'scripts/ensure-chromium.mjs')], { stdio: 'inherit' });
if (APPS.some((app) => !existsSync(join(app, 'index.html')))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

const work = mkdtempSync(join(tmpdir(), 'loupe-bench-library-'));
// The CLI's own modules (the writer, the server), loaded from the sources as Node runs them.
const vite = await createServer({ root, configFile: false, logLevel: 'silent', server: { middlewareMode: true, hmr: false }, appType: 'custom', optimizeDeps: { noDiscovery: true } });
const servers = [];
let browser;
try {
  const { TableWriter } = await vite.ssrLoadModule('/src/cli/indexStore.ts');
  const { CALLS_TABLE, SESSIONS_TABLE } = await vite.ssrLoadModule('/src/analysis/fleet.ts');
  const { startServer } = await vite.ssrLoadModule('/src/cli/openServer.ts');
  const folder = join(work, 'fleet');
  const indexDir = join(work, 'index');
  execFileSync('mkdir', ['-p', folder, indexDir]);
  let t0 = performance.now();
  const files = await writeIndex(TableWriter, CALLS_TABLE, SESSIONS_TABLE, folder, indexDir);
  const sizes = ['sessions.parquet', 'calls.parquet'].map((name) => `${name} ${(statSync(join(indexDir, name)).size / 1e6).toFixed(1)} MB`).join(', ');
  console.log(`index: ${SESSIONS} sessions, ${CALLS} calls written in ${(performance.now() - t0).toFixed(0)} ms (${sizes})`);

  for (const app of APPS) servers.push(await startServer({ appDir: app, capturesDir: work, port: 0, library: { folder, indexDir, files, unreadable: [] } }));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const results = APPS.map(() => []);
  for (let run = 0; run < RUNS; run++) for (const [i, server] of servers.entries()) results[i]?.push(await benchPage(server.url));
  const floor = await jsonFloor();
  for (const [i, app] of APPS.entries()) report(app, results[i] ?? [], floor);
  console.log(`  load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  await browser?.close();
  for (const server of servers) await server.close();
  await vite.close();
  rmSync(work, { recursive: true, force: true });
}

function report(app, results, floor) {
  const best = (key) => Math.min(...results.map((r) => r[key]));
  const all = (key) => results.map((r) => r[key].toFixed(0)).join(' / ');
  console.log(`\nlibrary in Chromium (${app.startsWith(root) ? app.slice(root.length + 1) : app}), ${SESSIONS} sessions / ${CALLS} calls, ${RUNS} runs (best, then each run):`);
  const line = (name, key, aim) => console.log(`  ${name.padEnd(28)} ${best(key).toFixed(0).padStart(6)} ms   (${all(key)})${aim ? `   aim < ${aim}` : ''}`);
  line('  last script fetched', 'scriptsFetched');
  line('  sessions.parquet fetched', 'sessionsFetched');
  line('first rows', 'firstRows', FIRST_ROWS_AIM_MS);
  line('  calls.parquet fetched', 'callsFetched');
  line('all stats', 'stats');
  line('filter (label)', 'filter', QUERY_AIM_MS);
  line('filter (status, on top)', 'status', QUERY_AIM_MS);
  line('clear filters', 'clear', QUERY_AIM_MS);
  line('sort (calls)', 'sort', QUERY_AIM_MS);
  line('search (subject)', 'search');
  console.log(`  longest main-thread task    ${best('longest').toFixed(0)} ms while loading`);
  console.log(`  floor: JSON.parse of ${CALLS} call rows (6 fields) in the same browser: ${floor.toFixed(0)} ms; all stats / floor = ${(best('stats') / floor).toFixed(2)}`);
}

/** Synthetic rows, spread like a real fleet's: a few dozen labels, one call in twenty failed, subjects that repeat (commands, paths). */
async function writeIndex(TableWriter, CALLS_TABLE, SESSIONS_TABLE, folder, indexDir) {
  const labels = ['Bash', 'Read', 'Edit', 'Write', 'Grep', 'Glob', 'Task', 'WebFetch', 'TodoWrite', 'MultiEdit', 'LS', 'NotebookEdit', 'WebSearch', 'exec_command', 'apply_patch', 'read_file', 'list_dir', 'search', 'fetch', 'think'];
  const formats = ['claude-code', 'codex', 'acp-jsonrpc', 'ledger', 'grok-updates'];
  const commands = ['npm test', 'npm run build', 'git status', 'git diff', 'ls -la', 'cat package.json', 'npx vitest run', 'cargo test', 'pytest -x', 'make'];
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sessions = new TableWriter(indexDir, SESSIONS_TABLE);
  const calls = new TableWriter(indexDir, CALLS_TABLE);
  const files = [];
  const day0 = Date.UTC(2026, 9, 1);
  let written = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const file = join(folder, `project-${s % 37}`, `session-${String(s).padStart(5, '0')}.jsonl`);
    files.push(file);
    const format = formats[s % formats.length];
    const count = Math.round(((s + 1) * CALLS) / SESSIONS) - written;
    written += count;
    const started = day0 + Math.floor(random() * 60) * 86_400_000 + Math.floor(random() * 86_400_000);
    let at = started;
    let failed = 0;
    for (let c = 0; c < count; c++) {
      const label = pick(labels);
      const status = random() < 0.05 ? 'failed' : random() < 0.01 ? 'unfinished' : 'done';
      if (status === 'failed') failed++;
      const duration = Math.floor(random() * random() * 60_000);
      const subject = label === 'Bash' || label === 'exec_command' ? `${pick(commands)}${random() < 0.3 ? ` src/module-${Math.floor(random() * 200)}` : ''}` : `src/${pick(['app', 'ui', 'model', 'cli', 'lib'])}/file-${Math.floor(random() * 400)}.ts`;
      calls.add({
        file, format, session: `s-${s}`, call_id: `call-${c}`, label, subject, status, started_ms: at, duration_ms: status === 'unfinished' ? null : duration,
        permission: null, exit_code: label === 'Bash' ? (status === 'failed' ? 1 : 0) : null, turn_input_tokens: 1000 + c, turn_output_tokens: 100 + c,
      });
      at += duration + 500;
    }
    sessions.add({
      file, format, session: `s-${s}`, project: `/home/dev/project-${s % 37}`, started_ms: started, ended_ms: at, calls: count, failed,
      input_tokens: count * 1200, output_tokens: count * 150, cost: null, cost_unit: null, bytes: count * 1000, bad_lines: 0, modified_ms: at,
    });
  }
  await sessions.finish();
  await calls.finish();
  return files;
}

/** One load of the page and one of each query, timed in the page. */
async function benchPage(url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__bench = { firstRows: 0, stats: 0, longest: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!w.__bench.stats) w.__bench.longest = Math.max(w.__bench.longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    const check = () => {
      const b = w.__bench;
      if (!b.firstRows && document.querySelector('[data-session-file]')) b.firstRows = performance.now();
      if (!b.stats && document.querySelector('[data-testid="library"]') && !document.querySelector('[data-testid="library"] [aria-busy]') && document.querySelector('tfoot [data-label=""]')) b.stats = performance.now();
    };
    document.addEventListener('DOMContentLoaded', () => new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true }));
  });
  await page.goto(url);
  await page.waitForFunction(() => /** @type {any} */ (window).__bench.stats > 0, null, { timeout: 600_000, polling: 100 });
  const { firstRows, stats, longest } = await page.evaluate(() => ({ .../** @type {any} */ (window).__bench }));
  // Where the time goes before the rows: the page's own files, then the tables' (responseEnd, from navigation start).
  const fetched = await page.evaluate(() => {
    const ends = {};
    for (const entry of performance.getEntriesByType('resource')) {
      const name = /** @type {PerformanceResourceTiming} */ (entry).name;
      const key = name.endsWith('sessions.parquet') ? 'sessions' : name.endsWith('calls.parquet') ? 'calls' : /\.js$/.test(name) ? 'scripts' : null;
      if (key) ends[key] = Math.max(ends[key] ?? 0, /** @type {PerformanceResourceTiming} */ (entry).responseEnd);
    }
    return ends;
  });
  const query = (action) => page.evaluate(timedQuery, action);
  const filter = await query({ kind: 'select', selector: 'select[data-filter="label"]', value: 'Bash' });
  const status = await query({ kind: 'select', selector: 'select[data-filter="status"]', value: 'failed' });
  const clear = await query({ kind: 'click', selector: 'form[aria-label="Filter the sessions"] button' });
  const sort = await query({ kind: 'click', selector: '[data-sort="calls"]' });
  const search = await query({ kind: 'input', selector: 'input[type="search"]', value: 'module-17' });
  await page.close();
  return { firstRows, stats, longest, filter, status, clear, sort, search, scriptsFetched: fetched.scripts ?? 0, sessionsFetched: fetched.sessions ?? 0, callsFetched: fetched.calls ?? 0 };
}

/**
 * A user's action, from the event to the last DOM change it makes, once the page has settled: the
 * rows and the stats show the result (no `aria-busy` left in the library, the DOM quiet for a frame).
 */
async function timedQuery(action) {
  const target = document.querySelector(action.selector);
  if (!target) throw new Error(`no ${action.selector}`);
  const library = document.querySelector('[data-testid="library"]');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  await frame();
  let changed = 0;
  const observer = new MutationObserver(() => (changed = performance.now()));
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const start = performance.now();
  if (action.kind === 'click') /** @type {HTMLElement} */ (target).click();
  else {
    const proto = action.kind === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(target, action.value);
    target.dispatchEvent(new Event(action.kind === 'select' ? 'change' : 'input', { bubbles: true }));
  }
  // Settled: nothing busy, and a whole frame with no change after the last one.
  for (;;) {
    const before = changed;
    await frame();
    if (!library?.querySelector('[aria-busy]') && changed === before) break;
  }
  observer.disconnect();
  return (changed || start) - start;
}

/** The floor: JSON.parse of as many rows of the calls' six columns, in a page of the same browser. */
async function jsonFloor() {
  const page = await browser.newPage();
  const ms = await page.evaluate((count) => {
    const lines = [];
    for (let i = 0; i < count; i++) lines.push(`{"file":"/f/project-${i % 37}/session-${i % 1000}.jsonl","call_id":"call-${i}","label":"Bash","subject":"npm test src/module-${i % 200}","status":"done","duration_ms":${i % 60000}}`);
    const text = `[${lines.join(',')}]`;
    const start = performance.now();
    const parsed = JSON.parse(text);
    const ms = performance.now() - start;
    return parsed.length === count ? ms : -1;
  }, CALLS);
  await page.close();
  return ms;
}
