// Prompt and permission fast paths read what the zod schemas read (as far as the model reads it).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { readPermissionParams, readPermissionResult, readPromptParams, readPromptResult } from './fastPath';
import { permissionParamsSchema, permissionResultSchema, promptParamsSchema, promptResultSchema } from './schemas';

const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.object(), fc.array(fc.anything(), { maxLength: 2 }));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyValue);
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');
const block = maybe(fc.oneof(
  fc.record({ type: fc.constant('text'), text: maybe(fc.string()), annotations: anyValue }, { requiredKeys: ['type', 'text'] }),
  fc.record({ type: fc.constant('image'), mimeType: maybe(fc.string()), data: maybe(fc.string()) }),
));
const option = maybe(fc.record({ optionId: maybe(fc.string()), name: maybe(fc.string()), kind: maybe(fc.string()), extra: anyValue }, { requiredKeys: [] }));

test('prompt and permission params, and their results', () => {
  fc.assert(
    fc.property(
      maybe(fc.record({ sessionId: maybe(fc.string()), prompt: maybe(fc.array(block, { maxLength: 3 })) }, { requiredKeys: [] })),
      maybe(fc.record({ sessionId: maybe(fc.string()), toolCall: anyValue, options: maybe(fc.array(option, { maxLength: 3 })) }, { requiredKeys: [] })),
      maybe(fc.record({ outcome: maybe(fc.record({ outcome: maybe(fc.constantFrom('selected', 'cancelled')), optionId: maybe(fc.string()) }, { requiredKeys: [] })) })),
      maybe(fc.record({ stopReason: maybe(fc.string()), usage: maybe(fc.object()) }, { requiredKeys: [] })),
      (prompt, permission, outcome, result) => {
        const fastPrompt = readPromptParams(prompt);
        const slowPrompt = promptParamsSchema.safeParse(prompt);
        expect(fastPrompt.ok).toBe(slowPrompt.success);
        if (fastPrompt.ok && slowPrompt.success) {
          // What the model reads: the session, the text and the blocks that are not text.
          const reading = (data: typeof slowPrompt.data) => plain([
            data.sessionId,
            data.prompt.map((b) => (b.type === 'text' ? b.text : '')).join(''),
            data.prompt.filter((b) => b.type !== 'text'),
          ]);
          expect(reading(fastPrompt.value)).toEqual(reading(slowPrompt.data));
        }

        const fastPermission = readPermissionParams(permission);
        const slowPermission = permissionParamsSchema.safeParse(permission);
        expect(fastPermission.ok).toBe(slowPermission.success);
        if (fastPermission.ok && slowPermission.success) {
          expect(fastPermission.value.sessionId).toBe(slowPermission.data.sessionId);
          expect(fastPermission.value.toolCall).toBe(slowPermission.data.toolCall);
          expect(fastPermission.value.options).toStrictEqual(slowPermission.data.options);
        }

        const fastOutcome = readPermissionResult(outcome);
        const slowOutcome = permissionResultSchema.safeParse(outcome);
        expect(fastOutcome.ok).toBe(slowOutcome.success);
        if (fastOutcome.ok && slowOutcome.success) {
          const reading = (data: typeof slowOutcome.data) => [data.outcome.outcome, data.outcome.outcome === 'selected' ? data.outcome.optionId : undefined];
          expect(reading(fastOutcome.value)).toEqual(reading(slowOutcome.data));
        }

        const fastResult = readPromptResult(result);
        const slowResult = promptResultSchema.safeParse(result);
        expect(fastResult.ok).toBe(slowResult.success);
        if (fastResult.ok && slowResult.success) {
          expect([fastResult.value.stopReason, fastResult.value.usage]).toEqual([slowResult.data.stopReason, slowResult.data.usage]);
        }
      },
    ),
    { numRuns: 3000 },
  );
});
