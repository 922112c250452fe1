// What `loupe tee` costs an editor: (1) throughput, the same generated ACP lines piped through
// `loupe tee --out FILE -- cat` and through plain `cat`, in the same run; (2) the delay it adds
// to each message, round-tripped one at a time through an echo agent (`cat`) directly and through
// tee. Usage: npm run bench:tee [-- --mb 100 --messages 2000 --runs 3]
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { arg, benchInput, root } from './bench-common.mjs';

const mb = Number(arg('mb', '100'));
const messages = Number(arg('messages', '2000'));
const runs = Number(arg('runs', '3'));

const work = mkdtempSync(join(tmpdir(), 'loupe-bench-tee-'));
// tee alone, built as the CLI is built (vite.cli.config.ts): the same code `loupe tee` runs.
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: true,
    outDir: join(work, 'built'),
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: { input: { tee: join(root, 'src/cli/testing/teeMain.ts') }, output: { format: 'es', entryFileNames: '[name].js' } },
  },
  ssr: { noExternal: true },
});
const tee = join(work, 'built', 'tee.js');
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

rmSync(work, { recursive: true, force: true });
