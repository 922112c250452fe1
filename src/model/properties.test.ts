// Whatever the bytes, ingest never throws and the counts always reconcile (CONTRACTS §2).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ingest, type Session } from './index';
import { nonBlankLines } from './testing/nonBlankLines';

const sample = readFileSync('fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
const ledger = readFileSync('fixtures/ledger/golden-p0.ledger-00000000000000000000.jsonl');

function reconciles(session: Session): void {
  const { lines, events, unknown, bad } = session.counts;
  expect(events + unknown + bad).toBe(lines);
  expect(session.diagnostics.bad).toHaveLength(bad);
}


const firstLineIsArray = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trimStart().startsWith('[');

describe('ingest never throws and always reconciles', () => {
  test('random bytes, in random chunk sizes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.integer({ min: 1, max: 64 }), async (bytes, chunkSize) => {
        const session = await ingest(bytes, { chunkSize });
        reconciles(session);
        if (!firstLineIsArray(bytes)) expect(session.counts.lines).toBe(nonBlankLines(bytes));
      }),
      { numRuns: 300 },
    );
  });

  test('random JSON-ish text built from record fragments', async () => {
    const fragment = fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\n', '\r\n', ' ', 'null', '1', '"sessionUpdate"', '"tool_call"', '"jsonrpc":"2.0"', '"toolCallId"', '"method"', '"x.ai/tool"', '"params"', '"update"', '"v":2', '"kind"', '"data"', '\uFEFF');
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 80 }), async (parts) => {
        reconciles(await ingest(parts.join(''), { chunkSize: 7 }));
      }),
      { numRuns: 300 },
    );
  });

  test.each([['ACP capture', sample], ['ledger', ledger]])('%s truncated at every byte offset', async (_name, bytes) => {
    const whole = await ingest(bytes);
    for (let end = 0; end <= bytes.length; end += 1) {
      const session = await ingest(bytes.subarray(0, end), { chunkSize: 997 });
      reconciles(session);
      expect(session.counts.lines).toBe(nonBlankLines(bytes.subarray(0, end)));
      // Nothing read before the cut is lost: every complete line is still an event.
      const completeLines = new TextDecoder().decode(bytes.subarray(0, end)).split('\n').length - 1;
      expect(session.counts.events).toBeGreaterThanOrEqual(Math.min(completeLines, whole.counts.events));
    }
  });

  test('shuffled and duplicated lines: same calls, counts reconcile', async () => {
    const lines = new TextDecoder().decode(sample).split('\n').filter(Boolean);
    const whole = await ingest(sample);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(lines, { minLength: lines.length, maxLength: lines.length }), fc.array(fc.nat(lines.length - 1), { maxLength: 10 }), async (shuffled, dupes) => {
        const withDupes = [...shuffled, ...dupes.map((i) => lines[i]!)];
        const session = await ingest(`${withDupes.join('\n')}\n`);
        reconciles(session);
        expect(session.counts.lines).toBe(withDupes.length);
        expect(new Set(session.calls.keys())).toEqual(new Set(whole.calls.keys()));
      }),
      { numRuns: 100 },
    );
  });
});
