// Claude Code's entries are read by hand (claudeCode.ts says why). The zod schemas below are the
// shapes they were read with, and still the reference: on every fixture line and on generated
// entries (fields of every JSON type, blocks of every kind, right and wrong), the hand readers
// give what the schemas give, so a field read differently shows here.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isJsonObject, type JsonObject, optBoolean, optObject, optString } from '../schemas';
import { classifyByShape } from '../classify';
import { readBlock, readEnvelope, readMessage } from './claudeCode';
import { isClaudeCodeEntry } from './native';
import { claudeEnvelopeFields } from './shared';

const entrySchema = z.object({
  ...claudeEnvelopeFields,
  isMeta: optBoolean,
  message: optObject,
  toolUseResult: z.unknown().optional(),
});

const messageSchema = z.object({
  id: optString,
  content: z.union([z.string(), z.array(z.unknown())]).optional().catch(undefined),
  usage: optObject,
});

// A call without `input` or a result without `content` is still a call or a result (its id says
// which): zod 4 requires a `z.unknown()` key to be present, so the reference says optional.
const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thinking'), thinking: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown().optional() }),
  z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.unknown().optional(), is_error: optBoolean }),
]);

/** What a schema gives, with absent fields as undefined (the hand readers name every field). */
function bySchema<T>(schema: z.ZodType<T>, value: unknown, keys: readonly string[]): Record<string, unknown> | undefined {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return undefined;
  const data = parsed.data as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, data[key]]));
}

const ENTRY_KEYS = ['type', 'subtype', 'uuid', 'sessionId', 'isSidechain', 'agentId', 'isMeta', 'message', 'toolUseResult'];
const MESSAGE_KEYS = ['id', 'content', 'usage'];
const BLOCK_KEYS: Record<string, string[]> = { text: ['type', 'text'], thinking: ['type', 'thinking'], tool_use: ['type', 'id', 'name', 'input'], tool_result: ['type', 'tool_use_id', 'content', 'is_error'] };

function expectSameReading(entry: JsonObject): void {
  expect(readEnvelope(entry)).toStrictEqual(bySchema(entrySchema, entry, ENTRY_KEYS));
  const message = entry.message;
  if (!isJsonObject(message)) return;
  expect(readMessage(message)).toStrictEqual(bySchema(messageSchema, message, MESSAGE_KEYS));
  const content = message.content;
  for (const block of Array.isArray(content) ? content : [content]) {
    const type = isJsonObject(block) && typeof block.type === 'string' ? block.type : '';
    expect(readBlock(block)).toStrictEqual(bySchema(blockSchema, block, BLOCK_KEYS[type] ?? []));
  }
}

const FIXTURES = join(import.meta.dirname, '../../../fixtures');
const fixtureEntries = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.jsonl'))
  .flatMap((name) => readFileSync(join(FIXTURES, name), 'utf8').split('\n'))
  .flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return isJsonObject(value) ? [value] : [];
    } catch {
      return [];
    }
  });

const anyValue = fc.oneof(fc.string(), fc.boolean(), fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }));
const maybe = (arbitrary: fc.Arbitrary<unknown>) => fc.option(arbitrary, { nil: undefined });
const block = fc.record(
  {
    type: fc.oneof(fc.constantFrom('text', 'thinking', 'tool_use', 'tool_result', 'image'), anyValue),
    text: maybe(anyValue), thinking: maybe(anyValue), id: maybe(anyValue), name: maybe(anyValue), input: maybe(anyValue),
    tool_use_id: maybe(anyValue), content: maybe(anyValue), is_error: maybe(anyValue),
  },
  { requiredKeys: [] },
);
const message = fc.record({ id: maybe(anyValue), content: maybe(fc.oneof(anyValue, fc.array(fc.oneof(block, anyValue), { maxLength: 4 }))), usage: maybe(anyValue) }, { requiredKeys: [] });
const entry = fc.record(
  {
    type: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'progress'), anyValue),
    subtype: maybe(anyValue), uuid: maybe(anyValue), sessionId: maybe(anyValue), isSidechain: maybe(anyValue), agentId: maybe(anyValue),
    isMeta: maybe(anyValue), message: maybe(fc.oneof(message, anyValue)), toolUseResult: maybe(anyValue),
  },
  { requiredKeys: [] },
);

