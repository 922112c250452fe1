// The hand reading of agents' times is Date.parse's: on times of that form, near misses of it, and any string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIsoTime } from './isoTime';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

describe('parseIsoTime reads a time as Date.parse does', () => {
  it('on times agents write, in every month, day and hour (leap days, 24:00 and out-of-range fields too)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 999 }),
        (year, month, day, hour, minute, second, ms) => {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`;
          expect(parseIsoTime(text)).toBe(Date.parse(text));
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
        expect(parseIsoTime(text)).toBe(Date.parse(text));
      }),
      { numRuns: 1000 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (text) => {
        expect(parseIsoTime(text)).toBe(Date.parse(text));
      }));
    expect(parseIsoTime(time)).toBe(Date.parse(time));
    expect(Number.isNaN(parseIsoTime('2026-02-30T00:00:00.000Z'))).toBe(Number.isNaN(Date.parse('2026-02-30T00:00:00.000Z')));
  });
});
