// The view when no filter is active is every item index, 0…n-1, and n grows with every delta. A
// snapshot's view must never change after it is handed out, so copying a million-entry array for
// each snapshot (every redraw while a large file streams in) was what blocked the page longest:
// the copy, and the collections it made the garbage collector run. Instead every such view reads
// one shared array that only ever grows, and whose entries never change (entry i is i), through a
// window that shows its first n entries: an O(1) snapshot that still behaves as a plain array.

/** An array index as a property key ("0", "17"): what element reads look up. */
function isIndexKey(key: string | symbol): key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 15) return false;
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && String(Number(key)) === key;
}

/** Indices 0…n-1 as a read-only array, sharing storage with every other range made by the same `IndexRanges`. */
export class IndexRanges {
  private backing: number[] = [];

  range(n: number): readonly number[] {
    const backing = this.backing;
    for (let i = backing.length; i < n; i++) backing.push(i);
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
        if (isIndexKey(key)) return Number(key) < n ? { value: Number(key), writable: false, enumerable: true, configurable: true } : undefined;
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      // Read-only: a snapshot's view is never written.
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    });
  }
}
