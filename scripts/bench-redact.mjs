#!/usr/bin/env node
// npm run bench:redact: what finding encoded secrets (base64, percent-encoding) adds to redaction.
// The floor is the same redaction with that search off, measured in the same run on the same text;
// the figure is the ratio of the two (1.00: it costs nothing). Each side is the best of --runs.
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
  const { findSecrets } = await server.ssrLoadModule('/src/model/redact/detect.ts');
  console.log(`loupe redaction benchmark: encoded-secret search against the rules alone, first ${MB} MB of each input, best of ${RUNS}\n`);
  for (const format of FORMATS) {
    const buffer = Buffer.alloc(MB << 20);
    const read = readSync(openSync(benchInput(format, 100), 'r'), buffer, 0, buffer.length, 0);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n').slice(0, -1);
    const batches = [];
    for (let at = 0; at < lines.length; at += BATCH) batches.push(lines.slice(at, at + BATCH).join(LINE_SEPARATOR));
    const best = async (depth) => {
      let fastest = Infinity;
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        for (const batch of batches) await findSecrets(batch, depth);
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    };
    await best(NO_DECODING); // warm-up
    const floor = await best(NO_DECODING);
    const withDecoding = await best(0);
    const mbps = (ms) => ((read / (1 << 20)) / (ms / 1000)).toFixed(1);
    console.log(`${format.padEnd(7)} rules alone ${floor.toFixed(0)} ms (${mbps(floor)} MB/s) · with encoded search ${withDecoding.toFixed(0)} ms (${mbps(withDecoding)} MB/s) · ratio ${(withDecoding / floor).toFixed(2)}`);
  }
} finally {
  await server.close();
}
