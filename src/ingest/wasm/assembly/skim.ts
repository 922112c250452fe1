// The light read's line skimmer (../../skim.ts) in WebAssembly with SIMD: the same walk, the same
// answers, with strings passed 16 bytes at a time and their UTF-8 checked on the way. AssemblyScript
// (see ../README.md); built by `npm run build:wasm` into ../skimModule.ts.
//
// Memory: [stacks | spans | parents | input + padding]. The caller writes a line at `input()`
// (after `reserve`, which may grow memory) and calls `skim`, which returns how many spans it
// found, or -1 when the line is not one JSON value in valid UTF-8 (or is beyond this module's
// limits: nesting deeper than MAX_DEPTH, more spans or parent keys than fit): the caller then
// reads the line whole, as it does a line the JS skimmer refuses.

const QUOTE: u8 = 0x22;
const BACKSLASH: u8 = 0x5c;
const OPEN_OBJECT: u8 = 0x7b;
const CLOSE_OBJECT: u8 = 0x7d;
const OPEN_ARRAY: u8 = 0x5b;
const CLOSE_ARRAY: u8 = 0x5d;
const COMMA: u8 = 0x2c;
const COLON: u8 = 0x3a;
const MINUS: u8 = 0x2d;

/** String tokens shorter than this (quotes included) are kept (skim.ts's MIN_ELIDED_BYTES). */
const MIN_ELIDED_BYTES: isize = 96;

const ROOT: u8 = 1;
const CALL: u8 = 2;
const LEDGER_DATA: u8 = 4;
const BULK: u8 = 8;
const KEYED: u8 = 16;
const WHOLE: u8 = 32;

const MAX_DEPTH: i32 = 1024;
const MAX_SPAN_WORDS: i32 = 1 << 16;
const MAX_PARENT_WORDS: i32 = 1 << 14;
/** Zero bytes after the input: a 16-byte load past the end stops on them (0 is a control byte). */
const PADDING: usize = 64;

const roles = memory.data(MAX_DEPTH);
const isObject = memory.data(MAX_DEPTH);
const keyStarts = memory.data(MAX_DEPTH * 4);
const keyEnds = memory.data(MAX_DEPTH * 4);
/** A stack of open containers for `valueEnd` (1 object, 2 array). */
const valueStack = memory.data(MAX_DEPTH);
const spans = memory.data(MAX_SPAN_WORDS * 4);
/** Per parent: the number of keys on its path, then each key's [start, end) offsets. */
const parents = memory.data(MAX_PARENT_WORDS * 4);

const KEY_CONTENT = memory.data<u8>([0x22, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x22]);
const KEY_RAW_OUTPUT = memory.data<u8>([0x22, 0x72, 0x61, 0x77, 0x4f, 0x75, 0x74, 0x70, 0x75, 0x74, 0x22]);
const KEY_RESULT = memory.data<u8>([0x22, 0x72, 0x65, 0x73, 0x75, 0x6c, 0x74, 0x22]);
const KEY_UPDATE = memory.data<u8>([0x22, 0x75, 0x70, 0x64, 0x61, 0x74, 0x65, 0x22]);
const KEY_TOOL_CALL = memory.data<u8>([0x22, 0x74, 0x6f, 0x6f, 0x6c, 0x43, 0x61, 0x6c, 0x6c, 0x22]);
const KEY_DATA = memory.data<u8>([0x22, 0x64, 0x61, 0x74, 0x61, 0x22]);
const KEY_TERMINAL_ID = memory.data<u8>([0x22, 0x74, 0x65, 0x72, 0x6d, 0x69, 0x6e, 0x61, 0x6c, 0x49, 0x64, 0x22]);
const KEY_TYPE = memory.data<u8>([0x22, 0x74, 0x79, 0x70, 0x65, 0x22]);

let inputAt: usize = 0;
let spanWords: i32 = 0;
let parentWords: i32 = 0;
let parentCount: i32 = 0;
let bulkParent: i32 = -1;
let bulkParentNoted = false;
let lastParentAt: isize = -2;
let overflow = false;
let base: usize = 0;

export function input(): usize {
  if (inputAt == 0) inputAt = (__heap_base + 15) & ~15;
  return inputAt;
}

/** Makes room for a line of `length` bytes at `input()`; false when memory cannot grow. */
export function reserve(length: i32): bool {
  const need = input() + <usize>length + PADDING;
  const have = <usize>memory.size() << 16;
  if (need > have && memory.grow(<i32>((need - have + 0xffff) >> 16)) < 0) return false;
  memory.fill(input() + <usize>length, 0, PADDING);
  return true;
}

export function spansAt(): usize {
  return spans;
}

export function parentsAt(): usize {
  return parents;
}

export function parentsFound(): i32 {
  return parentCount;
}

@inline function isSpace(c: u8): bool {
  return c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09;
}

