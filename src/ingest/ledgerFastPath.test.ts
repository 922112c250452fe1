// The ledger body fast paths read the same as the zod schemas they stand in for.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { readModelReturned, readToolCalled, readToolResult } from './fastPath';
import { modelReturnedSchema, toolCalledSchema, toolResultSchema } from './schemas';

const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.object(), fc.array(fc.anything(), { maxLength: 2 }));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyValue);
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');
/** What zod reads of an object: the schema's keys only, with its values. */
const known = (value: Record<string, unknown>, keys: readonly string[]) => plain(Object.fromEntries(keys.filter((key) => key in value).map((key) => [key, value[key]])));

function agrees<T extends Record<string, unknown>>(
  value: T,
  fast: (value: T) => { ok: boolean; value?: unknown },
  schema: { safeParse: (value: unknown) => { success: boolean; data?: unknown }; shape: Record<string, unknown> },
): void {
  const a = fast(value);
  const b = schema.safeParse(value);
  expect(a.ok).toBe(b.success);
  if (!a.ok || !b.success) return;
  if (a.value === value) expect(plain(b.data)).toEqual(known(value, Object.keys(schema.shape)));
  else expect(a.value).toEqual(b.data);
}

test('tool_called, tool_result and model_returned bodies: the fast path reads what zod reads', () => {
  const part = maybe(fc.record({ kind: maybe(fc.constantFrom('text', 'image')), text: maybe(fc.string()) }, { requiredKeys: [] }));
  fc.assert(
    fc.property(
      fc.record({ id: maybe(fc.string()), name: maybe(fc.string()), tool: maybe(fc.string()), args: anyValue, effect: anyValue, render: anyValue, subject: anyValue }, { requiredKeys: [] }),
      fc.record({ tool_use_id: maybe(fc.string()), name: maybe(fc.string()), result: anyValue, error: anyValue, took_us: maybe(fc.integer()) }, { requiredKeys: [] }),
      fc.record({ message: maybe(fc.record({ content: maybe(fc.array(part, { maxLength: 3 })) }, { requiredKeys: [] })), usage: maybe(fc.object()) }, { requiredKeys: [] }),
      (called, result, returned) => {
        agrees(called, readToolCalled, toolCalledSchema);
        agrees(result, readToolResult, toolResultSchema);
        const fast = readModelReturned(returned);
        const slow = modelReturnedSchema.safeParse(returned);
        expect(fast.ok).toBe(slow.success);
        if (fast.ok && slow.success) {
          // What the model takes from it: the text parts and the usage.
          const text = (data: typeof slow.data) => (data.message?.content ?? []).filter((p) => p.kind === undefined || p.kind === 'text').map((p) => p.text ?? '').join('');
          expect(text(fast.value)).toBe(text(slow.data));
          expect(fast.value.usage).toEqual(slow.data.usage);
        }
      },
    ),
    { numRuns: 2000 },
  );
});
