// The fast paths must never disagree with the zod schemas they stand in for.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { readChunk, readLedgerLine, readToolCallFields, readXaiTool } from './fastPath';
import { chunkSchema, ledgerLineSchema, toolCallFieldsSchema, xaiToolSchema } from './schemas';

const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.object(), fc.array(fc.anything(), { maxLength: 2 }));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyValue);
const textBlock = fc.record({ type: fc.constant('text'), text: fc.string() });
const content = fc.oneof(
  fc.record({ type: fc.constant('content'), content: maybe(textBlock) }),
  fc.record({ type: fc.constant('diff'), path: maybe(fc.string()), oldText: maybe(fc.string()), newText: maybe(fc.string()) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('terminal'), terminalId: maybe(fc.string()) }),
  anyValue,
);

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');
const pickKnown = (value: object) => Object.fromEntries(Object.entries(value).filter(([key]) => key in toolCallFieldsSchema.shape));

test('tool-call fields: the fast path accepts only what zod accepts, with the same reading', () => {
  const update = fc.record(
    {
      toolCallId: maybe(fc.string()),
      title: maybe(fc.string()),
      kind: maybe(fc.string()),
      status: maybe(fc.constantFrom('pending', 'in_progress', 'completed', 'failed')),
      name: maybe(fc.string()),
      content: maybe(fc.array(content, { maxLength: 3 })),
      locations: maybe(fc.array(maybe(fc.record({ path: maybe(fc.string()), line: maybe(fc.integer()) })), { maxLength: 2 })),
      rawInput: anyValue,
      _meta: maybe(fc.object()),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(update, (value) => {
      const fast = readToolCallFields(value);
      const slow = toolCallFieldsSchema.safeParse(value);
      expect(fast.ok).toBe(slow.success);
      if (!fast.ok || !slow.success) return;
      // Taken by the fast path: the input itself, which zod reads the same way. Otherwise zod's own reading.
      if (fast.value === value) expect(plain(slow.data)).toEqual(plain(pickKnown(value)));
      else expect(fast.value).toEqual(slow.data);
    }),
    { numRuns: 2000 },
  );
});

test('envelopes, chunks and ledger lines agree with zod', () => {
  fc.assert(
    fc.property(
      fc.record({ version: maybe(fc.constant(1)), label: maybe(fc.string()), name: maybe(fc.string()), kind: maybe(fc.string()), namespace: maybe(fc.string()), read_only: maybe(fc.boolean()), input: maybe(fc.object()) }, { requiredKeys: [] }),
      fc.record({ content: maybe(textBlock), messageId: maybe(fc.string()) }, { requiredKeys: [] }),
      fc.record({ v: maybe(fc.integer()), kind: maybe(fc.string()), seq: maybe(fc.integer()), t: maybe(fc.integer()), run: maybe(fc.string()), prev: maybe(fc.string()), who: maybe(fc.string()), addr: maybe(fc.string()), ig: maybe(fc.boolean()), data: anyValue }, { requiredKeys: [] }),
      (envelope, chunk, line) => {
        expect(readXaiTool(envelope).ok).toBe(xaiToolSchema.safeParse(envelope).success);
        const fastChunk = readChunk(chunk);
        const slowChunk = chunkSchema.safeParse(chunk);
        expect(fastChunk.ok).toBe(slowChunk.success);
        if (fastChunk.ok && slowChunk.success && fastChunk.value !== chunk) expect(fastChunk.value).toEqual(slowChunk.data);
        const fastLine = readLedgerLine(line);
        const slowLine = ledgerLineSchema.safeParse(line);
        expect(fastLine.ok).toBe(slowLine.success);
      },
    ),
    { numRuns: 2000 },
  );
});
