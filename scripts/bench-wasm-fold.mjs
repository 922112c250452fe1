#!/usr/bin/env node
// `npm run bench:index-read`: `loupe index`'s read of a Claude Code log fed from the
// WebAssembly pass's tables (src/cli/claudeCodeScanRead.ts) against today's
// (model/claudeCodeRead.ts with cli/bufferLines.ts). Holds the two to the same fleetRows on every
// file of --check-dir (all of them) and on fixtures/, then times, by CPU time, runs alternating in
// this process, best of --rounds, on every --every'th file of --dir:
//   (a) floor: JSON.parse(buffer.toString('utf8', start, end)) per line;
//   (L) today's readClaudeCodeForRows(buffer, bufferLines(buffer));
//   (W) readClaudeCodeForRowsFromScan(buffer, wasm, bufferLines(buffer)).
// node scripts/bench-wasm-fold.mjs [--dir DIR (default: 200 copies of the real samples, made in a temp folder)] [--every 5] [--rounds 7] [--only a,L,W] [--check 0]
// Builds the modules it times with the CLI's settings (scripts/build-node.mjs) to a temporary folder.
/* global WebAssembly */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { arg, claudeLogsDir, jsonlFiles, root } from './bench-common.mjs';
import { compileIndexScan } from './build-wasm.mjs';
import { buildForNode } from './build-node.mjs';


const dir = await claudeLogsDir(arg('dir', ''));
const every = Number(arg('every', '5'));
const rounds = Number(arg('rounds', '7'));
const doCheck = arg('check', '1') !== '0';

// The entry is written for the build and removed after it: src/scratch is never committed.
const ENTRY = `export { readClaudeCodeForRows } from '../model/claudeCodeRead';
export { readClaudeCodeForRowsFromScan } from '../cli/claudeCodeScanRead';
export { bufferLines } from '../cli/bufferLines';
export { fleetRows } from '../analysis/fleet';
`;
const scratch = join(root, 'src/scratch');
const outDir = mkdtempSync(join(tmpdir(), 'wasm-fold-'));
let mod;
try {
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'benchWasmFold.ts'), ENTRY);
  const built = await buildForNode({ scanFold: 'src/scratch/benchWasmFold.ts' }, outDir);
  mod = await import(built.scanFold);
} finally {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
const { readClaudeCodeForRows, readClaudeCodeForRowsFromScan, bufferLines, fleetRows } = mod;
const binary = await compileIndexScan();
const { instance } = await WebAssembly.instantiate(binary, { env: { abort() { throw new Error('abort'); } } });
const wasm = instance.exports;
console.log(`module: ${binary.length} bytes`);

const FACTS = { file: 'f', bytes: 0, modifiedMs: 0, headFormat: 'claude-code', project: null, startedMs: null, sessionId: null, title: null };
const rowsOf = (session) => (session === null ? null : fleetRows(session, FACTS));

if (doCheck) {
  const checkFiles = [...jsonlFiles(dir), ...jsonlFiles(join(root, 'fixtures'))];
  const totals = { files: 0, read: 0, nulls: 0, fast: 0, js: 0, blank: 0, differ: 0 };
  for (const file of checkFiles) {
    const buffer = readFileSync(file);
    const counts = { fast: 0, js: 0, blank: 0 };
    const today = rowsOf(readClaudeCodeForRows(buffer, bufferLines(buffer)));
    const mine = rowsOf(readClaudeCodeForRowsFromScan(buffer, wasm, bufferLines(buffer), counts));
    totals.files++;
    if (today === null) totals.nulls++;
    else totals.read++;
    // Lines counted in the files read (a refused file stops at its first line the JS path refuses).
    if (today !== null) {
      totals.fast += counts.fast;
      totals.js += counts.js;
      totals.blank += counts.blank;
      if (counts.js > 0) console.log(`JS path: ${counts.js} of ${counts.fast + counts.js} lines in ${file}`);
    }
    if (!isDeepStrictEqual(today, mine)) {
      totals.differ++;
      if (totals.differ <= 5) console.log(`DIFFERS: ${file} (today ${today === null ? 'null' : 'rows'}, scan ${mine === null ? 'null' : 'rows'})`);
    }
  }
  console.log('check:', JSON.stringify(totals));
}

const files = jsonlFiles(dir).filter((_, i) => i % every === 0);
const buffers = files.map((f) => readFileSync(f));
const totalBytes = buffers.reduce((n, b) => n + b.length, 0);
console.log(`timing: ${files.length} files, ${(totalBytes / 1e6).toFixed(1)} MB (every ${every}th of ${dir})`);

function floor() {
  let sink = 0;
  for (const buffer of buffers) {
    let start = 0;
    while (start < buffer.length) {
      let end = buffer.indexOf(10, start);
      if (end < 0) end = buffer.length;
      if (end > start) {
        try {
          if (JSON.parse(buffer.toString('utf8', start, end)) !== undefined) sink++;
        } catch {
          // counted as nothing
        }
      }
      start = end + 1;
    }
  }
  return sink;
}

const counts = { fast: 0, js: 0, blank: 0 };
const variants = {
  a: floor,
  L: () => {
    let sink = 0;
    for (const buffer of buffers) sink += readClaudeCodeForRows(buffer, bufferLines(buffer))?.counts.lines ?? 0;
    return sink;
  },
  W: () => {
    let sink = 0;
    for (const buffer of buffers) sink += readClaudeCodeForRowsFromScan(buffer, wasm, bufferLines(buffer), counts)?.counts.lines ?? 0;
    return sink;
  },
};
const names = arg('only', 'a,L,W').split(',');
const best = {};
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length];
    const before = process.cpuUsage();
    variants[name]();
    const used = process.cpuUsage(before);
    best[name] = Math.min(best[name] ?? Infinity, (used.user + used.system) / 1000);
  }
}
for (const name of names) {
  const ms = best[name];
  if (ms === undefined) continue;
  console.log(`(${name}) ${ms.toFixed(0).padStart(5)} ms CPU  ${(totalBytes / 1e6 / (ms / 1000)).toFixed(0).padStart(5)} MB/s  ${(ms / (best.a ?? NaN)).toFixed(3)} of (a)`);
}
if (best.W !== undefined && best.L !== undefined) console.log(`(W)/(L) ${(best.W / best.L).toFixed(3)}`);
if (counts.fast + counts.js > 0) console.log(`W's lines per run: fast ${counts.fast / rounds}, JS path ${counts.js / rounds} (${((100 * counts.js) / (counts.fast + counts.js)).toFixed(2)}%), blank ${counts.blank / rounds}`);
