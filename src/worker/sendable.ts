// What the parser sends the page must survive structured clone, which recurses natively: a value
// nested a few thousand levels deep (one `rawInput`, Chromium, in a worker) overflows its stack
// and the whole message is lost, with every row it carried. Such a message is sent again with its
// deepest levels replaced by a note, so the rows already read still arrive.

/** Levels of a message kept when it cannot be sent whole (the message's own envelope takes about six). */
export const SENDABLE_DEPTH = 128;

/** What stands for a value nested deeper than a message can carry. */
export const TOO_DEEP_NOTE = `[not shown: nested more than ${SENDABLE_DEPTH} levels deep, too deep to pass to the page; the file holds it whole]`;

/**
 * A copy of `value` whose objects and arrays nested more than `depth` levels below it are
 * replaced by `TOO_DEEP_NOTE`. Everything shallower is copied as it is (own keys, `__proto__`
 * included, stay keys).
 */
export function boundDepth<T>(value: T, depth = SENDABLE_DEPTH): T {
  return copyBounded(value, depth) as T;
}

function copyBounded(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // Blobs, streams, typed arrays and the like are cloned natively and hold no deep JSON.
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  if (depth <= 0) return TOO_DEEP_NOTE;
  if (Array.isArray(value)) return value.map((item: unknown) => copyBounded(item, depth - 1));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, { value: copyBounded((value as Record<string, unknown>)[key], depth - 1), writable: true, enumerable: true, configurable: true });
  }
  return copy;
}

/** Sends `value` whole if it can be cloned, else bounded (`boundDepth`); a second failure is thrown. */
export function sendBounded<T>(send: (value: T) => void, value: T): void {
  try {
    send(value);
  } catch {
    send(boundDepth(value));
  }
}

/** `structuredClone`, bounded as `sendBounded` bounds what it cannot clone whole. */
export function cloneBounded<T>(value: T): T {
  let copy: T | undefined;
  sendBounded((v: T) => void (copy = structuredClone(v)), value);
  return copy as T;
}
