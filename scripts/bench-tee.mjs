// What `loupe tee` costs an editor: (1) throughput, the same generated ACP lines piped through
// `loupe tee --out FILE -- cat` and through plain `cat`, in the same run; (2) the delay it adds
// to each message, round-tripped one at a time through an echo agent (`cat`) directly and through
// tee. Usage: npm run bench:tee [-- --mb 100 --messages 2000 --runs 3]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
// Throughput: the whole pipeline, from the first byte read to the last byte written.

const input = benchInput('acp', mb);
const bytes = statSync(input).size;

function timePipeline(middle) {
  rmSync(capture, { force: true });
  const start = process.hrtime.bigint();
  execFileSync('sh', ['-c', `cat '${input}' | ${middle} 2>/dev/null | cat > /dev/null`]);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const catSeconds = [];
const teeSeconds = [];
for (let run = 0; run < runs; run++) {
  // Alternated, so both see the same machine load.
  catSeconds.push(timePipeline('cat'));
  teeSeconds.push(timePipeline(teeCommand()));
}
const capturedBytes = statSync(capture).size;
const best = (values) => Math.min(...values);
const mbps = (seconds) => bytes / 1e6 / seconds;
const catRate = mbps(best(catSeconds));
const teeRate = mbps(best(teeSeconds));

console.log(`throughput, ${(bytes / 1e6).toFixed(0)} MB of ACP lines (best of ${runs}):`);
console.log(`  cat                       ${catRate.toFixed(0).padStart(6)} MB/s`);
console.log(`  loupe tee -- cat          ${teeRate.toFixed(0).padStart(6)} MB/s   (capture ${(capturedBytes / 1e6).toFixed(0)} MB)`);
console.log(`  ratio tee / cat           ${(teeRate / catRate).toFixed(2).padStart(6)}     (aim >= 0.8)`);

// ---------------------------------------------------------------------------------------------
// Added delay per message: one line out, wait for it to come back, next line.

const lines = execFileSync('head', ['-n', '200', input]).toString().split('\n').filter(Boolean);

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
