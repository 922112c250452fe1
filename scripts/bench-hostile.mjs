#!/usr/bin/env node
/* global window, PerformanceObserver -- the functions passed to page.evaluate run in the page */
// npm run bench:hostile: issue 12's hostile inputs (scripts/hostile.mjs), in two parts.
// 1. How long the Node reader takes on each, at half and at its stated size. Linear time doubles
//    from half to whole (x2.0); a quadratic pass would take four times as long (x4.0). Each time is
//    also printed as a ratio to a floor measured in the same run on the same file: JSON.parse of
//    every line.
// 2. The built viewer (dist/app, as `npm run build` left it) in Chromium loading every case: the
//    longest main-thread task from the page's first script until the case is read, printed beside
//    the bound issue 12 sets (100 ms), and split into the page's start-up and the load itself.
//   node scripts/bench-hostile.mjs [--runs 3] [--cases image-chunks,same-id-requests,...]
//                                  [--browser-cases all|a,b] [--no-browser] [--browser-only] [--app dist/app]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { arg, root } from './bench-common.mjs';
import { writeHostileCases } from './hostile.mjs';

const RUNS = Number(arg('runs', '3'));
const CASES = arg('cases', 'image-chunks,same-id-requests,same-id-replies,terminal-fan-out,one-call-updates,million-sessions').split(',');
const BROWSER_CASES = arg('browser-cases', 'all');
const NODE = !process.argv.includes('--browser-only');
const BROWSER = !process.argv.includes('--no-browser');
/** Issue 12: the main thread is never blocked longer than this while a hostile input loads. */
const TASK_BOUND_MS = 100;
const APP = arg('app', 'dist/app');


/** Best of RUNS, in milliseconds. */
async function best(run) {
  let fastest = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

function parseEveryLine(bytes) {
  for (const line of bytes.toString('utf8').split('\n')) {
    try {
      if (line.trim() !== '') JSON.parse(line);
    } catch {
      /* a bad line costs its parse attempt, as it does the reader */
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-hostile-'));
try {
  if (NODE) await benchNode();
  if (BROWSER) await benchBrowser();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function benchNode() {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const { ingest } = await import(join(root, 'dist/cli/model.js'));
  console.log(`loupe hostile-input benchmark, Node reader: best of ${RUNS} runs, node ${process.version}\n`);
  console.log('case                  half size           stated size         whole/half   reader/floor');
  for (const name of CASES) {
    const times = [];
    let floor = 0;
    let size = 0;
    for (const scale of [0.5, 1]) {
      const [written] = writeHostileCases(dir, name, { scale });
      const bytes = readFileSync(written.file);
      // One read first, so the half size is not also paying for the JIT's warm-up.
      if (scale === 0.5) await ingest(bytes);
      times.push(await best(() => ingest(bytes)));
      if (scale === 1) {
        floor = await best(() => parseEveryLine(bytes));
        size = bytes.length;
      }
      rmSync(written.file);
    }
    const [half, whole] = times;
    const cell = (ms) => `${ms.toFixed(0).padStart(6)} ms`.padEnd(20);
    console.log(`${name.padEnd(22)}${cell(half)}${cell(whole)}x${(whole / half).toFixed(2).padEnd(12)}x${(whole / floor).toFixed(1)}  (${(size / 1e6).toFixed(1)} MB)`);
  }
}

/** Each case loaded in a fresh page of the built viewer, its long tasks recorded from the page's first script. */
async function benchBrowser() {
  execFileSync('node', [join(root, 'scripts/ensure-chromium.mjs')], { stdio: 'inherit' });
  if (APP === 'dist/app' && !existsSync(join(root, 'dist/app/index.html'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const cases = writeHostileCases(dir).filter((c) => BROWSER_CASES === 'all' || BROWSER_CASES.split(',').includes(c.name));
  const server = await preview({ root, build: { outDir: APP }, preview: { port: 4181, strictPort: false }, logLevel: 'silent' });
  const url = server.resolvedUrls?.local[0] ?? 'http://localhost:4181/';
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  });
  console.log(`\nloupe hostile-input benchmark, the built viewer in Chromium: longest main-thread task (bound ${TASK_BOUND_MS} ms)\n`);
  console.log('case                       size        start-up    loading     longest     bound');
  let over = 0;
  try {
    for (const c of cases) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.addInitScript(() => {
        const w = /** @type {any} */ (window);
        w.__tasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__tasks.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(url);
      await page.getByTestId('file-input').waitFor({ state: 'attached' });
      const pickedAt = await page.evaluate(() => performance.now());
      await page.getByTestId('file-input').setInputFiles(c.file);
      await page.waitForSelector('[data-load-state="done"]', { timeout: 600_000, state: 'attached' });
      // The rows the last delta brings are drawn after it: give them a frame or two.
      await page.waitForTimeout(300);
      /** @type {[number, number][]} */
      const tasks = await page.evaluate(() => /** @type {any} */ (window).__tasks);
      await page.close();
      const longest = (list) => Math.max(0, ...list.map(([, d]) => d));
      const startup = longest(tasks.filter(([t]) => t < pickedAt));
      const loading = longest(tasks.filter(([t]) => t >= pickedAt));
      const all = Math.max(startup, loading);
      if (all > TASK_BOUND_MS) over++;
      const ms = (v) => `${v.toFixed(0).padStart(5)} ms`.padEnd(12);
      console.log(`${c.name.padEnd(27)}${`${(c.bytes / 1e6).toFixed(1)} MB`.padEnd(12)}${ms(startup)}${ms(loading)}${ms(all)}${all > TASK_BOUND_MS ? `over ${TASK_BOUND_MS}` : `within ${TASK_BOUND_MS}`}`);
      rmSync(c.file, { force: true });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`\n${over} of ${cases.length} cases had a main-thread task over ${TASK_BOUND_MS} ms (tasks under 50 ms are not reported by the browser: 0 means none over 50).`);
}
