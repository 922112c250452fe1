// Sessions from ../shared/tools/gen-session.mjs, checked against its answer key (--expect): every
// call's label, subject and status, and the number of bad lines, in all three formats.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { displayStatus, ingest, summarize, type CallStatus } from './index';

const GENERATOR = join(import.meta.dirname, '../../../shared/tools/gen-session.mjs');

interface AnswerKey {
  calls: { id: string; label: string; subject: string | null; status: string }[];
  lines: number;
  badLines: number;
}

function generate(format: string, seed: number, calls: number): { bytes: Buffer; key: AnswerKey } {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-gen-'));
  const out = join(dir, `session.${format}.jsonl`);
  const keyFile = join(dir, 'key.json');
  try {
    execFileSync('node', [GENERATOR, '--format', format, '--calls', String(calls), '--seed', String(seed), '--bad-rate', '0.01', '--out', out, '--expect', keyFile]);
    return { bytes: readFileSync(out), key: JSON.parse(readFileSync(keyFile, 'utf8')) as AnswerKey };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(['acp', 'grok', 'ledger'])('generated %s sessions match the answer key', (format) => {
  test.each([1, 7, 42])('seed %i', async (seed) => {
    const { bytes, key } = generate(format, seed, 2500);
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
  });
});
