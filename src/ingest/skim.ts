// A light read's line skimmer. Most bytes of a session are tool output a light read never keeps
// (a tool call's `content` and `rawOutput`, a ledger result): decoding them to strings and parsing
// them is what costs. The skimmer walks a line's bytes once, checks that they are one JSON value
// (so a line that is not JSON is still a bad line, CONTRACTS §2), and finds the long strings inside
// those fields. The caller parses the line with each of them replaced by `""`: the same objects,
// arrays and short strings (block types, terminal ids, how many blocks), without the bulk. A
// `rawOutput` or a ledger result, of which a light read keeps only that it is there, is checked
// and replaced whole.
//
// Which fields are bulk is decided on the bytes, before the line is classified: a `content` array
// or a `rawOutput` of an object that may be a tool call (the line's root, or the value of an
// `update` or `toolCall` key), and the `result` of a ledger line's `data`. The caller confirms
// after classifying that each such object was read as a tool-call update (or a ledger result),
// and parses the whole line otherwise (`parents` says which objects to check).

import {
  BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, FALSE, jsonValueEnd, MINUS, NULL, OPEN_ARRAY, OPEN_OBJECT, QUOTE, skipEscape, skipNumber, skipString, skipWord,
  isSpace, STRING_STOP, TRUE,
} from './jsonBytes';

/** String tokens shorter than this (quotes included) are parsed as they are: not worth a splice. */
export const MIN_ELIDED_BYTES = 96;

// Roles of a container, as bits.
/** The line's root object. */
const ROOT = 1;
/** An object that may be a tool-call update: its `content` and `rawOutput` are bulk. */
const CALL = 2;
/** A ledger line's `data`: its `result` is bulk. */
const LEDGER_DATA = 4;
/** Inside a bulk field: long strings are left out. */
const BULK = 8;
/** Reached from the root through object keys only, so the caller can find it again by its path. */
const KEYED = 16;
/** A bulk field left out whole (`rawOutput`, a ledger result): a light read keeps only that it is there. */
const WHOLE = 32;

const keyBytes = (key: string) => Uint8Array.from(`"${key}"`, (c) => c.charCodeAt(0));
const CONTENT = keyBytes('content');
const RAW_OUTPUT = keyBytes('rawOutput');
const RESULT = keyBytes('result');
const UPDATE = keyBytes('update');
const TOOL_CALL = keyBytes('toolCall');
const DATA = keyBytes('data');
// Kept even inside the bulk: a terminal block's id is what a light call keeps of its content.
const TERMINAL_ID = keyBytes('terminalId');
const TYPE = keyBytes('type');

function keyIs(b: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[start + k] !== key[k]) return false;
  return true;
}

const keyDecoder = new TextDecoder();
/** The keys on the way to a tool call in every envelope, decoded once. */
const COMMON_KEYS = ['params', 'update', 'msg', 'message', 'toolCall', 'data'].map((key) => [keyBytes(key), key] as const);

/** A key token's name: decoded only when it is not one of the common ones. */
export function keyName(b: Uint8Array, start: number, end: number): string {
  for (const [bytes, key] of COMMON_KEYS) if (keyIs(b, start, end, bytes)) return key;
  return JSON.parse(keyDecoder.decode(b.subarray(start, end))) as string;
}

/** What a light read asks of a skimmer (a WebAssembly one was measured: branch `experiment/wasm-skimmer`, README). */
export interface Skimmer {
  /** The string tokens left out, as `[start, end)` pairs of byte offsets (quotes included). */
  readonly spans: number[];
  /** For each bulk field with a token left out: the keys from the root to the object holding it. */
  readonly parents: string[][];
  /**
   * Whether `bytes[start, end)` is exactly one JSON value, noting in `spans` the long strings of
   * its bulk fields. When it returns false, `spans` means nothing.
   */
  skim(b: Uint8Array, start: number, end: number): boolean;
}

export class LineSkimmer implements Skimmer {
  /** The string tokens left out, as `[start, end)` pairs of byte offsets (quotes included). */
  readonly spans: number[] = [];
  /** For each bulk field with a token left out: the keys from the root to the object holding it. */
  readonly parents: string[][] = [];
  private roles = new Uint8Array(32);
  private isObject = new Uint8Array(32);
  private keyStarts = new Int32Array(32);
  private keyEnds = new Int32Array(32);
  /** Depth of the object holding the bulk field being read, or -1; and whether it is in `parents`. */
  private bulkParent = -1;
  private bulkParentNoted = false;
  /** Where the object last put in `parents` starts its key (-1: the root), so it goes in once. */
  private lastParentAt = -2;
  private wordsOf: Uint8Array | null = null;
  private words: Int32Array = new Int32Array(0);
  private firstWord = 0;

