#!/usr/bin/env node
/* global window, document, PerformanceObserver, MutationObserver -- the functions passed to page.evaluate run in the page */
// npm run bench:browser: the built viewer in Chromium on a 100 MB generated session. Prints time
// to first row, time to fully indexed, the floor (bare JSON.parse of the same lines, in the same
// page), their ratio, the longest main-thread task while reading, and the DOM row count.
//   node scripts/bench-browser.mjs [--mb 100] [--format acp]
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { arg, benchInput, root } from './bench-common.mjs';

const MB = Number(arg('mb', '100'));
const FORMAT = arg('format', 'acp');

execFileSync('node', [join(root, 'scripts/ensure-chromium.mjs')], { stdio: 'inherit' });
if (!existsSync(join(root, 'dist/app/index.html'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const file = benchInput(FORMAT, MB);
const sizeMB = statSync(file).size / 1e6;

const server = await preview({ root, build: { outDir: 'dist/app' }, preview: { port: 4180, strictPort: false }, logLevel: 'silent' });
const url = server.resolvedUrls?.local[0] ?? 'http://localhost:4180/';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  // Observers first: long tasks on the main thread, and the moment the first row and the end appear.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__bench = { longest: 0, longTasks: 0, start: 0, firstRow: 0, done: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!w.__bench.start || w.__bench.done) continue;
        w.__bench.longTasks++;
        w.__bench.longest = Math.max(w.__bench.longest, entry.duration);
      }
    }).observe({ type: 'longtask', buffered: false });
    const check = () => {
      const b = w.__bench;
      if (!b.start) return;
      if (!b.firstRow && document.querySelector('[data-call-id], [data-item]')) b.firstRow = performance.now();
      if (!b.done && document.querySelector('[data-load-state="done"]')) b.done = performance.now();
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-load-state'] });
    document.querySelector('[data-testid="file-input"]')?.addEventListener('change', (event) => {
      w.__bench.start = performance.now();
      w.__benchFile = /** @type {HTMLInputElement} */ (event.target).files?.[0];
    }, { capture: true });
  });
  await page.getByTestId('file-input').setInputFiles(file);
  await page.waitForFunction(() => /** @type {any} */ (window).__bench.done > 0, null, { timeout: 600_000, polling: 200 });
  const timing = await page.evaluate(() => ({ .../** @type {any} */ (window).__bench }));
  const rowsAfterLoad = await page.locator('[role="listitem"]').count();
  await page.keyboard.press('End');
  await page.waitForTimeout(500);
  const rowsAtEnd = await page.locator('[role="listitem"]').count();

  // The floor, in the same page: the same file's lines through JSON.parse and nothing else.
  const floorMs = await page.evaluate(async () => {
    const text = await /** @type {any} */ (window).__benchFile.text();
    const lines = text.split('\n');
    const start = performance.now();
    for (const line of lines) {
      if (!line) continue;
      try {
        JSON.parse(line);
      } catch {
        // as ingest: a bad line costs a throw
      }
    }
    return performance.now() - start;
  });

  const firstRow = timing.firstRow - timing.start;
  const indexed = timing.done - timing.start;
  console.log(`loupe in Chromium: ${FORMAT}, ${sizeMB.toFixed(1)} MB\n`);
  console.log(`  time to first row        ${firstRow.toFixed(0)} ms   (aim < 1000)`);
  console.log(`  time to fully indexed    ${indexed.toFixed(0)} ms = ${(sizeMB / (indexed / 1000)).toFixed(1)} MB/s`);
  console.log(`  floor (JSON.parse)       ${floorMs.toFixed(0)} ms = ${(sizeMB / (floorMs / 1000)).toFixed(1)} MB/s`);
  console.log(`  ratio                    ${(floorMs / indexed).toFixed(2)}   (aim >= 0.5)`);
  console.log(`  longest main-thread task ${timing.longest.toFixed(0)} ms   (${timing.longTasks} tasks over 50 ms while reading; aim: none over 100)`);
  console.log(`  DOM rows                 ${rowsAfterLoad} after load, ${rowsAtEnd} at the end`);
} finally {
  await browser.close();
  await server.close();
}
