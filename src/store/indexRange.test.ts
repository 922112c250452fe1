import { describe, expect, it } from 'vitest';
import { GrowingIndices } from './indexRange';

/** 0…n-1 as rows, and the array they hand out. */
function upTo(rows: GrowingIndices, n: number): { rows: GrowingIndices; shown: readonly number[] } {
  const next = rows.withRows(rows.length, Array.from({ length: n - rows.length }, (_, i) => rows.length + i));
  return { rows: next, shown: next.indices() };
}

describe('GrowingIndices as arrays', () => {
  it('an array is what was pushed, and stays so after more is pushed', () => {
    const { rows, shown: three } = upTo(new GrowingIndices(), 3);
    const { shown: five } = upTo(rows, 5);
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
    const range = upTo(new GrowingIndices(), 2).shown as number[];
    expect(() => {
      range[0] = 7;
    }).toThrow(TypeError);
    expect(() => range.push(2)).toThrow(TypeError);
    expect(range).toEqual([0, 1]);
  });
});

describe('GrowingIndices', () => {
  it('is a value: what it held stays, whatever is added to or dropped from it or from another value after', () => {
    const base = new GrowingIndices().withRows(0, [0, 1, 3]);
    const first = base.indices();
    expect(base.indices()).toBe(first);
    const four = base.withRows(4, [4]);
    expect(first).toEqual([0, 1, 3]);
    expect(base.length).toBe(3);
    expect(four.indices()).toEqual([0, 1, 3, 4]);
    const second = four.indices();
    const replaced = four.withRows(3, [3, 5]);
    expect(second).toEqual([0, 1, 3, 4]);
    expect(replaced.indices()).toEqual([0, 1, 3, 5]);
    expect(replaced.length).toBe(4);
    // Another value grown from the same older one: neither sees the other's rows.
    const other = base.withRows(4, [6, 7]);
    expect(other.indices()).toEqual([0, 1, 3, 6, 7]);
    expect(four.indices()).toEqual([0, 1, 3, 4]);
    expect(base.withRows(9, [])).toBe(base);
    expect(() => (replaced.indices() as number[]).push(9)).toThrow(TypeError);
  });
});
