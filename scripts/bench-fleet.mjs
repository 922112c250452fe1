// `loupe index` over a fleet of generated sessions (ACP, Grok, ledger, Claude Code and Codex logs),
// against `loupe summarize` run over the same files one by one, in the same run:
//   - throughput: the index's first run as a ratio of summarize's time (a process per file, as a
//     script would run it, and the same ingest + summarize in one process, no start-up per file);
//   - peak memory of the index at half and all of the fleet (the aim: flat in the number of files);
//   - a second run with one new file, one with that file changed (a session an agent is writing),
//     and one with none, as a fraction of the first run.
// Prints figures; asserts nothing. Usage: npm run bench:fleet [-- --sessions 1000 --mb 1 --jobs N]
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { arg, nativeBenchInput, root } from './bench-common.mjs';

const sessions = Number(arg('sessions', '60'));
const mb = Number(arg('mb', '1.5'));
const jobs = arg('jobs', String(availableParallelism()));
const GENERATOR = join(root, 'scripts/gen-session.mjs');
const FORMATS = ['acp', 'grok', 'ledger', 'claude-code', 'codex'];

const work = mkdtempSync(join(tmpdir(), 'loupe-bench-fleet-'));
try {
  await build({ root, configFile: join(root, 'vite.cli.config.ts'), logLevel: 'warn', build: { outDir: join(work, 'cli'), emptyOutDir: true } });
  const cli = join(work, 'cli', 'loupe.js');
  const fleet = await fleetOf(sessions, mb);
  const files = readdirSync(fleet).map((name) => join(fleet, name)).sort();
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  console.log(`fleet: ${files.length} sessions, ${(bytes / 1e6).toFixed(0)} MB (${FORMATS.join(', ')}), ${jobs} threads, load average ${loadAverage()}`);

  // The floor: summarize over the same files one by one, as processes and in one process.
  let t0 = performance.now();
  for (const file of files) execFileSync(process.execPath, [cli, 'summarize', file, '--json'], { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  const perProcess = performance.now() - t0;
  const { ingest, summarize } = await import(pathToFileURL(join(work, 'cli', 'model.js')).href);
  const { createReadStream } = await import('node:fs');
  t0 = performance.now();
  let calls = 0;
  for (const file of files) calls += summarize(await ingest(createReadStream(file, { highWaterMark: 1 << 20 }), { detail: 'light' })).calls.length;
  const inProcess = performance.now() - t0;

  // Peak memory at half the fleet, then the whole (links to the same files).
  const half = join(work, 'half');
  mkdirSync(half);
  for (const file of files.slice(0, Math.ceil(files.length / 2))) symlinkSync(file, join(half, file.split('/').at(-1)));
  const halfRun = index(cli, half, join(work, 'half-index'));
  const out = join(work, 'index');
  const first = index(cli, fleet, out);
  if (first.result.calls !== calls) console.log(`  ! the index has ${first.result.calls} calls, summarize counted ${calls}`);

  const extra = join(work, 'extra');
  mkdirSync(extra);
  generate('acp', 9_999, join(extra, 'new.jsonl'), Math.min(mb, 1));
  const unchanged = index(cli, fleet, out);
  symlinkSync(join(extra, 'new.jsonl'), join(fleet, 'zz-new.jsonl'));
  let oneNew;
  let oneChanged;
  try {
    oneNew = index(cli, fleet, out);
    // The same file written on: read again, and only the row groups from its rows on rewritten.
    generate('acp', 9_998, join(extra, 'new.jsonl'), Math.min(mb, 1));
    oneChanged = index(cli, fleet, out);
  } finally {
    rmSync(join(fleet, 'zz-new.jsonl'));
  }

  const mbps = (ms) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`\nfirst run (${first.result.sessions} sessions, ${first.result.calls} calls, ${first.result.threads} threads):`);
  console.log(`  loupe index                           ${seconds(first.ms)}  ${mbps(first.ms)}`);
  console.log(`  loupe summarize, a process per file   ${seconds(perProcess)}  ${mbps(perProcess)}   index throughput ×${(perProcess / first.ms).toFixed(2)}`);
  console.log(`  ingest + summarize in one process     ${seconds(inProcess)}  ${mbps(inProcess)}   index throughput ×${(inProcess / first.ms).toFixed(2)}`);
  console.log(`peak memory (RSS, all threads):`);
  console.log(`  ${halfRun.result.sessions} sessions: ${halfRun.peakMb} MB   ${first.result.sessions} sessions: ${first.peakMb} MB   (×${(first.peakMb / halfRun.peakMb).toFixed(2)} for ×${(first.result.sessions / halfRun.result.sessions).toFixed(2)} the sessions)`);
  console.log(`second runs, as a fraction of the first:`);
  console.log(`  nothing changed    ${seconds(unchanged.ms)}  ${((unchanged.ms / first.ms) * 100).toFixed(1)}%  (read ${unchanged.result.parsed}, kept ${unchanged.result.reused})`);
  console.log(`  one new file       ${seconds(oneNew.ms)}  ${((oneNew.ms / first.ms) * 100).toFixed(1)}%  (read ${oneNew.result.parsed}, kept ${oneNew.result.reused})   aim < 5%`);
  console.log(`  that file changed  ${seconds(oneChanged.ms)}  ${((oneChanged.ms / first.ms) * 100).toFixed(1)}%  (read ${oneChanged.result.parsed}, kept ${oneChanged.result.reused})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Runs `loupe index` in its own process: wall time (with start-up) and peak RSS (GNU time). */
function index(cli, dir, out) {
  const t0 = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, cli, 'index', dir, '--out', out, '--json', '--jobs', jobs], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`loupe index failed: ${run.stderr}`);
  const peakKb = Number(run.stderr.trim().split('\n').at(-1));
  return { ms, peakMb: Math.round(peakKb / 1024), result: JSON.parse(run.stdout) };
}

/** The fleet, made once in .bench/: the formats in turn, each file its own seed. */
async function fleetOf(count, sizeMb) {
  const dir = join(root, '.bench', `fleet-${count}x${sizeMb}mb`);
  if (existsSync(dir)) return dir;
  const part = `${dir}.part`;
  rmSync(part, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  console.log(`generating ${count} sessions of ${sizeMb} MB in ${dir} (once)…`);
  const natives = {};
  for (let i = 0; i < count; i++) {
    const format = FORMATS[i % FORMATS.length];
    const file = join(part, `${String(i).padStart(5, '0')}-${format}.jsonl`);
    if (format === 'claude-code' || format === 'codex') {
      // A real log's turns repeated (bench-common): the same file under each name.
      natives[format] ??= await nativeBenchInput(format, sizeMb);
      cpSync(natives[format], file);
    } else {
      generate(format, i + 1, file, sizeMb);
    }
  }
  renameSync(part, dir);
  return dir;
}

function generate(format, seed, file, sizeMb) {
  execFileSync(process.execPath, [GENERATOR, '--format', format, '--mb', String(sizeMb), '--seed', String(seed), '--out', file], { stdio: 'inherit' });
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(2).padStart(7)} s`;
}

function loadAverage() {
  try {
    return execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ')[0];
  } catch {
    return '?';
  }
}