  /**
   * Whether `bytes[start, end)` is exactly one JSON value (as `isJsonBytes`), noting in `spans`
   * the long strings of its bulk fields. When it returns false, `spans` means nothing.
   */
  skim(b: Uint8Array, start: number, end: number): boolean {
    this.spans.length = 0;
    this.parents.length = 0;
    this.bulkParent = -1;
    this.lastParentAt = -2;
    if (b !== this.wordsOf) {
      // The bytes four at a time, from the first 4-aligned one, for `skipBulkString`; made once
      // for all the lines of a chunk.
      this.wordsOf = b;
      this.firstWord = (4 - (b.byteOffset & 3)) & 3;
      this.words = b.length < 8 ? new Int32Array(0) : new Int32Array(b.buffer, b.byteOffset + this.firstWord, (b.length - this.firstWord) >> 2);
    }
    const { words, firstWord } = this;
    let depth = 0;
    let i = start;
    let expectValue = true;
    let expectKey = false;
    // The role the next value gets if it is a container (set from the key it is the value of).
    let nextRole = ROOT | CALL | KEYED;
    while (i < end && isSpace(b[i]!)) i++;
    for (;;) {
      if (expectValue) {
        if (i >= end) return false;
        const c = b[i]!;
        if (expectKey) {
          if (c !== QUOTE) return false;
          const keyStart = i;
          i = skipString(b, i, end);
          if (i < 0) return false;
          this.keyStarts[depth - 1] = keyStart;
          this.keyEnds[depth - 1] = i;
          while (i < end && isSpace(b[i]!)) i++;
          if (b[i] !== COLON) return false;
          i++;
          while (i < end && isSpace(b[i]!)) i++;
          expectKey = false;
          nextRole = this.roleOfValue(b, depth, keyStart, i);
          continue;
        }
        if (nextRole & WHOLE) {
          // Checked as JSON and left out in one span: none of it is read.
          const valueEnd = jsonValueEnd(b, i, end);
          if (valueEnd < 0) return false;
          if (valueEnd - i >= MIN_ELIDED_BYTES) {
            this.enterBulk(depth - 1);
            this.noteSpan(b, i, valueEnd);
            this.leaveBulk(depth);
          }
          i = valueEnd;
          expectValue = false;
          continue;
        }
        if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          const role = nextRole;
          if (role & BULK && this.bulkParent < 0) this.enterBulk(depth - 1);
          i++;
          while (i < end && isSpace(b[i]!)) i++;
          const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
          if (b[i] === close) {
            i++;
            expectValue = false;
            if (role & BULK) this.leaveBulk(depth);
          } else {
            this.push(depth, role, c === OPEN_OBJECT);
            depth++;
            expectKey = c === OPEN_OBJECT;
            // Elements of an array: bulk inside the bulk, nothing otherwise.
            nextRole = c === OPEN_ARRAY && role & BULK ? BULK : 0;
          }
        } else {
          const tokenStart = i;
          if (c === QUOTE) i = nextRole & BULK ? skipBulkString(b, words, firstWord, i, end) : skipString(b, i, end);
          else if (c === MINUS || (c >= 0x30 && c <= 0x39)) i = skipNumber(b, i, end);
          else if (c === 0x74) i = skipWord(b, i, end, TRUE);
          else if (c === 0x66) i = skipWord(b, i, end, FALSE);
          else if (c === 0x6e) i = skipWord(b, i, end, NULL);
          else return false;
          if (i < 0) return false;
          if (nextRole & BULK) {
            // A bulk field that is itself a string (`rawOutput`, `result`), or a string inside one.
            const own = !(depth > 0 && this.roles[depth - 1]! & BULK);
            if (c === QUOTE && i - tokenStart >= MIN_ELIDED_BYTES && (own || !this.keptInBulk(b, depth))) {
              if (own) this.enterBulk(depth - 1);
              this.noteSpan(b, tokenStart, i);
            }
            if (own) this.leaveBulk(depth);
          }
          expectValue = false;
        }
      } else {
        while (i < end && isSpace(b[i]!)) i++;
        if (depth === 0) return i === end;
        if (i >= end) return false;
        const d = b[i]!;
        const inObject = this.isObject[depth - 1] === 1;
        if (d === COMMA) {
          i++;
          while (i < end && isSpace(b[i]!)) i++;
          expectValue = true;
          expectKey = inObject;
          nextRole = !inObject && this.roles[depth - 1]! & BULK ? BULK : 0;
        } else if ((d === CLOSE_OBJECT && inObject) || (d === CLOSE_ARRAY && !inObject)) {
          i++;
          depth--;
          if (this.roles[depth]! & BULK) this.leaveBulk(depth);
        } else {
          return false;
        }
        continue;
      }
      while (i < end && isSpace(b[i]!)) i++;
    }
  }

  /** The role of the value after key `[keyStart, …)` in the object at `depth - 1`. */
  private roleOfValue(b: Uint8Array, depth: number, keyStart: number, valueAt: number): number {
    const parent = this.roles[depth - 1]!;
    if (parent & BULK) return BULK;
    if (!(parent & KEYED)) return 0;
    const keyEnd = this.keyEnds[depth - 1]!;
    const value = b[valueAt];
    if (parent & CALL) {
      if (keyIs(b, keyStart, keyEnd, CONTENT)) return value === OPEN_ARRAY ? BULK : 0;
      if (keyIs(b, keyStart, keyEnd, RAW_OUTPUT)) return BULK | WHOLE;
    }
    if (parent & LEDGER_DATA && keyIs(b, keyStart, keyEnd, RESULT)) return BULK | WHOLE;
    if (value !== OPEN_OBJECT) return 0;
    if (keyIs(b, keyStart, keyEnd, UPDATE) || keyIs(b, keyStart, keyEnd, TOOL_CALL)) return CALL | KEYED;
    if (parent & ROOT && keyIs(b, keyStart, keyEnd, DATA)) return LEDGER_DATA | KEYED;
    return KEYED;
  }

  private isKey(b: Uint8Array, depth: number, key: Uint8Array): boolean {
    return depth > 0 && keyIs(b, this.keyStarts[depth - 1]!, this.keyEnds[depth - 1]!, key);
  }

  /** A string inside the bulk that is kept: what a terminal block or an unknown block is told by. */
  private keptInBulk(b: Uint8Array, depth: number): boolean {
    return this.isObject[depth - 1] === 1 && (this.isKey(b, depth, TERMINAL_ID) || this.isKey(b, depth, TYPE));
  }

  private push(depth: number, role: number, isObject: boolean): void {
    if (depth >= this.roles.length) {
      const grow = <T extends Uint8Array | Int32Array>(from: T, to: T): T => (to.set(from), to);
      const size = this.roles.length * 2;
      this.roles = grow(this.roles, new Uint8Array(size));
      this.isObject = grow(this.isObject, new Uint8Array(size));
      this.keyStarts = grow(this.keyStarts, new Int32Array(size));
      this.keyEnds = grow(this.keyEnds, new Int32Array(size));
    }
    this.roles[depth] = role;
    this.isObject[depth] = isObject ? 1 : 0;
  }

  private enterBulk(parentDepth: number): void {
    this.bulkParent = parentDepth;
    this.bulkParentNoted = false;
  }

  /** Called as a value at `depth` ends: the bulk field ends with its own value. */
  private leaveBulk(depth: number): void {
    if (depth === this.bulkParent + 1) this.bulkParent = -1;
  }

  private noteSpan(b: Uint8Array, start: number, end: number): void {
    this.spans.push(start, end);
    if (this.bulkParentNoted) return;
    this.bulkParentNoted = true;
    const parentAt = this.bulkParent === 0 ? -1 : this.keyStarts[this.bulkParent - 1]!;
    if (parentAt === this.lastParentAt) return;
    this.lastParentAt = parentAt;
    const path: string[] = [];
    for (let d = 0; d < this.bulkParent; d++) path.push(keyName(b, this.keyStarts[d]!, this.keyEnds[d]!));
    this.parents.push(path);
  }
}

