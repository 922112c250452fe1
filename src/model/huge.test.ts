// An input larger than the longest string V8 can hold (2^29 - 24 characters, about 512 MiB)
// ingests, because it is never held as one string: it is streamed in chunks.
import { expect, test } from 'vitest';
import { ingest } from './index';

const V8_MAX_STRING = 2 ** 29 - 24;

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return { next: () => Promise.resolve(iterator.next()) };
}

test('a 540 MiB stream, past V8\'s string limit, ingests and reconciles', { timeout: 240_000 }, async () => {
  const pad = 'x'.repeat(150);
  const line = (i: number) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `w${i % 10} ` }, _meta: { pad } } } })}\n`;
  // One 1 MiB chunk of whole lines, sent again and again: what matters is the total, not variety.
  const lines: string[] = [];
  let size = 0;
  while (size < 1 << 20) {
    const next = line(lines.length);
    lines.push(next);
    size += next.length;
  }
  const chunk = new TextEncoder().encode(lines.join(''));
  const repeats = Math.ceil((540 * 2 ** 20) / chunk.length);
  function* stream() {
    for (let i = 0; i < repeats; i++) yield chunk;
  }
  const session = await ingest({ [Symbol.asyncIterator]: () => toAsync(stream()) }, { detail: 'light' });
  const total = chunk.length * repeats;
  expect(total).toBeGreaterThan(V8_MAX_STRING);
  expect(session.counts).toEqual({ lines: lines.length * repeats, events: lines.length * repeats, unknown: 0, bad: 0 });
  // Consecutive chunks of one message merge into one transcript item.
  expect(session.items).toHaveLength(1);
});

test('a single 540 MiB line is a bad line with its offset and size, and the lines after it are read', { timeout: 240_000 }, async () => {
  const before = new TextEncoder().encode('{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"before"}}\n');
  const after = new TextEncoder().encode('{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"after"}}\n');
  const filler = new Uint8Array(1 << 20).fill(0x61);
  const repeats = 540;
  function* stream() {
    yield before;
    yield new TextEncoder().encode('{"text":"');
    for (let i = 0; i < repeats; i++) yield filler;
    yield new TextEncoder().encode('"}\n');
    yield after;
  }
  const session = await ingest({ [Symbol.asyncIterator]: () => toAsync(stream()) }, { detail: 'light' });
  expect(session.counts).toEqual({ lines: 3, events: 2, unknown: 0, bad: 1 });
  const bad = session.diagnostics.bad[0];
  expect(bad).toMatchObject({ line: 2, offset: before.length });
  expect(bad?.reason).toContain(`${(repeats * 2 ** 20 + 11).toLocaleString('en')} bytes`);
  expect(bad?.excerpt.startsWith('{"text":"aaa')).toBe(true);
  expect(session.items.map((it) => (it.type === 'message' ? it.text : it.type))).toEqual(['before', 'after']);
});
