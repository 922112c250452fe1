import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { firstNonAscii, LineReader } from './lines';

interface Seen {
  line: number;
  offset: number;
  text: string;
  bytes: number[];
  terminated: boolean;
}

function readAll(bytes: Uint8Array, chunkSize: number, options: { limit?: number; decodeEachLine?: boolean } = {}): (Seen & { tooLong?: number })[] {
  const seen: (Seen & { tooLong?: number })[] = [];
  const reader = new LineReader(
    (l) => seen.push({ line: l.line, offset: l.offset, text: l.text, bytes: [...l.source.subarray(l.start, l.end)], terminated: l.terminated, ...(l.tooLong !== undefined ? { tooLong: l.tooLong } : {}) }),
    options.limit,
    // The browser's reading (a chunk at a time) unless told: Node's default is the other one.
    options.decodeEachLine ?? false,
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

describe('LineReader decoding each line on its own', () => {
  test('reads every line as decoding a chunk at a time does: any bytes (broken UTF-8, BOMs, CRs, lines past the limit), any chunking', () => {
    const byte = fc.oneof(fc.constantFrom(10, 13, 0xef, 0xbb, 0xbf, 0xe2, 0x86, 0x92, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80), fc.integer({ min: 0, max: 255 }));
    const input = fc.oneof(fc.array(fc.string({ unit: 'binary' }), { maxLength: 12 }).map((parts) => utf8(parts.join('\n'))), fc.array(byte, { maxLength: 80 }).map((bytes) => new Uint8Array(bytes)));
    fc.assert(
      fc.property(input, fc.integer({ min: 1, max: 17 }), fc.constantFrom(undefined, 4, 30), (bytes, chunkSize, limit) => {
        expect(readAll(bytes, chunkSize, { limit, decodeEachLine: true })).toEqual(readAll(bytes, chunkSize, { limit }));
      }),
      { numRuns: 500 },
    );
  });
});

describe('LineReader, a line past the limit', () => {
  function readWithLimit(text: string, limit: number, chunkSize: number) {
    const seen: { line: number; offset: number; text: string; tooLong?: number; terminated: boolean }[] = [];
    const reader = new LineReader((l) => seen.push({ line: l.line, offset: l.offset, text: l.text, terminated: l.terminated, ...(l.tooLong !== undefined ? { tooLong: l.tooLong } : {}) }), limit);
    const bytes = utf8(text);
    for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.slice(at, at + chunkSize));
    reader.end();
    return seen;
  }

  test.each([1, 3, 8, 100])('is reported with its size and the lines around it read on (chunks of %i)', (chunkSize) => {
    const long = `{"x":"${'y'.repeat(40)}"}`;
    const seen = readWithLimit(`{"a":1}\n${long}\n{"b":2}\n`, 20, chunkSize);
    expect(seen).toEqual([
      { line: 1, offset: 0, text: '{"a":1}', terminated: true },
      { line: 2, offset: 8, text: long, terminated: true, tooLong: long.length },
      { line: 3, offset: 8 + long.length + 1, text: '{"b":2}', terminated: true },
    ]);
  });

  test('a last line past the limit without a newline is reported as unterminated', () => {
    const seen = readWithLimit(`{"a":1}\n${'z'.repeat(50)}`, 20, 7);
    expect(seen.at(-1)).toMatchObject({ line: 2, tooLong: 50, terminated: false });
  });
});

describe('firstNonAscii', () => {
  test('finds the first byte past 0x7f in any range of any view, as a byte-by-byte search does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.nat(7), fc.nat(70), fc.nat(70), (bytes, shift, a, b) => {
        // A view that starts anywhere in its buffer: the word reads must stay aligned.
        const view = new Uint8Array(new Uint8Array([...new Uint8Array(shift), ...bytes]).buffer, shift, bytes.length);
        const from = Math.min(a, b, bytes.length);
        const to = Math.min(Math.max(a, b), bytes.length);
        const expected = view.subarray(from, to).findIndex((byte) => byte >= 0x80);
        expect(firstNonAscii(view, from, to)).toBe(expected < 0 ? -1 : from + expected);
      }),
      { numRuns: 2000 },
    );
  });
});
