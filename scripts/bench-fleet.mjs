// `loupe index` over a fleet of generated sessions (ACP, Grok, ledger, Claude Code and Codex logs),
// against `loupe summarize` run over the same files one by one, in the same run:
//   - throughput: the index's first run as a ratio of summarize's time (a process per file, as a
//     script would run it, and the same ingest + summarize in one process, no start-up per file);
//   - peak memory of the index at half and all of the fleet (the aim: flat in the number of files);
//   - a second run with one new file, one with that file changed (a session an agent is writing),
//     and one with none, as a fraction of the first run.
// And first, beside the Rust peer: `loupe index` and ccusage 20 (`ccusage claude session --json`,
// its native binary, installed into ~/.cache/loupe on first use) over the same Claude Code logs
// (copies of the real samples with their ids varied, bench-common.mjs), in the same run: each
// one's time cold (the faster of two runs, turn about) and with nothing changed, the ratio, both
// token totals and both peak memories.
// Prints figures; asserts nothing. Usage:
//   npm run bench:fleet [-- --sessions 60 --mb 1.5 --jobs N --claude 1000 --claude-mb 0.63]
// (`--claude 0` leaves the peer out, `--sessions 0` the mixed fleet).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { build } from 'vite';
import { arg, claudeCodeFleet, nativeBenchInput, root } from './bench-common.mjs';

/** The peer, pinned: 20.0.24 is the last release whose linux-x64 native binary the registry has. */
const CCUSAGE_VERSION = '20.0.24';

/** GNU time's line: peak RSS (KB), user and system CPU seconds (every thread); marked, as it follows whatever the tool last wrote to stderr, newline or not. */
const TIME_FORMAT = 'loupe-bench-time %M %U %S';

const sessions = Number(arg('sessions', '60'));
const mb = Number(arg('mb', '1.5'));
const jobs = arg('jobs', String(availableParallelism()));
const claudeSessions = Number(arg('claude', '1000'));
const claudeMb = Number(arg('claude-mb', '0.63'));
const GENERATOR = join(root, 'scripts/gen-session.mjs');
const FORMATS = ['acp', 'grok', 'ledger', 'claude-code', 'codex'];

const work = mkdtempSync(join(tmpdir(), 'loupe-bench-fleet-'));
try {
  await build({ root, configFile: join(root, 'vite.cli.config.ts'), logLevel: 'warn', build: { outDir: join(work, 'cli'), emptyOutDir: true } });
  // Its modules are ES modules, as the project's package.json says of dist/cli: without it, Node
  // reads each module's text to find out (7-10 ms of a run with nothing changed).
  writeFileSync(join(work, 'package.json'), '{"type":"module"}\n');
  const cli = join(work, 'cli', 'loupe.js');
  if (claudeSessions > 0) await besideCcusage(cli, work);
  if (sessions > 0) await mixedFleet(cli, work);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** `loupe index` and ccusage over the same Claude Code logs, turn about, in this run. */
async function besideCcusage(cli, work) {
  const config = join(work, 'claude');
  const files = await claudeCodeFleet(config, claudeSessions, claudeMb);
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const peer = ccusageCommand();
  console.log(`Claude Code fleet: ${files.length} logs, ${(bytes / 1e6).toFixed(0)} MB, ${jobs} threads, load average ${loadAverage()}`);
  if (!peer) console.log(`  ccusage ${CCUSAGE_VERSION} could not be installed (it needs the npm registry): Loupe alone`);
  const peerRun = () => {
    const t0 = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', TIME_FORMAT, peer.command, ...peer.args, 'claude', 'session', '--json', '--offline'], {
      encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, CLAUDE_CONFIG_DIR: config, NO_COLOR: '1' },
    });
    const ms = performance.now() - t0;
    if (run.status !== 0) throw new Error(`ccusage failed: ${run.stderr}`);
    const { totals } = JSON.parse(run.stdout);
    return { ms, ...timeReport(run.stderr), input: totals.inputTokens, output: totals.outputTokens };
  };
  const out = join(work, 'claude-index');
  // The logs were just written: their pages on their way to disk would slow whichever runs first.
  spawnSync('sync');
  // Turn about, so a change in the machine's load falls on both, and each one's faster of two
  // cold runs (Loupe's second into a fresh folder: nothing of the first reused).
  const peerCold = peer ? peerRun() : null;
  const firstCold = index(cli, config, `${out}-first`);
  rmSync(`${out}-first`, { recursive: true, force: true });
  const peerAgain = peer ? peerRun() : null;
  const secondCold = index(cli, config, out);
  const cold = firstCold.ms < secondCold.ms ? firstCold : secondCold;
  const warm = [index(cli, config, out), index(cli, config, out)].sort((a, b) => a.ms - b.ms)[0];
  const totals = await tokenTotals(out);
  const peerMs = peer ? Math.min(peerCold.ms, peerAgain.ms) : null;
  const peerCpuMs = peer ? Math.min(peerCold.cpuMs, peerAgain.cpuMs) : null;
  const coldCpuMs = Math.min(firstCold.cpuMs, secondCold.cpuMs);
  const tokens = (input, output) => `${input.toLocaleString('en')} in, ${output.toLocaleString('en')} out`;
  console.log(`  ccusage 20 (claude session --json)   ${peer ? `${seconds(peerCold.ms)}, again ${seconds(peerAgain.ms).trim()}   CPU ${seconds(peerCold.cpuMs).trim()}, ${seconds(peerAgain.cpuMs).trim()}   peak ${Math.max(peerCold.peakMb, peerAgain.peakMb)} MB   ${tokens(peerCold.input, peerCold.output)}` : '—'}`);
  console.log(`  loupe index, cold                    ${seconds(firstCold.ms)}, again ${seconds(secondCold.ms).trim()}   CPU ${seconds(firstCold.cpuMs).trim()}, ${seconds(secondCold.cpuMs).trim()}   peak ${Math.max(firstCold.peakMb, secondCold.peakMb)} MB   ${tokens(totals.input, totals.output)}   (${cold.result.sessions} sessions, ${cold.result.calls} calls, ${cold.result.threads} threads)`);
  console.log(`  loupe index, nothing changed         ${seconds(warm.ms)}   peak ${warm.peakMb} MB`);
  if (peerMs !== null) {
    console.log(`  cold: loupe takes ×${(cold.ms / peerMs).toFixed(2)} ccusage's time (aim ≤ 1)   nothing changed: ×${(warm.ms / peerMs).toFixed(3)} (aim ≤ 0.1)   (each one's faster cold run)`);
    // CPU time (user + system, every thread) is what a loaded machine shifts least: both ask for the same cores.
    console.log(`  cold, by CPU time: loupe takes ×${(coldCpuMs / peerCpuMs).toFixed(2)} ccusage's (each one's least of two)`);
    if (totals.input !== peerCold.input || totals.output !== peerCold.output) console.log('  ! the token totals differ');
  }
  console.log(`  load average after: ${loadAverage()}\n`);
}

