// The hand reading of agents' times is Date.parse's: on times of that form, near misses of it, and any string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIsoTime, parseIsoTimeBytes } from './isoTime';

/** Date.parse's reading of `text`, by hand from the string, and from its UTF-8 bytes where that reads it. */
function expectDateParse(text: string): void {
  expect(parseIsoTime(text)).toBe(Date.parse(text));
  const bytes = new TextEncoder().encode(` ${text} `);
  const fromBytes = parseIsoTimeBytes(bytes, 1, bytes.length - 1);
  if (fromBytes !== undefined) expect(fromBytes).toBe(Date.parse(text));
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

describe('parseIsoTime reads a time as Date.parse does', () => {
  it('on times agents write, in every month, day and hour (leap days, 24:00 and out-of-range fields too)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 999 }),
        (year, month, day, hour, minute, second, ms) => {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`;
          expectDateParse(text);
          // Every valid time of the form is read from its bytes.
          if (year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour <= 23 && minute <= 59 && second <= 59) expect(parseIsoTimeBytes(new TextEncoder().encode(text), 0, 24)).toBe(Date.parse(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('on a time with one character changed, and on any string', () => {
    const time = '2026-12-01T14:08:29.596Z';
    fc.assert(
      fc.property(fc.nat({ max: time.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }), (at, char) => {
        const text = time.slice(0, at) + char + time.slice(at + 1);
        expectDateParse(text);
      }),
      { numRuns: 1000 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (text) => expectDateParse(text)));
    // A character past one byte is not cut to one: U+0130 is not the digit 0 (0x30).
    expectDateParse('2026-12-01T14:08:29.59\u0130Z');
    expect(parseIsoTime(time)).toBe(Date.parse(time));
    expect(Number.isNaN(parseIsoTime('2026-02-30T00:00:00.000Z'))).toBe(Number.isNaN(Date.parse('2026-02-30T00:00:00.000Z')));
  });
});