/**
 * The line's bytes with each span replaced by `""`, decoded: the text a light read parses.
 * `scratch` is reused between lines (grown when a line needs more).
 */
export function splicedText(
  b: Uint8Array, start: number, end: number, spans: readonly number[], decoder: TextDecoder, scratch: { buffer: Uint8Array },
): string {
  let room = scratch.buffer;
  if (room.length < end - start) room = scratch.buffer = new Uint8Array(Math.max(end - start, room.length * 2));
  let at = 0;
  let from = start;
  for (let k = 0; k < spans.length; k += 2) {
    const spanStart = spans[k]!;
    room.set(b.subarray(from, spanStart), at);
    at += spanStart - from;
    room[at++] = QUOTE;
    room[at++] = QUOTE;
    from = spans[k + 1]!;
  }
  room.set(b.subarray(from, end), at);
  at += end - from;
  return decoder.decode(room.subarray(0, at));
}

const HIGH_BITS = 0x80808080 | 0;

/**
 * `skipString` for long strings: whole 4-byte words with no quote, backslash or control byte are
 * passed in one step (a word holds one of them when `x - 0x01010101 & ~x & 0x80808080` is non-zero
 * for `x` the word XOR that byte repeated, or below 0x20 for the control bytes).
 */
function skipBulkString(b: Uint8Array, words: Int32Array, firstWord: number, at: number, end: number): number {
  let i = at + 1;
  const lastWord = Math.min(words.length, (end - firstWord) >> 2);
  while (i < end) {
    if (((i - firstWord) & 3) === 0) {
      let k = (i - firstWord) >> 2;
      while (k < lastWord) {
        const w = words[k]!;
        const quote = w ^ 0x22222222;
        const backslash = w ^ 0x5c5c5c5c;
        if (((((w - 0x20202020) | 0) & ~w) | (((quote - 0x01010101) | 0) & ~quote) | (((backslash - 0x01010101) | 0) & ~backslash)) & HIGH_BITS) break;
        k++;
      }
      i = firstWord + (k << 2);
      if (i >= end) return -1;
    }
    const c = b[i]!;
    if (STRING_STOP[c] === 0) {
      i++;
      continue;
    }
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) return -1;
    i = skipEscape(b, i, end);
    if (i < 0) return -1;
  }
  return -1;
}
