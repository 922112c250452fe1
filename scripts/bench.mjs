#!/usr/bin/env node
// npm run bench: ingest speed and memory in Node on 100 MB generated inputs, each figure printed as
// a ratio to a floor measured in the same run (bare JSON.parse of the same lines).
//   node scripts/bench.mjs [--mb 100] [--runs 3] [--formats acp,ledger,acp-long-output] [--detail full,light]
//   (`--formats claude-code --detail light,rows`: the index's read of a Claude Code log beside the light read)
// A format may also be the path of a file to read as it is (e.g. a native log made elsewhere).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, benchInput, longOutputBenchInput, nativeBenchInput, root } from './bench-common.mjs';
import { buildForNode } from './build-node.mjs';
import { timeJsonParse } from './json-floor.mjs';

const MB = Number(arg('mb', '100'));
const RUNS = Number(arg('runs', '3'));
// `acp-long-output`: the ACP input with its tool output made 8 times longer (lines of 8–32 KB),
// where a light read skims most of the bytes. `claude-code`, `codex`: a real native log's turns
// repeated with their ids varied (bench-common.mjs), not in the default set.
const FORMATS = arg('formats', 'acp,ledger,acp-long-output').split(',');
// full: every field kept (the in-thread path, small files in the viewer); light: bulk left in the
// source (the CLI, and the viewer's worker for large files). See BuilderOptions in src/model.
// rows: a Claude Code log read for its rows alone, as `loupe index` reads one too large to read
// whole (through the WebAssembly pass, in windows read straight into its memory:
// cli/indexFile.ts's claudeCodeRowsOfFile); its memory is the window and the session the rows are made of.
const DETAILS = arg('detail', 'full,light').split(',');
const DETAIL = arg('detail', 'full');
// Issue 10's aims: a light read faster than parsing its lines, a full one at least 0.6 of that;
// a light read holding at most half the file in memory, a full one at most 1.3 times it.
// The index's read is held to the light read's aims.
const AIMS = { light: { ratio: 1.0, memory: 0.5 }, full: { ratio: 0.6, memory: 1.3 } };
AIMS.rows = AIMS.light;

if (process.argv.includes('--child')) {
  await child();
} else {
  await parent();
}

async function parent() {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  // The index's own read, built with the CLI's settings into a folder removed at the end.
  const indexBuild = DETAILS.includes('rows') ? mkdtempSync(join(tmpdir(), 'loupe-bench-index-')) : null;
  try {
    const indexModule = indexBuild === null ? '' : (await buildForNode({ indexFile: 'src/cli/indexFile.ts' }, indexBuild)).indexFile;
    await benchFormats(indexModule);
  } finally {
    if (indexBuild !== null) rmSync(indexBuild, { recursive: true, force: true });
  }
}