/** The input and output tokens the index's sessions table adds up to. */
async function tokenTotals(out) {
  const rows = await parquetReadObjects({ file: await asyncBufferFromFile(join(out, 'sessions.parquet')), columns: ['input_tokens', 'output_tokens'] });
  let input = 0;
  let output = 0;
  for (const row of rows) {
    input += Number(row.input_tokens ?? 0);
    output += Number(row.output_tokens ?? 0);
  }
  return { input, output };
}

/**
 * ccusage's native binary (the package's own for this platform), else its Node launcher; null when
 * it cannot be had. Installed on first use into the cache folder ($XDG_CACHE_HOME/loupe/ccusage-VERSION),
 * not as a devDependency: its other platforms' binaries are not on every registry, and `npm ci`
 * refuses a lock that leaves them out.
 */
function ccusageCommand() {
  const prefix = process.env.LOUPE_CCUSAGE_PREFIX || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loupe', `ccusage-${CCUSAGE_VERSION}`);
  if (!existsSync(join(prefix, 'node_modules', 'ccusage', 'package.json'))) {
    console.log(`  installing ccusage ${CCUSAGE_VERSION} into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    const install = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `ccusage@${CCUSAGE_VERSION}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (install.status !== 0) return null;
  }
  const require = createRequire(join(prefix, 'package.json'));
  try {
    const native = join(dirname(require.resolve(`@ccusage/ccusage-${process.platform}-${process.arch}/package.json`)), 'bin', process.platform === 'win32' ? 'ccusage.exe' : 'ccusage');
    if (existsSync(native)) {
      // npm unpacks it without its execute bit (the package's launcher sets it on first run).
      chmodSync(native, 0o755);
      return { command: native, args: [] };
    }
  } catch {
    // no native package for this platform: the launcher says why
  }
  try {
    return { command: process.execPath, args: [join(dirname(require.resolve('ccusage/package.json')), 'src', 'cli.js')] };
  } catch {
    return null;
  }
}

async function mixedFleet(cli, work) {
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
}

/** Runs `loupe index` in its own process: wall time (with start-up) and peak RSS (GNU time). */
function index(cli, dir, out) {
  const t0 = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', TIME_FORMAT, process.execPath, cli, 'index', dir, '--out', out, '--json', '--jobs', jobs], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`loupe index failed: ${run.stderr}`);
  return { ms, ...timeReport(run.stderr), result: JSON.parse(run.stdout) };
}

function timeReport(stderr) {
  const found = [...stderr.matchAll(/loupe-bench-time (\d+) ([\d.]+) ([\d.]+)/g)].at(-1);
  if (!found) throw new Error(`GNU time said nothing: ${stderr}`);
  const [, peakKb, user, system] = found.map(Number);
  return { peakMb: Math.round(peakKb / 1024), cpuMs: (user + system) * 1000 };
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
