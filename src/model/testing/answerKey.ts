// Test support: a generated session read by Loupe and checked against the generator's answer key
// (the label, subject and status docs/CONTRACTS.md prescribes for each call, the lines and bad
// lines). Used with the project's generator (scripts/gen-session.mjs) and, where it is present,
// the shared one beside the project (sharedGenerator.test.ts).
import { expect } from 'vitest';
import { displayStatus, ingest, summarize, type CallStatus } from '../index';

export interface AnswerKey {
  calls: { id: string; label: string; subject: string | null; status: string }[];
  lines: number;
  badLines: number;
}

export async function expectMatchesKey(format: string, bytes: Uint8Array, key: AnswerKey): Promise<void> {
  const summary = summarize(await ingest(bytes, { chunkSize: 64 * 1024 + 3 }));

  expect(summary.counts.bad).toBe(key.badLines);
  expect(summary.counts.lines).toBe(key.lines);
  expect(summary.counts.events + summary.counts.unknown + summary.counts.bad).toBe(summary.counts.lines);
  // The key lists calls as generated; the summary by first appearance (calls of a turn interleave).
  const actual = new Map(summary.calls.map(({ id, label, subject, status }) => [id, { id, label, subject, status }]));
  expect(actual.size).toBe(key.calls.length);
  // Call by call, so a failure names the first call that differs rather than a 2,500-row diff.
  // The key has protocol statuses; the summary says them as the viewer does (an open call is unfinished).
  for (const { id, label, subject, status } of key.calls) {
    expect(actual.get(id)).toEqual({ id, label, subject, status: displayStatus({ status: status as CallStatus }, true) });
  }
  if (format === 'ledger') {
    // The generator inserts its bad lines between ledger lines; the chain runs over every
    // non-blank line (CONTRACTS §9), so it breaks at the ledger line after the first of them,
    // and the report names that inserted line.
    const firstBad = summary.diagnostics[0]?.line ?? 0;
    if (key.badLines === 0) expect(summary.chain).toMatchObject({ state: 'intact' });
    else {
      expect(summary.chain).toMatchObject({ state: 'broken', reason: expect.stringContaining(`line ${firstBad} `) as unknown });
      expect(summary.chain?.state === 'broken' && summary.chain.line).toBeGreaterThan(firstBad);
    }
  }
}
