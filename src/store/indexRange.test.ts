import { describe, expect, it } from 'vitest';
import { IndexRanges } from './indexRange';

describe('IndexRanges', () => {
  it('a range is 0…n-1 as an array, and stays so after longer ranges are made', () => {
    const ranges = new IndexRanges();
    const three = ranges.range(3);
    const five = ranges.range(5);
    expect(three).toEqual([0, 1, 2]);
    expect(five).toEqual([0, 1, 2, 3, 4]);
    expect(three.length).toBe(3);
    expect(three[3]).toBeUndefined();
    expect(3 in three).toBe(false);
    expect([...three]).toEqual([0, 1, 2]);
    expect(three.flatMap((i) => [i, i])).toEqual([0, 0, 1, 1, 2, 2]);
    expect(three.map((i) => i * 10)).toEqual([0, 10, 20]);
    expect(Object.keys(three)).toEqual(['0', '1', '2']);
    expect(Array.isArray(three)).toBe(true);
    expect(ranges.range(0)).toEqual([]);
  });

  it('cannot be written', () => {
    const range = new IndexRanges().range(2) as number[];
    expect(() => {
      range[0] = 7;
    }).toThrow(TypeError);
    expect(() => range.push(2)).toThrow(TypeError);
    expect(range).toEqual([0, 1]);
  });
});
