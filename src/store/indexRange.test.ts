import { describe, expect, it } from 'vitest';
import { GrowingIndices } from './indexRange';

/** 0…n-1, added to `rows`, and the array it then hands out. */
function upTo(rows: GrowingIndices, n: number): readonly number[] {
  for (let i = rows.length; i < n; i++) rows.push(i);
  return rows.indices();
}

describe('GrowingIndices as arrays', () => {
  it('an array is what was pushed, and stays so after more is pushed', () => {
    const ranges = new GrowingIndices();
    const three = upTo(ranges, 3);
    const five = upTo(ranges, 5);
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
    expect(new GrowingIndices().indices()).toEqual([]);
  });

  it('cannot be written', () => {
    const range = upTo(new GrowingIndices(), 2) as number[];
    expect(() => {
      range[0] = 7;
    }).toThrow(TypeError);
    expect(() => range.push(2)).toThrow(TypeError);
    expect(range).toEqual([0, 1]);
  });
});

describe('GrowingIndices', () => {
  it('hands out what it held, unchanged by what is added or dropped after', () => {
    const rows = new GrowingIndices();
    for (const i of [0, 1, 3]) rows.push(i);
    const first = rows.indices();
    expect(rows.indices()).toBe(first);
    rows.push(4);
    expect(first).toEqual([0, 1, 3]);
    expect(rows.indices()).toEqual([0, 1, 3, 4]);
    const second = rows.indices();
    rows.dropFrom(3);
    rows.push(3);
    rows.push(5);
    expect(second).toEqual([0, 1, 3, 4]);
    expect(rows.indices()).toEqual([0, 1, 3, 5]);
    expect(rows.length).toBe(4);
    expect(() => (rows.indices() as number[]).push(9)).toThrow(TypeError);
  });
});