@inline function skipSpace(i: usize, end: usize): usize {
  while (i < end && isSpace(load<u8>(i))) i++;
  return i;
}

@inline function isHex(c: u8): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

@inline function isDigit(c: u8): bool {
  return c >= 0x30 && c <= 0x39;
}

/** End of the escape whose backslash is at `at`, or 0 when JSON does not allow it. */
function skipEscape(at: usize, end: usize): usize {
  const e = load<u8>(at + 1);
  if (e == 0x75) {
    if (at + 5 >= end || !isHex(load<u8>(at + 2)) || !isHex(load<u8>(at + 3)) || !isHex(load<u8>(at + 4)) || !isHex(load<u8>(at + 5))) return 0;
    return at + 6;
  }
  if (at + 1 >= end) return 0;
  if (e != QUOTE && e != BACKSLASH && e != 0x2f && e != 0x62 && e != 0x66 && e != 0x6e && e != 0x72 && e != 0x74) return 0;
  return at + 2;
}

/** End of the UTF-8 sequence whose lead byte (>= 0x80) is at `at`, or 0 when it is not valid UTF-8. */
function skipUtf8(at: usize, end: usize): usize {
  const c = <u32>load<u8>(at);
  let n: usize;
  let min: u32;
  let code: u32;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 1;
    min = 0x80;
    code = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 2;
    min = 0x800;
    code = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 3;
    min = 0x10000;
    code = c & 0x07;
  } else {
    return 0;
  }
  if (at + n >= end) return 0;
  for (let k: usize = 1; k <= n; k++) {
    const d = <u32>load<u8>(at + k);
    if ((d & 0xc0) != 0x80) return 0;
    code = (code << 6) | (d & 0x3f);
  }
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
  if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return 0;
  return at + n + 1;
}

/**
 * End of the string whose opening quote is at `at` (the byte after its closing quote), or 0.
 * Sixteen bytes at a time: a lane stops the run when it is a quote, a backslash, a control byte
 * or a non-ASCII byte (its own high bit, OR-ed into the mask).
 */
function skipString(at: usize, end: usize): usize {
  const quotes = i8x16.splat(QUOTE);
  const backslashes = i8x16.splat(BACKSLASH);
  const controls = i8x16.splat(0x20);
  let i = at + 1;
  while (true) {
    const v = v128.load(i);
    const stop = v128.or(v128.or(i8x16.eq(v, quotes), i8x16.eq(v, backslashes)), v128.or(i8x16.lt_u(v, controls), v));
    const mask = i8x16.bitmask(stop);
    if (mask == 0) {
      i += 16;
      continue;
    }
    i += <usize>ctz(mask);
    if (i >= end) return 0;
    const c = load<u8>(i);
    if (c == QUOTE) return i + 1;
    if (c == BACKSLASH) {
      i = skipEscape(i, end);
    } else if (c < 0x20) {
      return 0;
    } else {
      i = skipUtf8(i, end);
    }
    if (i == 0) return 0;
  }
}

function skipNumber(at: usize, end: usize): usize {
  let i = at;
  if (load<u8>(i) == MINUS) i++;
  if (i >= end) return 0;
  if (load<u8>(i) == 0x30) i++;
  else if (isDigit(load<u8>(i))) while (i < end && isDigit(load<u8>(i))) i++;
  else return 0;
  if (i < end && load<u8>(i) == 0x2e) {
    i++;
    if (i >= end || !isDigit(load<u8>(i))) return 0;
    while (i < end && isDigit(load<u8>(i))) i++;
  }
  if (i < end && (load<u8>(i) == 0x65 || load<u8>(i) == 0x45)) {
    i++;
    if (i < end && (load<u8>(i) == 0x2b || load<u8>(i) == MINUS)) i++;
    if (i >= end || !isDigit(load<u8>(i))) return 0;
    while (i < end && isDigit(load<u8>(i))) i++;
  }
  return i;
}

/** `true`, `false` or `null` at `at` (told by its first byte), or 0. */
function skipWord(at: usize, end: usize): usize {
  const c = load<u8>(at);
  if (c == 0x74) return at + 4 <= end && load<u32>(at) == 0x65757274 ? at + 4 : 0;
  if (c == 0x6e) return at + 4 <= end && load<u32>(at) == 0x6c6c756e ? at + 4 : 0;
  if (c == 0x66) return at + 5 <= end && load<u32>(at + 1) == 0x65736c61 ? at + 5 : 0;
  return 0;
}

/** A scalar value at `at` (string, number or word), or 0. */
@inline function skipScalar(at: usize, end: usize): usize {
  const c = load<u8>(at);
  if (c == QUOTE) return skipString(at, end);
  if (c == MINUS || isDigit(c)) return skipNumber(at, end);
  return skipWord(at, end);
}

