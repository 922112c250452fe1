#!/usr/bin/env node
// npm run bench:fold: where a read's time goes, stage by stage, and what the session it builds keeps
// in memory, on a generated ACP input:
//   - stages: lines and decoding alone; the reader alone (JSON.parse or the skim, classification,
//     records dropped); the whole read (ingest of the bytes in memory), each best of N by CPU time
//     as a ratio to JSON.parse of the same lines, in the same alternation as the fold;
//   - fold time: the input's records read once (src/model/testing/foldBench.ts), then folded into a
//     fresh builder, best of N, by wall and CPU time, as a ratio to bare JSON.parse of the same
//     lines timed in the same run (alternating), with the GC time spent inside the folds;
//   - retained heap: a whole read of the file (ingest, as the CLI reads it), after GC, as a ratio to
//     the file size, with what the session holds (calls, history entries, items).
//   node scripts/bench-fold.mjs [--mb 40] [--runs 7] [--format acp] [--detail light|full]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, benchInput } from './bench-common.mjs';
import { buildForNode } from './build-node.mjs';
import { timeJsonParse } from './json-floor.mjs';

const MB = Number(arg('mb', '40'));
const RUNS = Number(arg('runs', '7'));
const FORMAT = arg('format', 'acp');
const DETAIL = arg('detail', 'light');

if (process.argv.includes('--child')) await child(process.argv[process.argv.indexOf('--child') + 1]);
else await parent();

