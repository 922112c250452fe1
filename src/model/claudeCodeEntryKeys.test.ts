// The index reads a parsed line's keys in one pass (ClaudeEntryKeys, model/claudeCodeRead.ts)
// instead of asking `isClaudeCodeEntry` and then the envelope's properties: the same verdict and
// the same fields, on any object made of the keys either reads, and on every fixture line.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isClaudeCodeEntry } from '../ingest/formats/native';
import { isJsonObject, type JsonObject } from '../ingest/schemas';
import { ClaudeEntryKeys } from './claudeCodeRead';

const FIELDS = ['type', 'sessionId', 'uuid', 'isSidechain', 'agentId', 'isMeta', 'timestamp', 'message', 'toolUseResult'] as const;
/** Every key `isClaudeCodeEntry` (and qwenCode.ts's `isQwenLine` in it) asks for, the fields, and keys of lengths it reads by. */
const KEYS = [
  ...FIELDS, 'leafUuid', 'id', 'session_id', 'payload', '$rewindTo', '$set', 'dir', 'v', 'jsonrpc', 'method', 'msg', 'direction', '_direction',
  'sessionUpdate', 'update', 'seq', 'provenance', 'systemPayload', 'toolCallResult', 'usageMetadata',
  'parentUuid', 'cwd', 'data', 'slug', 'x', '0', '__proto__', 'isSidechains', 'session',
];

function expectSameReading(value: JsonObject): void {
  const keys = new ClaudeEntryKeys();
  const verdict = keys.read(value);
  expect(verdict).toBe(isClaudeCodeEntry(value));
  if (verdict) for (const field of FIELDS) expect(keys[field], field).toBe(value[field]);
}

describe('a parsed line\'s keys read in one pass', () => {
  it('give isClaudeCodeEntry\'s verdict and the envelope\'s fields on any object of the keys they read', () => {
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
    const fixtures = join(import.meta.dirname, '../../fixtures');
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
