// `isClaudeCodeEntry` reads a parsed line's keys in one pass (ClaudeEntryKeys, native.ts). Its
// reference here is the same conditions read property by property, as the guard was first written:
// the same verdict and the same envelope fields, on any object made of the keys either reads, and on
// every fixture line. (claudeCode.test.ts holds the verdict to classify's chain of shapes.)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonObject } from '../schemas';
import { ClaudeEntryKeys } from './native';
import { isQwenLine } from './qwenCode';

/** The conditions, property by property: a string `type` and id, none of another shape's keys, not Qwen's. */
function byProperties(value: JsonObject): boolean {
  return (
    typeof value.type === 'string' &&
    (typeof value.sessionId === 'string' || typeof value.uuid === 'string' || typeof value.leafUuid === 'string') &&
    typeof value.id !== 'string' && typeof value.session_id !== 'string' && !isJsonObject(value.payload) &&
    value.$rewindTo === undefined && value.$set === undefined &&
    value.dir === undefined && typeof value.v !== 'number' && value.jsonrpc === undefined && value.method === undefined &&
    value.msg === undefined && value.direction === undefined && value._direction === undefined && value.sessionUpdate === undefined &&
    value.update === undefined && value.seq === undefined &&
    !isQwenLine(value)
  );
}

const FIELDS = ['type', 'sessionId', 'uuid', 'isSidechain', 'agentId', 'isMeta', 'timestamp', 'message', 'toolUseResult'] as const;
/** Every key the conditions (and qwenCode.ts's `isQwenLine` in them) ask for, the fields, and keys of lengths the pass reads by. */
const KEYS = [
  ...FIELDS, 'leafUuid', 'id', 'session_id', 'payload', '$rewindTo', '$set', 'dir', 'v', 'jsonrpc', 'method', 'msg', 'direction', '_direction',
  'sessionUpdate', 'update', 'seq', 'provenance', 'systemPayload', 'toolCallResult', 'usageMetadata',
  'parentUuid', 'cwd', 'data', 'slug', 'x', '0', '__proto__', 'isSidechains', 'session',
];

function expectSameReading(value: JsonObject): void {
  const keys = new ClaudeEntryKeys();
  const verdict = keys.read(value);
  expect(verdict).toBe(byProperties(value));
  if (verdict) for (const field of FIELDS) expect(keys[field], field).toBe(value[field]);
}

describe('a parsed line\'s keys read in one pass', () => {
  it('give the conditions\' verdict and the envelope\'s fields on any object of the keys they read', () => {
    const leaf = fc.oneof(fc.constantFrom('user', 'assistant', 'tool_result', 'progress', '', 's'), fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.oneof(leaf, fc.constant([]), fc.constant({}), fc.constant({ parts: [] }), fc.constant({ parts: 'no' }), fc.constant({ role: 'user', content: 'x' }));
    const entry = fc.array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 14 });
    fc.assert(
      fc.property(entry, fc.constantFrom('user', 'assistant', 'tool_result'), fc.boolean(), (pairs, type, named) => {
        // Most objects a string `type` and a `sessionId`, so that the verdict turns on the other keys.
        const head = named ? [['type', type], ['sessionId', 's']] : [];
        const text = `{${[...head, ...pairs].map(([key, item]) => `${JSON.stringify(key)}:${JSON.stringify(item)}`).join(',')}}`;
        expectSameReading(JSON.parse(text) as JsonObject);
      }),
      { numRuns: 3000 },
    );
  });

  it('give them on every fixture line', () => {
    const fixtures = join(import.meta.dirname, '../../../fixtures');
    let read = 0;
    for (const name of readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(fixtures, name), 'utf8').split('\n')) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          continue;
        }
        if (!isJsonObject(value)) continue;
        expectSameReading(value);
        read++;
      }
    }
    expect(read).toBeGreaterThan(1000);
  });
});