/** Where the JSON value at `start` ends, spaces after it included (jsonBytes.ts's jsonValueEnd), or 0. */
function valueEnd(start: usize, end: usize): usize {
  let depth: i32 = 0;
  let i = skipSpace(start, end);
  let expectValue = true;
  let expectKey = false;
  while (true) {
    if (expectValue) {
      if (i >= end) return 0;
      const c = load<u8>(i);
      if (expectKey) {
        if (c != QUOTE) return 0;
        i = skipString(i, end);
        if (i == 0) return 0;
        i = skipSpace(i, end);
        if (i >= end || load<u8>(i) != COLON) return 0;
        i = skipSpace(i + 1, end);
        expectKey = false;
        continue;
      }
      if (c == OPEN_OBJECT || c == OPEN_ARRAY) {
        i = skipSpace(i + 1, end);
        const close: u8 = c == OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
        if (i < end && load<u8>(i) == close) {
          i++;
          expectValue = false;
        } else {
          if (depth >= MAX_DEPTH) {
            overflow = true;
            return 0;
          }
          store<u8>(valueStack + <usize>depth, c == OPEN_OBJECT ? 1 : 2);
          depth++;
          expectKey = c == OPEN_OBJECT;
        }
      } else {
        i = skipScalar(i, end);
        if (i == 0) return 0;
        expectValue = false;
      }
    } else {
      i = skipSpace(i, end);
      if (depth == 0) return i;
      if (i >= end) return 0;
      const d = load<u8>(i);
      const top = load<u8>(valueStack + <usize>(depth - 1));
      if (d == COMMA) {
        i = skipSpace(i + 1, end);
        expectValue = true;
        expectKey = top == 1;
      } else if ((d == CLOSE_OBJECT && top == 1) || (d == CLOSE_ARRAY && top == 2)) {
        i++;
        depth--;
      } else {
        return 0;
      }
      continue;
    }
    i = skipSpace(i, end);
  }
}

@inline function keyIs(start: usize, end: usize, key: usize, length: usize): bool {
  if (end - start != length) return false;
  for (let k: usize = 0; k < length; k++) if (load<u8>(start + k) != load<u8>(key + k)) return false;
  return true;
}

@inline function keyStartAt(depth: i32): usize {
  return <usize>load<u32>(keyStarts + (<usize>depth << 2));
}

@inline function keyEndAt(depth: i32): usize {
  return <usize>load<u32>(keyEnds + (<usize>depth << 2));
}

/** The role of the value at `valueAt` after the key `[keyStart, …)` in the object at `depth - 1`. */
function roleOfValue(depth: i32, keyStart: usize, valueAt: usize, end: usize): u8 {
  const parent = load<u8>(roles + <usize>(depth - 1));
  if (parent & BULK) return BULK;
  if (!(parent & KEYED)) return 0;
  const keyEnd = keyEndAt(depth - 1);
  const value: u8 = valueAt < end ? load<u8>(valueAt) : 0;
  if (parent & CALL) {
    if (keyIs(keyStart, keyEnd, KEY_CONTENT, 9)) return value == OPEN_ARRAY ? BULK : 0;
    if (keyIs(keyStart, keyEnd, KEY_RAW_OUTPUT, 11)) return BULK | WHOLE;
  }
  if (parent & LEDGER_DATA && keyIs(keyStart, keyEnd, KEY_RESULT, 8)) return BULK | WHOLE;
  if (value != OPEN_OBJECT) return 0;
  if (keyIs(keyStart, keyEnd, KEY_UPDATE, 8) || keyIs(keyStart, keyEnd, KEY_TOOL_CALL, 10)) return CALL | KEYED;
  if (parent & ROOT && keyIs(keyStart, keyEnd, KEY_DATA, 6)) return LEDGER_DATA | KEYED;
  return KEYED;
}

/** A string inside the bulk that is kept: a block's `type` or a terminal's id. */
function keptInBulk(depth: i32): bool {
  if (load<u8>(isObject + <usize>(depth - 1)) != 1) return false;
  const start = keyStartAt(depth - 1);
  const end = keyEndAt(depth - 1);
  return keyIs(start, end, KEY_TERMINAL_ID, 12) || keyIs(start, end, KEY_TYPE, 6);
}

@inline function enterBulk(parentDepth: i32): void {
  bulkParent = parentDepth;
  bulkParentNoted = false;
}

@inline function leaveBulk(depth: i32): void {
  if (depth == bulkParent + 1) bulkParent = -1;
}

