// The view when no filter is active is every item that is a row (all but usage reports, which the
// header's meter and the Usage view show), and it grows with every delta. A snapshot's view must
// never change after it is handed out, so copying a million-entry array for each snapshot (every
// redraw while a large file streams in) was what blocked the page longest: the copy, and the
// collections it made the garbage collector run. Instead every such view reads one shared array
// that only ever grows, and whose entries never change, through a window that shows its first n
// entries: an O(1) snapshot that still behaves as a plain array.

/** An array index as a property key ("0", "17"): what element reads look up. */
function isIndexKey(key: string | symbol): key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 15) return false;
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && String(Number(key)) === key;
}

/** The first `n` entries of `backing` as a read-only array (entries below `n` must never change). */
function windowOf(backing: number[], n: number): readonly number[] {
  return new Proxy(backing, {
    get: (target, key, receiver) => {
      if (key === 'length') return n;
      if (isIndexKey(key)) return Number(key) < n ? target[Number(key)] : undefined;
      return Reflect.get(target, key, receiver) as unknown;
    },
    has: (target, key) => (isIndexKey(key) ? Number(key) < n : Reflect.has(target, key)),
    ownKeys: () => [...Array.from({ length: n }, (_, i) => String(i)), 'length'],
    getOwnPropertyDescriptor: (target, key) => {
      if (key === 'length') return { value: n, writable: true, enumerable: false, configurable: false };
      if (isIndexKey(key)) return Number(key) < n ? { value: target[Number(key)], writable: false, enumerable: true, configurable: true } : undefined;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    // Read-only: a snapshot's view is never written.
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

/**
 * Increasing indices (the items that are transcript rows) as a value: `withRows` gives a new one
 * and leaves this one as it was. Values share one backing array, as Go's slices do: a value
 * appends in place only when it is the longest (the backing holds nothing past its length), so
 * no value's entries ever change, and appending to the newest costs only what is appended.
 */
export class GrowingIndices {
  readonly #backing: number[];
  #shown: readonly number[] | null = null;

  constructor(
    backing: number[] = [],
    readonly length = 0,
  ) {
    this.#backing = backing;
  }

  /** These indices with those from `dropFrom` on replaced by `pushed` (increasing, each at least `dropFrom`). */
  withRows(dropFrom: number, pushed: readonly number[]): GrowingIndices {
    let n = this.length;
    while (n > 0 && (this.#backing[n - 1] ?? 0) >= dropFrom) n--;
    if (n === this.length && pushed.length === 0) return this;
    // Past our length the backing is another value's: go on in new storage.
    const backing = this.#backing.length === n ? this.#backing : this.#backing.slice(0, n);
    for (const index of pushed) backing.push(index);
    return new GrowingIndices(backing, backing.length);
  }

  indices(): readonly number[] {
    this.#shown ??= windowOf(this.#backing, this.length);
    return this.#shown;
  }

  /** The same indices for a loop over all of them: the window's every read is a trap (microseconds), the backing's is not. */
  run(): IndexRun {
    return { backing: this.#backing, length: this.length };
  }
}

/** Indices as the first `length` entries of `backing` (which may hold more: another value's). */
export interface IndexRun {
  readonly backing: readonly number[];
  readonly length: number;
}

export const runOf = (indices: readonly number[]): IndexRun => ({ backing: indices, length: indices.length });