async function benchFormats(indexModule) {
  console.log(`loupe ingest benchmark: ${MB} MB per file, best of ${RUNS} runs, node ${process.version}\n`);
  for (const format of FORMATS) {
    const file = existsSync(format) ? format : format === 'acp-long-output' ? await longOutputBenchInput(MB) : format === 'claude-code' || format === 'codex' ? await nativeBenchInput(format, MB) : benchInput(format, MB);
    for (const detail of DETAILS) {
    // Each measurement in a fresh process: a clean heap for the memory figure, no JIT carry-over.
    const result = spawnSync('node', ['--expose-gc', '--max-old-space-size=8192', fileURLToPath(import.meta.url), '--child', file, '--runs', String(RUNS), '--detail', detail, '--index-module', indexModule], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (result.status !== 0) throw new Error(`benchmark of ${file} failed`);
    const r = JSON.parse(result.stdout);
    const size = statSync(file).size / 1e6;
    console.log(`${format}, read ${detail} (${size.toFixed(1)} MB, ${r.lines.toLocaleString()} lines, ${r.calls.toLocaleString()} calls)`);
    console.log(`  ingest MB/s         ${r.ingestMBps.toFixed(1)}`);
    console.log(`  floor MB/s          ${r.floorMBps.toFixed(1)}   (bare JSON.parse of the same lines)`);
    const aim = AIMS[detail] ?? AIMS.full;
    console.log(`  ratio               ${(r.ingestMBps / r.floorMBps).toFixed(2)}   (aim >= ${aim.ratio.toFixed(1)})`);
    console.log(`  JS scan floor       ${(r.floorMBps / r.scanMBps).toFixed(2)} x the time of JSON.parse   (only finding the quotes and control characters of the same lines, natively: a JS reader that skips JSON.parse starts here)`);
    console.log(`  ratio by CPU time   ${(r.ingestCpuMBps / r.floorCpuMBps).toFixed(2)}   (${r.ingestCpuMBps.toFixed(1)} / ${r.floorCpuMBps.toFixed(1)} MB/s of CPU; steadier on a shared machine)`);
    console.log(`  peak memory         ${(r.peakBytes / 1e6).toFixed(0)} MB = ${(r.peakBytes / (size * 1e6)).toFixed(2)} x file size   (aim <= ${aim.memory}; heap + array buffers above the baseline)`);
    console.log(`  retained            ${(r.retainedBytes / 1e6).toFixed(0)} MB = ${(r.retainedBytes / (size * 1e6)).toFixed(2)} x file size   (the session once read, garbage collected: what a viewer holds)`);
    console.log(`  peak RSS            ${(r.peakRss / 1e6).toFixed(0)} MB\n`);
    }
  }
}

async function child() {
  const file = process.argv[process.argv.indexOf('--child') + 1];
  const model = await import(join(root, 'dist/cli/model.js'));
  // The file read as the CLI reads one (cli/fileChunks.ts: one buffer used again for every chunk).
  const { fileChunks } = await import(join(root, 'dist/cli/fileChunks.js'));
  // `rows`: the index's read of a Claude Code log.
  const { claudeCodeRowsOfFile } = DETAIL === 'rows' ? await import(arg('index-module', '')) : {};
  const ingest = DETAIL !== 'rows' ? model.ingest : async () => {
    const session = claudeCodeRowsOfFile(file);
    if (session === null) throw new Error(`${file}: not read for rows alone (not a Claude Code log, or one with sub-agents)`);
    return session;
  };
  const bytes = statSync(file).size;

  // Memory first, on a cold clean heap, sampled as the input streams in. The session is dropped
  // when measureMemory returns.
  const { lines, calls, peak, peakRss, retained } = await measureMemory(ingest, fileChunks, file);

  // Ingest and floor runs alternate, so a busy machine slows both alike; each figure is the best
  // of its runs, by wall time and by CPU time (process.cpuUsage: this process, GC threads included).
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let ingestBest = Infinity;
  let ingestCpuBest = Infinity;
  let floorBest = Infinity;
  let floorCpuBest = Infinity;
  let scanBest = Infinity;
  // Reported, so the scan's result is used.
  let scanFound = 0;
  for (let run = 0; run < RUNS; run++) {
    globalThis.gc();
    let start = performance.now();
    let startCpu = cpuMs();
    await ingest(fileChunks(file), { detail: DETAIL });
    ingestBest = Math.min(ingestBest, performance.now() - start);
    ingestCpuBest = Math.min(ingestCpuBest, cpuMs() - startCpu);

    // The floor: the same lines, already split into strings, through JSON.parse and nothing else.
    // Split anew each run and dropped after it, so the ingest runs do not carry its strings.
    const text = readFileSync(file, 'utf8').split('\n');
    globalThis.gc();
    start = performance.now();
    startCpu = cpuMs();
    timeJsonParse(text);
    floorBest = Math.min(floorBest, performance.now() - start);
    floorCpuBest = Math.min(floorCpuBest, cpuMs() - startCpu);
    const scan = scanFloor(text);
    scanBest = Math.min(scanBest, scan.ms);
    scanFound = scan.found;
  }
  const mb = bytes / 1e6;
  process.stdout.write(JSON.stringify({
    lines, calls, ingestMBps: mb / (ingestBest / 1000), floorMBps: mb / (floorBest / 1000),
    ingestCpuMBps: mb / (ingestCpuBest / 1000), floorCpuMBps: mb / (floorCpuBest / 1000), peakBytes: peak, peakRss, retainedBytes: retained,
    scanMBps: mb / (scanBest / 1000), scanFound,
  }));
}

/**
 * What a reader that skips JSON.parse would still have to do, at the least, in JS: find every
 * string's closing quote and check the text for raw control characters (JSON forbids them in a
 * string), each with one native call per line or per string. No object is built and no escape is
 * read, so this is a lower bound for such a reader, measured to show how far below JSON.parse
 * one can get in JS at all.
 */
function scanFloor(lines) {
  // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
  const control = /[\u0000-\u001f]/;
  const start = performance.now();
  let found = 0;
  for (const line of lines) {
    if (control.test(line)) found++;
    for (let at = line.indexOf('"'); at >= 0; at = line.indexOf('"', at + 1)) found++;
  }
  return { ms: performance.now() - start, found };
}

async function measureMemory(ingest, fileChunks, file) {
  globalThis.gc();
  const base = used();
  let peak = 0;
  let peakRss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - base);
    peakRss = Math.max(peakRss, m.rss);
  };
  const timer = setInterval(sample, 5);
  const session = await ingest(fileChunks(file), { onProgress: sample, detail: DETAIL });
  sample();
  clearInterval(timer);
  // What stays once the garbage is collected: the session a viewer holds while it is shown.
  globalThis.gc();
  const retained = used() - base;
  return { lines: session.counts.lines, calls: session.calls.size, peak, peakRss, retained };
}

function used() {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
