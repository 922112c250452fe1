/* global self */
import { ingest } from '../../src/model/readSession';
import { timeJsonParse } from '../json-floor.mjs';

/** The reads measured, each the best of its runs; they alternate, so a busy machine slows all alike. */
const READS = [
  { name: 'light', detail: 'light' },
  { name: 'full', detail: 'full' },
];

self.onmessage = async (event) => {
  const { file, runs } = event.data;
  const best = { floor: Infinity };
  for (let run = 0; run < runs; run++) {
    for (const read of READS) {
      // The previous read's session is garbage: collected here, not during this read.
      globalThis.gc?.();
      const start = performance.now();
      await ingest(file, { detail: read.detail });
      best[read.name] = Math.min(best[read.name] ?? Infinity, performance.now() - start);
    }
    const lines = (await file.text()).split('\n');
    globalThis.gc?.();
    best.floor = Math.min(best.floor, timeJsonParse(lines));
  }
  self.postMessage({ best });
};
