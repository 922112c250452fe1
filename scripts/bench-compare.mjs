#!/usr/bin/env node
// npm run bench:compare: what comparing two runs costs (src/analysis/compare.ts), as a ratio to a
// floor measured in the same run: numbering both runs' step keys (keyNumbers), the least any
// comparison does. Runs of --steps steps a side (100k by default): equal, with a few or many
// planted edits, and two runs that share nothing (past the bound on D: the fallback alignment).
// Each side is the best of --runs, taken in turns.
//
// Then, in Chromium, what the viewer's comparison costs while B is followed (`loupe open B --follow
// --vs A`): A a generated session of --follow-calls calls, B a rerun of it that parts from it half
// way, growing from nothing to its end in --updates appends, each followed by an update that changes
// no step (a call's output growing). Each update is compared the viewer's way (createIncrementalCompare)
// and from scratch (compareRuns), in turns; the floor is copying B's steps, as reading the rows does.
//   node scripts/bench-compare.mjs [--steps 100000] [--runs 3] [--follow-calls 100000] [--updates 100] [--no-browser]
/* global window -- the functions passed to page.evaluate run in the page */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { arg, root } from './bench-common.mjs';

const STEPS = Number(arg('steps', '100000'));
const RUNS = Number(arg('runs', '3'));
const FOLLOW_CALLS = Number(arg('follow-calls', '100000'));
const UPDATES = Number(arg('updates', '100'));
const BROWSER = !process.argv.includes('--no-browser');

const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'warn', configFile: false, optimizeDeps: { noDiscovery: true, entries: [] } });
try {
  const { compareRuns, keyNumbers } = await server.ssrLoadModule('/src/analysis/compare.ts');

  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const labels = ['Read', 'Edit', 'Run Command', 'Search', 'Write', 'List Files'];
  let id = 0;
  const step = () => ({ id: `c${id++}`, label: labels[Math.floor(random() * labels.length)], subject: `src/file${Math.floor(random() * 500)}.ts`, status: random() < 0.05 ? 'failed' : 'done', durationMs: Math.floor(random() * 1000) });
  const runOf = (n) => Array.from({ length: n }, step);
  /** A copy of `run` with `edits` planted: a third dropped, a third inserted, a third changed status. */
  const edited = (run, edits) => {
    const copy = run.map((s) => ({ ...s, id: `c${id++}` }));
    for (let n = 0; n < edits; n++) {
      const at = Math.floor(random() * copy.length);
      const kind = n % 3;
      if (kind === 0) copy.splice(at, 1);
      else if (kind === 1) copy.splice(at, 0, step());
      else copy[at] = { ...copy[at], status: copy[at].status === 'done' ? 'failed' : 'done' };
    }
    return copy;
  };

  const timed = (fn) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };
  /** Interleaved, so a machine busy with other work weighs on both sides alike; the best of each. */
  const best = (floor, measured) => {
    floor();
    measured();
    let [bestFloor, bestMeasured] = [Infinity, Infinity];
    for (let run = 0; run < RUNS; run++) {
      bestFloor = Math.min(bestFloor, timed(floor));
      bestMeasured = Math.min(bestMeasured, timed(measured));
    }
    return [bestFloor, bestMeasured];
  };

  const a = runOf(STEPS);
  const cases = [
    ['equal', a.map((s) => ({ ...s }))],
    ['100 edits', edited(a, 100)],
    ['1000 edits', edited(a, 1000)],
    ['nothing shared', runOf(STEPS)],
  ];
  console.log(`compare: two runs of ${STEPS} steps a side, best of ${RUNS}; floor = numbering both runs' keys`);
  for (const [name, b] of cases) {
    let comparison;
    const [floorMs, compareMs] = best(() => keyNumbers(a, b), () => (comparison = compareRuns(a, b)));
    const { counts, alignment } = comparison;
    const how = alignment.exact ? 'exact' : `bounded at D=${alignment.maxEdits}, ${alignment.unalignedA}+${alignment.unalignedB} steps unaligned`;
    console.log(`  ${name.padEnd(15)} ${(compareMs / floorMs).toFixed(1).padStart(6)}× floor   (${compareMs.toFixed(0)} ms vs ${floorMs.toFixed(0)} ms; matched ${counts.matched}, only-a ${counts.onlyA}, only-b ${counts.onlyB}; ${how})`);
  }
  if (BROWSER) await benchFollowed(server);
} finally {
  await server.close();
}

