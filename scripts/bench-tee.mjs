// What `loupe tee` costs an editor: (1) throughput, the same generated ACP lines piped through
// `loupe tee --out FILE -- cat` and through plain `cat`, in the same run; (2) the delay it adds
// to each message, round-tripped one at a time through an echo agent (`cat`) directly and through
// tee. Usage: npm run bench:tee [-- --mb 100 --messages 2000 --runs 3]
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, benchInput } from './bench-common.mjs';
import { buildForNode } from './build-node.mjs';

const mb = Number(arg('mb', '100'));
const messages = Number(arg('messages', '2000'));
const runs = Number(arg('runs', '3'));

const work = mkdtempSync(join(tmpdir(), 'loupe-bench-tee-'));
// tee alone, built as the CLI is built (vite.cli.config.ts): the same code `loupe tee` runs.
const { tee } = await buildForNode({ tee: 'src/cli/testing/teeMain.ts' }, join(work, 'built'));
const capture = join(work, 'capture.jsonl');
const teeCommand = (extra = '') => `node ${tee} --out ${capture} -- cat${extra}`;

// ---------------------------------------------------------------------------------------------
// Throughput: this process writes the input into the pipeline (with backpressure) and reads what
// comes out. "Through" is the time until the last byte came out, what an editor waits for; tee's
// recording runs on its own thread and may finish later, so the time until the process exited
// (the capture complete) is printed beside it.

const inputFile = benchInput('acp', mb);
const bytes = statSync(inputFile).size;

async function timePipeline(command) {
  rmSync(capture, { force: true });
  const spawnedAt = process.hrtime.bigint();
  const child = spawn('sh', ['-c', `exec ${command}`], { stdio: ['pipe', 'pipe', 'ignore'] });
  // One line first: throughput is timed once the pipeline is up (node and tee's recorder thread
  // take a while to start; cat does not), and the start-up is printed on its own.
  const warmUp = Buffer.from('{"jsonrpc":"2.0","method":"warm/up"}\n');
  let received = 0;
  let expected = warmUp.length;
  let reached = () => {};
  let throughAt = 0n;
  child.stdout.on('data', (chunk) => {
    received += chunk.length;
    if (received === expected) {
      throughAt = process.hrtime.bigint();
      reached();
    }
  });
  await new Promise((done) => {
    reached = done;
    child.stdin.write(warmUp);
  });
  const upAt = process.hrtime.bigint();
  expected += bytes;
  const input = createReadStream(inputFile, { highWaterMark: 1 << 16 });
  input.pipe(child.stdin);
  await new Promise((done) => child.once('close', done));
  const exitAt = process.hrtime.bigint();
  if (received !== expected) throw new Error(`${command}: ${received} bytes came out of ${expected}`);
  const seconds = (a, b) => Number(b - a) / 1e9;
  return { startup: seconds(spawnedAt, upAt), through: seconds(upAt, throughAt), exit: seconds(upAt, exitAt) };
}

// A second reference: Node passing the bytes to `cat` and back with nothing else (no recording),
// the ceiling for any relay written in JavaScript on this machine.
const passThrough = join(work, 'pass-through.mjs');
writeFileSync(
  passThrough,
  `import { spawn } from 'node:child_process';
const agent = spawn('cat', [], { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(agent.stdin);
agent.stdout.pipe(process.stdout);
`,
);
const nodeRuns = [];
const catRuns = [];
const teeRuns = [];
for (let run = 0; run < runs; run++) {
  // Alternated, so both see the same machine load.
  catRuns.push(await timePipeline('cat'));
  nodeRuns.push(await timePipeline(`node ${passThrough}`));
  teeRuns.push(await timePipeline(teeCommand()));
}
const capturedBytes = statSync(capture).size;
const best = (values) => Math.min(...values);
const mbps = (seconds) => bytes / 1e6 / seconds;
const catRate = mbps(best(catRuns.map((r) => r.through)));
const teeRate = mbps(best(teeRuns.map((r) => r.through)));
const teeDone = mbps(best(teeRuns.map((r) => r.exit)));

console.log(`throughput, ${(bytes / 1e6).toFixed(0)} MB of ACP lines in and echoed back (best of ${runs}):`);
console.log(`  cat                       ${catRate.toFixed(0).padStart(6)} MB/s`);
console.log(`  loupe tee -- cat          ${teeRate.toFixed(0).padStart(6)} MB/s   through to the reader`);
console.log(`  ratio tee / cat           ${(teeRate / catRate).toFixed(2).padStart(6)}     (aim >= 0.8)`);
const nodeRate = mbps(best(nodeRuns.map((r) => r.through)));
console.log(`  node pass-through         ${nodeRate.toFixed(0).padStart(6)} MB/s   (no recording: the ceiling for a relay in JavaScript; ratio to cat ${(nodeRate / catRate).toFixed(2)}, tee to it ${(teeRate / nodeRate).toFixed(2)})`);
const startupMs = (r) => (best(r.map((x) => x.startup)) * 1000).toFixed(0);
console.log(`  start-up                  cat ${startupMs(catRuns)} ms, tee ${startupMs(teeRuns)} ms (node, the recorder thread, the agent)`);
console.log(`  capture complete at       ${teeDone.toFixed(0).padStart(6)} MB/s   (${(capturedBytes / 1e6).toFixed(0)} MB written, both directions; ratio to cat ${(teeDone / catRate).toFixed(2)})`);

// ---------------------------------------------------------------------------------------------
// Added delay per message: one line out, wait for it to come back, next line.

