#!/usr/bin/env node
// npm run bench:compare: what comparing two runs costs (src/analysis/compare.ts), as a ratio to a
// floor measured in the same run: numbering both runs' step keys (keyNumbers), the least any
// comparison does. Runs of --steps steps a side (100k by default): equal, with a few or many
// planted edits, and two runs that share nothing (past the bound on D: the fallback alignment).
// Each side is the best of --runs, taken in turns.
//   node scripts/bench-compare.mjs [--steps 100000] [--runs 3]
import { createServer } from 'vite';
import { arg } from './bench-common.mjs';

const STEPS = Number(arg('steps', '100000'));
const RUNS = Number(arg('runs', '3'));

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
} finally {
  await server.close();
}