async function parent() {
  const work = mkdtempSync(join(tmpdir(), 'loupe-bench-fold-'));
  try {
    // Built as the CLI is built: the same code `loupe summarize` runs.
    const { fold: bundle } = await buildForNode({ fold: 'src/model/testing/foldBench.ts' }, work);
    const file = benchInput(FORMAT, MB);
    // A fresh process: a clean heap for the memory figure, no JIT state from the build.
    const result = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', bundle, '--mb', String(MB), '--runs', String(RUNS), '--format', FORMAT, '--detail', DETAIL], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (result.status !== 0) throw new Error(`the fold benchmark of ${file} failed`);
    report(JSON.parse(result.stdout), statSync(file).size, file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function report(r, size, file) {
  const mb = size / 1e6;
  console.log(`loupe fold benchmark: ${file} (${mb.toFixed(1)} MB, ${r.lines.toLocaleString()} lines), read ${DETAIL}, best of ${RUNS}, node ${process.version}\n`);
  console.log(`  fold               ${r.foldMs.toFixed(0)} ms = ${(r.foldMs / r.floorMs).toFixed(3)} x the time of JSON.parse of the same lines (${r.floorMs.toFixed(0)} ms)`);
  console.log(`  fold by CPU time   ${r.foldCpuMs.toFixed(0)} ms = ${(r.foldCpuMs / r.floorCpuMs).toFixed(3)} x JSON.parse's (${r.floorCpuMs.toFixed(0)} ms)   (steadier on a shared machine)`);
  console.log(`  GC in the fold     ${r.foldGcMs.toFixed(0)} ms (in the fastest fold)`);
  console.log(`  retained heap      ${(r.retained / 1e6).toFixed(1)} MB = ${(r.retained / size).toFixed(3)} x file size   (a whole ${DETAIL} read, after GC)`);
  console.log(`  session holds      ${r.calls.toLocaleString()} calls, ${r.history.toLocaleString()} history entries, ${r.items.toLocaleString()} items (${r.messages.toLocaleString()} messages)`);
  const x = (ms) => `${(ms / r.floorCpuMs).toFixed(2)} x`;
  console.log(`\n  where a whole ${DETAIL} read's CPU time goes, in units of JSON.parse's (best of ${RUNS} each, alternating with it):`);
  console.log(`    lines and decoding alone     ${x(r.linesCpuMs)}`);
  console.log(`    the reader alone             ${x(r.readerCpuMs)}   (lines, JSON.parse or the skim, classification; ${x(r.readerCpuMs - r.linesCpuMs)} beyond the lines)`);
  console.log(`    the fold alone               ${x(r.foldCpuMs)}`);
  console.log(`    the whole read               ${x(r.wholeCpuMs)}   (reader + fold: ${x(r.readerCpuMs + r.foldCpuMs)}; a ratio of ${(r.floorCpuMs / r.wholeCpuMs).toFixed(2)}, aim >= ${DETAIL === 'light' ? '1.0' : '0.6'})`);
}

async function child(bundle) {
  const { readRecords, foldRecords, ingest, readLinesAlone, readerAlone } = await import(pathToFileURL(bundle).href);
  const file = benchInput(FORMAT, MB);
  const { createReadStream } = await import('node:fs');
  const gc = () => {
    globalThis.gc();
    globalThis.gc();
  };
  const heap = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };

  // Retained memory first, on a cold heap: what a whole read keeps once the reading is done. The
  // session is dropped when `retainedBy` returns.
  const shape = await retainedBy(() => ingest(createReadStream(file, { highWaterMark: 1 << 20 }), { detail: DETAIL }), gc, heap);

  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  // GC pauses inside a fold: the fold's garbage, as a time.
  const { PerformanceObserver } = await import('node:perf_hooks');
  const gcEntries = [];
  const observer = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
  const gcMsBetween = (from, to) => gcEntries.filter((entry) => entry.startTime >= from && entry.startTime < to).reduce((sum, entry) => sum + entry.duration, 0);
  observer.observe({ entryTypes: ['gc'] });

  const bytes = new Uint8Array(readFileSync(file));
  const records = readRecords(bytes, DETAIL);
  const lines = readFileSync(file, 'utf8').split('\n');
  // The stages before the fold, and the whole read, by CPU time (best of the runs).
  const stageCpu = { lines: Infinity, reader: Infinity, whole: Infinity };
  const timeStage = async (name, run) => {
    gc();
    const startCpu = cpuMs();
    await run();
    stageCpu[name] = Math.min(stageCpu[name], cpuMs() - startCpu);
  };
  let foldMs = Infinity;
  let foldCpuMs = Infinity;
  let fastest = { start: 0, end: 0 };
  let floorMs = Infinity;
  let floorCpuMs = Infinity;
  for (let run = 0; run < RUNS; run++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    let start = performance.now();
    let startCpu = cpuMs();
    const calls = (await foldRecords(records, DETAIL)).calls.size;
    const end = performance.now();
    const ms = end - start;
    foldCpuMs = Math.min(foldCpuMs, cpuMs() - startCpu);
    if (ms < foldMs) {
      foldMs = ms;
      fastest = { start, end };
    }
    if (calls !== shape.calls) throw new Error(`the fold made ${calls} calls, a whole read ${shape.calls}`);

    gc();
    start = performance.now();
    startCpu = cpuMs();
    timeJsonParse(lines);
    floorMs = Math.min(floorMs, performance.now() - start);
    floorCpuMs = Math.min(floorCpuMs, cpuMs() - startCpu);
  }
  // The stages after the folds (timed among them, their garbage slowed the folds by a quarter).
  for (let run = 0; run < RUNS; run++) {
    await timeStage('lines', () => readLinesAlone(bytes));
    await timeStage('reader', () => readerAlone(bytes, DETAIL));
    await timeStage('whole', () => ingest(bytes, { detail: DETAIL, chunkSize: 1 << 20 }));
    gc();
    const startCpu = cpuMs();
    timeJsonParse(lines);
    floorCpuMs = Math.min(floorCpuMs, cpuMs() - startCpu);
  }
  // GC entries are delivered on later turns of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  const foldGcMs = gcMsBetween(fastest.start, fastest.end);
  process.stdout.write(JSON.stringify({ ...shape, foldMs, foldCpuMs, foldGcMs, floorMs, floorCpuMs, linesCpuMs: stageCpu.lines, readerCpuMs: stageCpu.reader, wholeCpuMs: stageCpu.whole }));
}

async function retainedBy(read, gc, heap) {
  gc();
  const base = heap();
  const session = await read();
  gc();
  const retained = heap() - base;
  return {
    retained,
    lines: session.counts.lines,
    calls: session.calls.size,
    history: [...session.calls.values()].reduce((sum, call) => sum + call.history.length, 0),
    items: session.items.length,
    messages: session.items.filter((item) => item.type === 'message').length,
  };
}
