// A plan call's entries are read by hand (shared.ts's planEntries); the schema below is how they were
// read before, and what they mean: the two agree on any list of items and on anything not a list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlanEntry } from '../acpTypes';
import { optString } from '../schemas';
import { planEntries } from './shared';

const planItemSchema = z.object({ content: z.string().optional(), step: z.string().optional(), status: z.string().catch('pending'), priority: optString });

function planEntriesBySchema(items: unknown): PlanEntry[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const entries: PlanEntry[] = [];
  for (const item of items) {
    const parsed = planItemSchema.safeParse(item);
    if (!parsed.success) continue;
    const content = parsed.data.content ?? parsed.data.step;
    if (content === undefined) continue;
    const entry: PlanEntry = { content, status: parsed.data.status };
    if (parsed.data.priority !== undefined) entry.priority = parsed.data.priority;
    entries.push(entry);
  }
  return entries;
}

describe('a plan\'s entries', () => {
  it('are the schema\'s reading of them, on any items', () => {
    const value = fc.oneof(fc.constantFrom('', 'write tests', 'completed', 'high'), fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
    const item = fc.oneof(
      fc.dictionary(fc.constantFrom('content', 'step', 'status', 'priority', 'activeForm', 'id'), value, { maxKeys: 5 }),
      value,
    );
    const items = fc.oneof(fc.array(item, { maxLength: 6 }), value);
    fc.assert(
      fc.property(items, (drawn) => {
        // As a log's line holds them: parsed JSON.
        const parsed: unknown = JSON.parse(JSON.stringify(drawn));
        expect(planEntries(parsed)).toEqual(planEntriesBySchema(parsed));
      }),
      { numRuns: 3000 },
    );
  });
});
