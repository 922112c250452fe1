import { describe, expect, it } from 'vitest';
import { formatDuration } from './formatDuration';

describe('formatDuration, as every view prints a duration', () => {
  it('keeps two or three figures, minutes with their seconds padded, hours with their minutes', () => {
    expect([0.42, 840, 1500, 12_400, 185_000, 7_800_000].map(formatDuration)).toEqual(['0.42 ms', '840 ms', '1.50 s', '12.4 s', '3 min 05 s', '2 h 10 min']);
  });

  it('never prints 60 of a unit: a value that rounds up carries into the next', () => {
    expect(formatDuration(119_600)).toBe('2 min 00 s');
    expect(formatDuration(59_960)).toBe('1 min 00 s');
    expect(formatDuration(3_599_700)).toBe('1 h 00 min');
    expect(formatDuration(9_996)).toBe('10.0 s');
  });

  it('names a duration that is not one', () => {
    expect(formatDuration(Number.NaN)).toBe('invalid duration (NaN)');
    expect(formatDuration(-1)).toBe('invalid duration (-1)');
  });
});
