// Whether bytes are one JSON value, decided on the bytes themselves: no string is decoded and no
// object is built, so checking is several times cheaper than JSON.parse and leaves no garbage.
// Used where bytes are kept as they are (a recorder splicing a message into its capture line) and
// only their validity matters. It agrees with JSON.parse on every input (a property test checks
// it), except that nesting has no depth limit here where JSON.parse runs out of stack.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Bytes that end a plain run inside a string: the quote, a backslash, and control characters. */
export const STRING_STOP = new Uint8Array(256);
STRING_STOP.fill(1, 0, 0x20);
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

/** End of the string whose opening quote is at `at` (the index after its closing quote), or -1. */
export function skipString(b: Uint8Array, at: number, end: number): number {
  let i = at + 1;
  while (i < end) {
    // Most of a session's bytes are plain runs of string text: one table look-up a byte.
    while (i < end && STRING_STOP[b[i]!] === 0) i++;
    if (i >= end) return -1;
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      i = skipEscape(b, i, end);
      if (i < 0) return -1;
      continue;
    }
    if (c < 0x20) return -1;
    i++;
  }
  return -1;
}

/** End of the escape whose backslash is at `at`, or -1 when it is not one JSON allows. */
export function skipEscape(b: Uint8Array, at: number, end: number): number {
  const e = b[at + 1];
  if (e === 0x75) {
    if (at + 5 >= end || !isHex(b[at + 2]!) || !isHex(b[at + 3]!) || !isHex(b[at + 4]!) || !isHex(b[at + 5]!)) return -1;
    return at + 6;
  }
  // " \ / b f n r t
  if (e !== QUOTE && e !== BACKSLASH && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) return -1;
  return at + 2;
}

/** End of the number starting at `at`, or -1. */
export function skipNumber(b: Uint8Array, at: number, end: number): number {
  let i = at;
  if (b[i] === MINUS) i++;
  if (i >= end) return -1;
  if (b[i] === ZERO) i++;
  else if (isDigit(b[i]!)) while (i < end && isDigit(b[i]!)) i++;
  else return -1;
  if (i < end && b[i] === DOT) {
    i++;
    if (i >= end || !isDigit(b[i]!)) return -1;
    while (i < end && isDigit(b[i]!)) i++;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === PLUS || b[i] === MINUS)) i++;
    if (i >= end || !isDigit(b[i]!)) return -1;
    while (i < end && isDigit(b[i]!)) i++;
  }
  return i;
}

export function skipWord(b: Uint8Array, at: number, end: number, word: readonly number[]): number {
  if (at + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word[k]) return -1;
  return at + word.length;
}

export const TRUE = [0x74, 0x72, 0x75, 0x65];
export const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
export const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/**
 * Whether `bytes[start, end)` is exactly one JSON value with optional whitespace around it. The
 * bytes must also be valid UTF-8 for JSON.parse of their text to agree; check that separately
 * (Node's `isUtf8`, or a fatal TextDecoder) where it matters.
 */
export function isJsonBytes(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  let i = start;
  while (i < end && isSpace(bytes[i]!)) i++;
  i = jsonValueEnd(bytes, i, end);
  return i === end;
}

/**
 * Where the JSON value starting at `start` ends (the index after it and any whitespace after it),
 * or -1 when `bytes[start, end)` does not begin with one.
 */
export function jsonValueEnd(bytes: Uint8Array, start: number, end: number): number {
  // Open containers, innermost last: 1 for an object, 2 for an array.
  const stack: number[] = [];
  let i = start;
  // What may come next: a value, or (inside a container) its closing bracket or a separator.
  let expectValue = true;
  // Inside an object, whether the value expected next is a key.
  let expectKey = false;
  while (i < end && isSpace(bytes[i]!)) i++;
  for (;;) {
    if (expectValue) {
      if (i >= end) return -1;
      const c = bytes[i]!;
      if (expectKey) {
        if (c === QUOTE) {
          i = skipString(bytes, i, end);
          if (i < 0) return -1;
          while (i < end && isSpace(bytes[i]!)) i++;
          if (bytes[i] !== COLON) return -1;
          i++;
          while (i < end && isSpace(bytes[i]!)) i++;
          expectKey = false;
          continue;
        }
        return -1;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        i++;
        while (i < end && isSpace(bytes[i]!)) i++;
        // An empty container closes at once.
        const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
        if (bytes[i] === close) {
          i++;
          expectValue = false;
        } else {
          stack.push(c === OPEN_OBJECT ? 1 : 2);
          expectKey = c === OPEN_OBJECT;
        }
      } else {
        if (c === QUOTE) i = skipString(bytes, i, end);
        else if (c === MINUS || isDigit(c)) i = skipNumber(bytes, i, end);
        else if (c === 0x74) i = skipWord(bytes, i, end, TRUE);
        else if (c === 0x66) i = skipWord(bytes, i, end, FALSE);
        else if (c === 0x6e) i = skipWord(bytes, i, end, NULL);
        else return -1;
        if (i < 0) return -1;
        expectValue = false;
      }
    } else {
      // After a value: the end of input, a separator, or a closing bracket.
      while (i < end && isSpace(bytes[i]!)) i++;
      const top = stack[stack.length - 1];
      if (top === undefined) return i;
      if (i >= end) return -1;
      const d = bytes[i]!;
      if (d === COMMA) {
        i++;
        while (i < end && isSpace(bytes[i]!)) i++;
        expectValue = true;
        expectKey = top === 1;
      } else if ((d === CLOSE_OBJECT && top === 1) || (d === CLOSE_ARRAY && top === 2)) {
        i++;
        stack.pop();
      } else {
        return -1;
      }
      continue;
    }
    while (i < end && isSpace(bytes[i]!)) i++;
  }
}
