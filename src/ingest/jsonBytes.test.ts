import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonBytes } from './jsonBytes';

const encoder = new TextEncoder();

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const agrees = (text: string) => expect(isJsonBytes(encoder.encode(text)), text).toBe(parses(text));

describe('isJsonBytes', () => {
  it('accepts every JSON text, however it is spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 1, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(isJsonBytes(encoder.encode(` ${text}\t`))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on JSON with one byte changed, removed or cut off', () => {
    const alphabet = ['{', '}', '[', ']', '"', '\\', ',', ':', '-', '+', '.', 'e', '0', '1', 'u', 'a', ' ', '\t', '\u0001', 't', 'n', 'f'];
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'delete', 'insert', 'cut'), (value, at, ch, edit) => {
        const text = JSON.stringify(value);
        const i = at % (text.length + 1);
        const mutated =
          edit === 'replace' ? text.slice(0, i) + ch + text.slice(i + 1)
          : edit === 'delete' ? text.slice(0, i) + text.slice(i + 1)
          : edit === 'insert' ? text.slice(0, i) + ch + text.slice(i)
          : text.slice(0, i);
        agrees(mutated);
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with JSON.parse on the edge cases of numbers, strings and literals', () => {
    for (const text of [
      '0', '-0', '01', '1.', '.5', '1e', '1e+', '1E-2', '-', '--1', '1.5e3', '2.', 'tru', 'true', 'nul', 'null ', 'falsey',
      '""', '"\\u00e9"', '"\\u00g9"', '"\\x"', '"a\tb"', '"\\/"', '"unterminated', '{}', '[]', '{"a":}', '{"a" 1}', '{,}', '[1,]',
      '[1 2]', '{"a":1,}', '{"a":1 "b":2}', '{1:2}', '[[[]]]', '[[[]]', '{"a":[{"b":{}}]}', ' ', '', '}', '1 2', '{"x":1}}',
    ]) agrees(text);
  });

  it('reads a range of a larger buffer, and nesting deeper than JSON.parse can', () => {
    const bytes = encoder.encode('xx{"a":[1,2]}yy');
    expect(isJsonBytes(bytes, 2, 13)).toBe(true);
    expect(isJsonBytes(bytes, 2, 12)).toBe(false);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(isJsonBytes(encoder.encode(deep))).toBe(true);
    expect(isJsonBytes(encoder.encode(deep.slice(1)))).toBe(false);
  });
});
