#!/usr/bin/env node
// npm run bench:redact: what finding encoded secrets (base64, percent-encoding) adds to redaction.
// The floor is the same redaction with that search off, measured in the same run on the same text;
// the figure is the ratio of the two (1.00: it costs nothing). Each side is the best of --runs, taken in turns.
//   node scripts/bench-redact.mjs [--mb 8] [--runs 3] [--formats acp,ledger]
import { openSync, readSync } from 'node:fs';
import { createServer } from 'vite';
import { arg, benchInput } from './bench-common.mjs';

const MB = Number(arg('mb', '8'));
const RUNS = Number(arg('runs', '3'));
const FORMATS = arg('formats', 'acp,ledger').split(',');
/** Lines redacted together, as the export and the worker batch them; joined as redactLines joins them. */
const BATCH = 500;
const LINE_SEPARATOR = '\n\u0000\n';
/** `findSecrets(text, depth)` decodes nothing at this depth: the rules alone. */
const NO_DECODING = 2;

const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'warn', configFile: false });
try {
  const { findSecrets } = await server.ssrLoadModule('/src/share/redact/detect.ts');
  console.log(`loupe redaction benchmark: encoded-secret search against the rules alone, first ${MB} MB of each input, best of ${RUNS}\n`);
  for (const format of FORMATS) {
    const buffer = Buffer.alloc(MB << 20);
    const read = readSync(openSync(benchInput(format, 100), 'r'), buffer, 0, buffer.length, 0);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n').slice(0, -1);
    const batches = [];
    for (let at = 0; at < lines.length; at += BATCH) batches.push(lines.slice(at, at + BATCH).join(LINE_SEPARATOR));
    const pass = async (depth) => {
      const start = performance.now();
      for (const batch of batches) await findSecrets(batch, depth);
      return performance.now() - start;
    };
    await pass(NO_DECODING); // warm-up
    await pass(0);
    // Interleaved, so a machine busy with other work weighs on both sides alike.
    let floor = Infinity;
    let withDecoding = Infinity;
    for (let run = 0; run < RUNS; run++) {
      floor = Math.min(floor, await pass(NO_DECODING));
      withDecoding = Math.min(withDecoding, await pass(0));
    }
    const mbps = (ms) => ((read / (1 << 20)) / (ms / 1000)).toFixed(1);
    console.log(`${format.padEnd(7)} rules alone ${floor.toFixed(0)} ms (${mbps(floor)} MB/s) · with encoded search ${withDecoding.toFixed(0)} ms (${mbps(withDecoding)} MB/s) · ratio ${(withDecoding / floor).toFixed(2)}`);
  }
} finally {
  await server.close();
}