function noteSpan(start: usize, end: usize): void {
  if (spanWords + 2 > MAX_SPAN_WORDS) {
    overflow = true;
    return;
  }
  store<u32>(spans + (<usize>spanWords << 2), <u32>(start - base));
  store<u32>(spans + (<usize>(spanWords + 1) << 2), <u32>(end - base));
  spanWords += 2;
  if (bulkParentNoted) return;
  bulkParentNoted = true;
  const parentAt: isize = bulkParent == 0 ? -1 : <isize>keyStartAt(bulkParent - 1);
  if (parentAt == lastParentAt) return;
  lastParentAt = parentAt;
  if (parentWords + 1 + 2 * bulkParent > MAX_PARENT_WORDS) {
    overflow = true;
    return;
  }
  store<u32>(parents + (<usize>parentWords << 2), <u32>bulkParent);
  parentWords++;
  for (let d: i32 = 0; d < bulkParent; d++) {
    store<u32>(parents + (<usize>parentWords << 2), <u32>(keyStartAt(d) - base));
    store<u32>(parents + (<usize>(parentWords + 1) << 2), <u32>(keyEndAt(d) - base));
    parentWords += 2;
  }
  parentCount++;
}

/**
 * Whether the `length` bytes at `input()` are one JSON value in valid UTF-8: the number of spans
 * noted (their offsets at `spansAt()`, two words each), or -1.
 */
export function skim(length: i32): i32 {
  base = input();
  const end = base + <usize>length;
  spanWords = 0;
  parentWords = 0;
  parentCount = 0;
  bulkParent = -1;
  bulkParentNoted = false;
  lastParentAt = -2;
  overflow = false;
  const ok = walk(base, end);
  return ok && !overflow ? spanWords >> 1 : -1;
}

function walk(start: usize, end: usize): bool {
  let depth: i32 = 0;
  let i = skipSpace(start, end);
  let expectValue = true;
  let expectKey = false;
  let nextRole: u8 = ROOT | CALL | KEYED;
  while (true) {
    if (expectValue) {
      if (i >= end) return false;
      const c = load<u8>(i);
      if (expectKey) {
        if (c != QUOTE) return false;
        const keyStart = i;
        i = skipString(i, end);
        if (i == 0) return false;
        store<u32>(keyStarts + (<usize>(depth - 1) << 2), <u32>keyStart);
        store<u32>(keyEnds + (<usize>(depth - 1) << 2), <u32>i);
        i = skipSpace(i, end);
        if (i >= end || load<u8>(i) != COLON) return false;
        i = skipSpace(i + 1, end);
        expectKey = false;
        nextRole = roleOfValue(depth, keyStart, i, end);
        continue;
      }
      if (nextRole & WHOLE) {
        const after = valueEnd(i, end);
        if (after == 0) return false;
        if (<isize>(after - i) >= MIN_ELIDED_BYTES) {
          enterBulk(depth - 1);
          noteSpan(i, after);
          leaveBulk(depth);
        }
        i = after;
        expectValue = false;
        continue;
      }
      if (c == OPEN_OBJECT || c == OPEN_ARRAY) {
        const role = nextRole;
        if (role & BULK && bulkParent < 0) enterBulk(depth - 1);
        i = skipSpace(i + 1, end);
        const close: u8 = c == OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
        if (i < end && load<u8>(i) == close) {
          i++;
          expectValue = false;
          if (role & BULK) leaveBulk(depth);
        } else {
          if (depth >= MAX_DEPTH) {
            overflow = true;
            return false;
          }
          store<u8>(roles + <usize>depth, role);
          store<u8>(isObject + <usize>depth, c == OPEN_OBJECT ? 1 : 0);
          depth++;
          expectKey = c == OPEN_OBJECT;
          nextRole = c == OPEN_ARRAY && role & BULK ? BULK : 0;
        }
      } else {
        const tokenStart = i;
        i = skipScalar(i, end);
        if (i == 0) return false;
        if (nextRole & BULK) {
          const own = !(depth > 0 && load<u8>(roles + <usize>(depth - 1)) & BULK);
          if (c == QUOTE && <isize>(i - tokenStart) >= MIN_ELIDED_BYTES && (own || !keptInBulk(depth))) {
            if (own) enterBulk(depth - 1);
            noteSpan(tokenStart, i);
          }
          if (own) leaveBulk(depth);
        }
        expectValue = false;
      }
    } else {
      i = skipSpace(i, end);
      if (depth == 0) return i == end;
      if (i >= end) return false;
      const d = load<u8>(i);
      const inObject = load<u8>(isObject + <usize>(depth - 1)) == 1;
      if (d == COMMA) {
        i = skipSpace(i + 1, end);
        expectValue = true;
        expectKey = inObject;
        nextRole = !inObject && load<u8>(roles + <usize>(depth - 1)) & BULK ? BULK : 0;
      } else if ((d == CLOSE_OBJECT && inObject) || (d == CLOSE_ARRAY && !inObject)) {
        i++;
        depth--;
        if (load<u8>(roles + <usize>depth) & BULK) leaveBulk(depth);
      } else {
        return false;
      }
      continue;
    }
    i = skipSpace(i, end);
  }
}
