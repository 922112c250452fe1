#!/usr/bin/env node
// npm run bench:redact: what redaction costs, as a ratio to reading the same input without it.
// Reading is `ingest` (the parse and merge every view starts from); reading redacted is redacting
// the lines as the viewer and `loupe export --redact` do (in batches, streamed messages joined),
// then reading the result. Inputs: the first --mb MB of each generated session, and sessions of one
// long line (150 KB and 1 MB: a line of letters, a message of words, a tool output of base64),
// where a pattern that is not linear in the line shows at once (a 150 KB line of letters took 23 s
// before the rules were bounded). Also the encoded-secret search's share (base64, percent-encoding),
// as a ratio to the rules alone. Each side is the best of --runs, taken in turns.
//   node scripts/bench-redact.mjs [--mb 8] [--runs 3] [--formats acp,ledger] [--long 150k,1m] [--input-mb 100]
import { openSync, readSync } from 'node:fs';
import { createServer } from 'vite';
import { arg, benchInput } from './bench-common.mjs';

const MB = Number(arg('mb', '8'));
const RUNS = Number(arg('runs', '3'));
/** The generated file read from (shared with npm run bench, which reads 100 MB of it). */
const INPUT_MB = Math.max(MB, Number(arg('input-mb', '100')));
const FORMATS = arg('formats', 'acp,ledger').split(',').filter(Boolean);
const LONG = arg('long', '150k,1m').split(',').filter(Boolean);
/** Lines redacted together, as the export and the worker batch them. */
const BATCH = 500;
const LINE_SEPARATOR = '\n\u0000\n';
/** `findSecrets(text, depth)` decodes nothing at this depth: the rules alone. */
const NO_DECODING = 2;

const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'warn', configFile: false, optimizeDeps: { noDiscovery: true, entries: [] } });
try {
  const { ingest } = await server.ssrLoadModule('/src/model/index.ts');
  const { createLineRedactor } = await server.ssrLoadModule('/src/share/redact/redactLine.ts');
  const { findSecrets } = await server.ssrLoadModule('/src/share/redact/detect.ts');

  /** Interleaved, so a machine busy with other work weighs on both sides alike; the best of each. */
  const best = async (a, b) => {
    await a();
    await b();
    let [bestA, bestB] = [Infinity, Infinity];
    for (let run = 0; run < RUNS; run++) {
      bestA = Math.min(bestA, await timed(a));
      bestB = Math.min(bestB, await timed(b));
    }
    return [bestA, bestB];
  };
  const timed = async (fn) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const redacted = async (lines) => {
    const redactor = createLineRedactor();
    const out = [];
    for (let at = 0; at < lines.length; at += BATCH) for (const result of await redactor.push(lines.slice(at, at + BATCH))) out.push(result.text);
    for (const result of await redactor.end()) out.push(result.text);
    return out.join('\n');
  };
  const mb = (bytes) => bytes / (1 << 20);

  const inputs = [];
  for (const format of FORMATS) {
    const buffer = Buffer.alloc(MB << 20);
    const read = readSync(openSync(benchInput(format, INPUT_MB), 'r'), buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    inputs.push({ name: `${format} ${MB} MB`, text: text.slice(0, text.lastIndexOf('\n') + 1) });
  }
  for (const size of LONG) {
    const chars = Number.parseFloat(size) * (/m$/i.test(size) ? 1 << 20 : /k$/i.test(size) ? 1 << 10 : 1);
    const random = (alphabet) => {
      let state = 7;
      let out = '';
      for (let at = 0; at < chars; at++) {
        state = (state * 1103515245 + 12345) >>> 0;
        out += alphabet[(state >>> 16) % alphabet.length];
      }
      return out;
    };
    const message = (text) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } })}\n`;
    const output = (text) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: { stdout: text } } } })}\n`;
    inputs.push({ name: `${size} line of letters`, text: message(random('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')) });
    inputs.push({ name: `${size} line of words`, text: message(random('abcdefghijklmnopqrstuvwxyz      =:/."\n')) });
    inputs.push({ name: `${size} line of base64`, text: output(random('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')) });
    // gitleaks' worst case: keywords everywhere, so every rule reads the whole line.
    const keywords = 'key token secret api auth password ghp_ sk- xox AKIA eyJ glpat- -----BEGIN '.split(' ');
    const hex = random('abcdef0123456789');
    let dense = '';
    for (let at = 0; dense.length < chars; at++) dense += `${keywords[at % keywords.length]}=${hex.slice(at * 12, at * 12 + 12)} `;
    inputs.push({ name: `${size} line of keywords`, text: output(dense.slice(0, chars)) });
  }

  console.log(`loupe redaction benchmark: reading redacted against reading, best of ${RUNS}\n`);
  for (const { name, text } of inputs) {
    const lines = text.split('\n');
    const size = mb(Buffer.byteLength(text));
    const [reading, redacting] = await best(
      () => ingest(text),
      async () => ingest(await redacted(lines)),
    );
    console.log(`${name.padEnd(24)} reading ${reading.toFixed(0).padStart(5)} ms · redacted ${redacting.toFixed(0).padStart(6)} ms (${(size / (redacting / 1000)).toFixed(1)} MB/s) · ratio ${(redacting / reading).toFixed(2)}`);
  }

  console.log('\nthe encoded-secret search against the rules alone\n');
  for (const { name, text } of inputs.slice(0, FORMATS.length)) {
    const lines = text.split('\n');
    const batches = [];
    for (let at = 0; at < lines.length; at += BATCH) batches.push(lines.slice(at, at + BATCH).join(LINE_SEPARATOR));
    const pass = (depth) => async () => {
      for (const batch of batches) await findSecrets(batch, depth);
    };
    const [floor, withDecoding] = await best(pass(NO_DECODING), pass(0));
    console.log(`${name.padEnd(24)} rules alone ${floor.toFixed(0)} ms · with encoded search ${withDecoding.toFixed(0)} ms · ratio ${(withDecoding / floor).toFixed(2)}`);
  }
} finally {
  await server.close();
}