/** A generated ACP session of `calls` calls in .bench/ (made once). */
function generated(calls) {
  const dir = join(root, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `compare-acp-${calls}calls.jsonl`);
  if (!existsSync(file)) execFileSync('node', [join(root, 'scripts/gen-session.mjs'), '--format', 'acp', '--calls', String(calls), '--seed', '7', '--out', file], { stdio: 'inherit' });
  return file;
}

async function benchFollowed(ssr) {
  const { readSessionFile } = await ssr.ssrLoadModule('/src/cli/files.ts');
  const { stepsOfSession } = await ssr.ssrLoadModule('/src/analysis/compare.ts');
  const read = await readSessionFile(generated(FOLLOW_CALLS));
  if (!('session' in read)) throw new Error(read.unreadable);
  const a = stepsOfSession(read.session);
  // The rerun: the same steps, one skipped half way and one failed at three quarters.
  const b = a.map((step, index) => ({ ...step, id: `b${index}`, ...(index === Math.floor(a.length * 0.75) ? { status: 'failed' } : {}) }));
  b.splice(Math.floor(a.length / 2), 1);

  execFileSync('node', [join(root, 'scripts/ensure-chromium.mjs')], { stdio: 'inherit' });
  const pageServer = await createServer({ root, configFile: false, logLevel: 'warn', server: { port: 0 }, optimizeDeps: { noDiscovery: true, entries: [] } });
  await pageServer.listen();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(new URL('@vite/client', pageServer.resolvedUrls.local[0]).href);
    const result = await page.evaluate(
      async ({ a, b, updates }) => {
        const { compareRuns } = await import('/src/analysis/compare.ts');
        const { createIncrementalCompare } = await import('/src/analysis/compareIncremental.ts');
        const compare = createIncrementalCompare();
        const ms = { floor: 0, full: 0, incremental: 0 };
        const timed = (key, fn) => {
          const start = window.performance.now();
          const value = fn();
          ms[key] += window.performance.now() - start;
          return value;
        };
        let mismatches = 0;
        let shown = 0;
        for (let update = 1; update <= updates; update++) {
          const length = Math.round((b.length * update) / updates);
          // Two updates: the steps grew; then only output did (the same steps, read again).
          for (let again = 0; again < 2; again++) {
            const grown = timed('floor', () => b.slice(0, length).map((step) => ({ ...step })));
            const full = timed('full', () => compareRuns(a, grown));
            const incremental = timed('incremental', () => compare(a, grown));
            if (JSON.stringify(full.counts) !== JSON.stringify(incremental.counts) || full.pairs.length !== incremental.pairs.length) mismatches++;
            shown = incremental.counts;
          }
        }
        return { ms, mismatches, counts: shown, userAgent: window.navigator.userAgent };
      },
      { a, b, updates: UPDATES },
    );
    const each = (key) => result.ms[key] / (UPDATES * 2);
    const { floor, full, incremental } = { floor: each('floor'), full: each('full'), incremental: each('incremental') };
    console.log(`followed in Chromium: A ${a.length} steps (generated, ${FOLLOW_CALLS} calls), B growing to ${b.length} in ${UPDATES} appends + ${UPDATES} updates that change no step`);
    console.log(`  from scratch    ${(full / floor).toFixed(1).padStart(6)}× floor   (${full.toFixed(1)} ms an update; floor ${floor.toFixed(1)} ms = copying B's steps)`);
    console.log(`  incremental     ${(incremental / floor).toFixed(1).padStart(6)}× floor   (${incremental.toFixed(1)} ms an update)`);
    console.log(`  incremental ÷ from scratch: ${(incremental / full).toFixed(2)}   (results differing: ${result.mismatches}; at the end matched ${result.counts.matched}, only-a ${result.counts.onlyA}, only-b ${result.counts.onlyB})`);
  } finally {
    await browser.close();
    await pageServer.close();
  }
}
