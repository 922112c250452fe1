import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LineReader } from './lines';

interface Seen {
  line: number;
  offset: number;
  text: string;
  bytes: number[];
  terminated: boolean;
}

function readAll(bytes: Uint8Array, chunkSize: number): Seen[] {
  const seen: Seen[] = [];
  const reader = new LineReader((l) =>
    seen.push({ line: l.line, offset: l.offset, text: l.text, bytes: [...l.source.subarray(l.start, l.end)], terminated: l.terminated }),
  );
  for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.slice(at, at + chunkSize));
  reader.end();
  return seen;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('LineReader', () => {
  const input = '\uFEFF{"a":"é"}\r\n\n{"b":"😀"}\n{"c":3}';

  test.each([1, 2, 3, 5, 7, 64])('gives the same lines, offsets and bytes at chunk size %i', (chunkSize) => {
    const bytes = utf8(input);
    const lines = readAll(bytes, chunkSize);
    expect(lines.map((l) => [l.line, l.offset, l.text, l.terminated])).toEqual([
      [1, 3, '{"a":"é"}', true],
      [2, 15, '', true],
      [3, 16, '{"b":"😀"}', true],
      [4, 29, '{"c":3}', false],
    ]);
    // Each line's bytes are exactly the file's bytes at its offset: what the ledger chain hashes.
    for (const l of lines) expect(l.bytes).toEqual([...bytes.subarray(l.offset, l.offset + l.bytes.length)]);
  });

  test('any text, any chunking: lines and offsets match a whole-file split', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 12 }), fc.integer({ min: 1, max: 17 }), (parts, chunkSize) => {
        const text = parts.join('\n');
        const bytes = utf8(text);
        const lines = readAll(bytes, chunkSize);
        const expected = text.split('\n');
        if (expected[expected.length - 1] === '') expected.pop();
        expect(lines.map((l) => l.text)).toEqual(expected.map((l, i) => (i === 0 ? l.replace(/^\uFEFF/, '') : l).replace(/\r$/, '')));
        let offset = text.startsWith('\uFEFF') ? 3 : 0;
        for (const l of lines) {
          expect(l.offset).toBe(offset);
          offset += utf8(text.split('\n')[l.line - 1]!).length + 1 - (l.line === 1 && text.startsWith('\uFEFF') ? 3 : 0);
        }
      }),
    );
  });
});
