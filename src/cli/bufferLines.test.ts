// The index splits and decodes a Claude Code log's lines from a Node Buffer (bufferLines.ts): the
// same lines and the same text as TextDecoder's reading, on any bytes (ASCII, UTF-8, invalid
// UTF-8, CR, NUL, a BOM), so a log reads the same in the index and in the viewer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedLines, type LineSplitter } from '../model';
import { bufferLines } from './bufferLines';

function linesOf(bytes: Uint8Array, splitter: LineSplitter): string[] {
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = splitter.newline(start);
    const end = newline < 0 ? bytes.length : newline;
    lines.push(splitter.text(start, end));
    start = end + 1;
  }
  return lines;
}

describe('a Buffer\'s lines', () => {
  it('are TextDecoder\'s, on any bytes', () => {
    // Bytes that start, continue or break a sequence: a BOM, surrogates (ED A0), overlong forms (C0, E0 80, F0 80), past U+10FFFF (F4 90, F5), bytes never in UTF-8.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(10, 13, 0x22, 0xef, 0xbb, 0xbf, 0xe2, 0x80, 0x94, 0xf0, 0x9f, 0xed, 0xa0, 0xc0, 0xc1, 0xc2, 0xe0, 0xf4, 0x90, 0x8f, 0xf5, 0xff));
    const text = fc.string({ unit: 'binary', maxLength: 40 }).map((value) => [...new TextEncoder().encode(value)]);
    fc.assert(
      fc.property(fc.array(fc.oneof(byte.map((value) => [value]), text), { maxLength: 30 }), (parts) => {
        const bytes = Uint8Array.from(parts.flat());
        const buffer = Buffer.from(bytes);
        expect(linesOf(buffer, bufferLines(buffer))).toEqual(linesOf(bytes, decodedLines(bytes)));
      }),
      { numRuns: 500 },
    );
  });
});