const lines = execFileSync('head', ['-n', '200', inputFile]).toString().split('\n').filter(Boolean);

async function roundTrips(command) {
  const child = spawn('sh', ['-c', `exec ${command}`], { stdio: ['pipe', 'pipe', 'ignore'] });
  const times = [];
  let pending = 0;
  let arrived = () => {};
  child.stdout.on('data', (chunk) => {
    pending -= chunk.length;
    if (pending === 0) arrived();
  });
  for (let index = 0; index < messages + 100; index++) {
    const line = Buffer.from(`${lines[index % lines.length]}\n`);
    const start = process.hrtime.bigint();
    await new Promise((resolve) => {
      arrived = resolve;
      pending = line.length;
      child.stdin.write(line);
    });
    // The first 100 warm up the JIT and the pipes.
    if (index >= 100) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  return times.sort((a, b) => a - b);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const direct = await roundTrips('cat');
const through = await roundTrips(teeCommand());
const row = (name, sorted) => `  ${name.padEnd(24)}  p50 ${percentile(sorted, 50).toFixed(3)} ms   p99 ${percentile(sorted, 99).toFixed(3)} ms`;
console.log(`\nround trip of one message to an echo agent (${messages} messages, one at a time):`);
console.log(row('cat', direct));
console.log(row('loupe tee -- cat', through));
console.log(
  `  added by tee              p50 ${(percentile(through, 50) - percentile(direct, 50)).toFixed(3)} ms   p99 ${(percentile(through, 99) - percentile(direct, 99)).toFixed(3)} ms   (aim p99 < 2 ms)`,
);

// ---------------------------------------------------------------------------------------------
// Lines too long to record (issue 18): a line of --long-mb MB of zero bytes, then --after-mb MB of
// ordinary messages; and one --message-mb MB message. Every byte must come through, tee must exit
// with the agent's code, the capture must say what the long line was and keep what came after it,
// and tee's peak memory (VmHWM, polled from /proc) must not grow with the line.

const longMb = Number(arg('long-mb', '90'));
const afterMb = Number(arg('after-mb', '150'));
const messageMb = Number(arg('message-mb', '300'));
const agentScript = join(work, 'long-lines-agent.mjs');
writeFileSync(
  agentScript,
  `const [mode, a, b] = process.argv.slice(2).map(Number);
const MB = 1024 * 1024;
const write = (buf) => new Promise((done) => (process.stdout.write(buf) ? done() : process.stdout.once('drain', done)));
if (mode === 0) {
  const zeros = Buffer.alloc(MB, 0);
  for (let i = 0; i < a; i++) await write(zeros);
  await write('\\n');
  const line = Buffer.from('{"jsonrpc":"2.0","method":"fill","params":{"x":"' + 'a'.repeat(1000) + '"}}\\n');
  const block = Buffer.concat(Array.from({ length: Math.floor(MB / line.length) }, () => line));
  for (let i = 0; i < b; i++) await write(block);
} else {
  await write('{"jsonrpc":"2.0","method":"big","params":{"text":"');
  const as = Buffer.alloc(MB, 'a');
  for (let i = 0; i < a; i++) await write(as);
  await write('"}}\\n');
}
await write('{"jsonrpc":"2.0","method":"last","params":{}}\\n');
`,
);

async function longLineRun(mode, a, b) {
  rmSync(capture, { force: true });
  const child = spawn('node', [tee, '--out', capture, '--', 'node', agentScript, String(mode), String(a), String(b)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let through = 0;
  let stderr = '';
  let peakKb = 0;
  child.stdout.on('data', (chunk) => (through += chunk.length));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // Not Linux, or gone.
    }
  }, 20);
  const code = await new Promise((done) => child.once('close', done));
  clearInterval(poll);
  const records = readFileSync(capture, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  return { code, through, peakMb: peakKb / 1024, records, notes: stderr.split('\n').filter((line) => line.includes('too long')).length };
}

console.log(`\nlines too long to record (the limit is LOUPE_TEE_MAX_LINE_BYTES, default 64 MiB):`);
{
  const expected = longMb * 1024 * 1024 + 1;
  const r = await longLineRun(0, longMb, afterMb);
  const long = r.records.find((record) => record.too_long);
  console.log(
    `  ${longMb} MB line of zero bytes, then ${afterMb} MB of messages: exit ${r.code}, ${(r.through / 1e6).toFixed(0)} MB through, ` +
      `capture: ${long ? `too_long ${long.too_long.bytes} bytes at ${long.too_long.offset}` : 'NO too_long record'} (${long?.too_long.bytes === expected - 1 ? 'right' : 'WRONG'}), ` +
      `last message ${r.records.at(-1)?.msg?.method === 'last' ? 'recorded' : 'MISSING'}, ${r.notes} note on stderr, peak RSS ${r.peakMb.toFixed(0)} MB`,
  );
}
{
  const r = await longLineRun(1, messageMb, 0);
  const long = r.records.find((record) => record.too_long);
  console.log(
    `  one ${messageMb} MB message: exit ${r.code}, ${(r.through / 1e6).toFixed(0)} MB through, ` +
      `capture: ${long ? `too_long ${long.too_long.bytes} bytes` : 'NO too_long record'}, last message ${r.records.at(-1)?.msg?.method === 'last' ? 'recorded' : 'MISSING'}, peak RSS ${r.peakMb.toFixed(0)} MB`,
  );
}

rmSync(work, { recursive: true, force: true });
