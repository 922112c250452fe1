#!/usr/bin/env node
// npm run bench:hostile: how long the Node reader takes on issue 12's hostile inputs, each at half
// and at its stated size (scripts/hostile.mjs). Linear time doubles from half to whole (x2.0); a
// quadratic pass would take four times as long (x4.0). Each time is also printed as a ratio to a
// floor measured in the same run on the same file: JSON.parse of every line.
//   node scripts/bench-hostile.mjs [--runs 3] [--cases image-chunks,same-id-requests,...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, root } from './bench-common.mjs';
import { writeHostileCases } from './hostile.mjs';

const RUNS = Number(arg('runs', '3'));
const CASES = arg('cases', 'image-chunks,same-id-requests,same-id-replies,terminal-fan-out,one-call-updates,million-sessions').split(',');

execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const { ingest } = await import(join(root, 'dist/cli/model.js'));

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
console.log(`loupe hostile-input benchmark: best of ${RUNS} runs, node ${process.version}\n`);
console.log('case                  half size           stated size         whole/half   reader/floor');
try {
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
} finally {
  rmSync(dir, { recursive: true, force: true });
}