describe("Claude Code entries read by hand, as the schemas read them", () => {
  it('on every fixture line', () => {
    expect(fixtureEntries.length).toBeGreaterThan(100);
    for (const value of fixtureEntries) expectSameReading(value);
  });

  it('on generated entries, malformed fields and unknown blocks among them', () => {
    fc.assert(fc.property(entry, (value) => expectSameReading(JSON.parse(JSON.stringify(value)) as JsonObject)), { numRuns: 300 });
  });
});

// What makes a line another shape's (classify.ts, formats/), each fragment enough for one of them:
// added to Claude Code entries, alone or together, with stray keys of the same names besides.
const OTHER_SHAPES: readonly JsonObject[] = [
  { jsonrpc: '2.0' }, { msg: {}, dir: 'client->agent' }, { text: 'x', dir: 'stderr' }, { text: 'x', dir: 'agent->client' },
  { message: {}, direction: 'outbound', at: '2026-01-01T00:00:00Z' }, { json: '{}', direction: 'fromClient' }, { _direction: 'x', _type: 'y' },
  { v: 1, kind: 'tool_called', data: {} }, { method: 'session/update', params: {} }, { sessionUpdate: 'x' }, { update: { sessionUpdate: 'x' } },
  { seq: 1 }, { id: 'x' }, { id: 'x', parentId: null }, { $rewindTo: 'x' }, { $set: {} }, { session_id: 'x', started_at: 'y', workspace_root: 'z' },
  { payload: {} }, { provenance: 'x' }, { systemPayload: {} }, { toolCallResult: {} }, { usageMetadata: {} }, { type: 'tool_result' },
  { message: { parts: [] } },
];
const otherShapes = fc.subarray([...OTHER_SHAPES], { maxLength: 2 }).map((fragments) => Object.assign({}, ...fragments) as JsonObject);
const strayKeys = fc.dictionary(fc.constantFrom(...new Set(OTHER_SHAPES.flatMap((fragment) => Object.keys(fragment)))), anyValue, { maxKeys: 2 });
const claudeEnvelope = fc.record({ type: fc.constantFrom('user', 'assistant', 'progress', 'system'), sessionId: fc.string(), uuid: fc.string() });

describe('isClaudeCodeEntry: a Claude Code entry known without trying every shape', () => {
  const heldToTheShapes = (value: JsonObject): void => {
    if (!isClaudeCodeEntry(value)) return;
    expect(classifyByShape(value, JSON.stringify(value), { line: 1, offset: 0, length: 0 }).shape).toBe('claude-code');
  };

  it('accepts only what trying every shape reads as Claude Code, on every fixture line', () => {
    let accepted = 0;
    let claudeCode = 0;
    for (const value of fixtureEntries) {
      heldToTheShapes(value);
      if (isClaudeCodeEntry(value)) accepted++;
      if (classifyByShape(value, JSON.stringify(value), { line: 1, offset: 0, length: 0 }).shape === 'claude-code') claudeCode++;
    }
    // And every one of them: none of the recorded entries is left to the slow way.
    expect(claudeCode).toBeGreaterThan(150);
    expect(accepted).toBe(claudeCode);
  });

  it('and on generated entries with other shapes\' keys added', () => {
    fc.assert(
      fc.property(fc.oneof(claudeEnvelope, entry), entry, otherShapes, strayKeys, (envelope, value, shape, stray) =>
        heldToTheShapes(JSON.parse(JSON.stringify({ ...value, ...envelope, ...stray, ...shape })) as JsonObject),
      ),
      { numRuns: 1000 },
    );
  });
});
