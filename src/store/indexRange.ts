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
 * Increasing indices, appended as they come (the items that are transcript rows), read as arrays
 * the way `IndexRanges` gives them: each `indices()` shows the entries there were when it was
 * made, and an entry it shows never changes.
 */
export class GrowingIndices {
  private backing: number[] = [];
  private shown: readonly number[] | null = null;

  get length(): number {
    return this.backing.length;
  }

  push(index: number): void {
    this.backing.push(index);
    this.shown = null;
  }

  /** Drops the indices from `index` on. Arrays handed out keep theirs: the rest goes on in new storage. */
  dropFrom(index: number): void {
    let n = this.backing.length;
    while (n > 0 && (this.backing[n - 1] ?? 0) >= index) n--;
    if (n === this.backing.length) return;
    this.backing = this.backing.slice(0, n);
    this.shown = null;
  }

  indices(): readonly number[] {
    this.shown ??= windowOf(this.backing, this.backing.length);
    return this.shown;
  }
}
