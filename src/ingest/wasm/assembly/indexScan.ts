// The index's pass over a Claude Code log (`loupe index`; README.md in the folder above): splits a
// window of a file's bytes into lines, checks each line is one JSON value in valid UTF-8, and notes
// for each line where a few top-level values are, and the values inside `message`,
// `toolUseResult` and `data` that the fold reads (message.id, usage counts, each content block's
// fields in a block table, whether a result's content array holds a text block), so that no
// `message` need be parsed whole. cli/claudeCodeScanRead.ts reads the tables.
//
// Memory: [line table | block table | input + padding]. The caller writes the file at `input()`
// (after `reserve`) and calls `scan(from, length)` until it returns 0 lines; each call fills both
// tables from their start and leaves where the next call begins in `resumeAt()`.

const QUOTE: u8 = 0x22;
const BACKSLASH: u8 = 0x5c;
const OPEN_OBJECT: u8 = 0x7b;
const CLOSE_OBJECT: u8 = 0x7d;
const OPEN_ARRAY: u8 = 0x5b;
const CLOSE_ARRAY: u8 = 0x5d;
const COMMA: u8 = 0x2c;
const COLON: u8 = 0x3a;
const MINUS: u8 = 0x2d;
const NEWLINE: u8 = 0x0a;

// Fields, in table order.
const F_TYPE: i32 = 0;
const F_UUID: i32 = 1;
const F_TIMESTAMP: i32 = 2;
const F_SESSION_ID: i32 = 3;
const F_IS_SIDECHAIN: i32 = 4;
const F_AGENT_ID: i32 = 5;
const F_MESSAGE: i32 = 6;
const F_TOOL_USE_RESULT: i32 = 7;
const F_DATA: i32 = 8;
// Picked inside `message` (an object): its `id`, `usage` and `content`, and `usage`'s four counts.
const M_ID: i32 = 9;
const M_USAGE: i32 = 10;
const M_CONTENT: i32 = 11;
const U_INPUT: i32 = 12;
const U_OUTPUT: i32 = 13;
const U_CACHE_CREATION: i32 = 14;
const U_CACHE_READ: i32 = 15;
// Picked inside `toolUseResult` (an object): what exitCodeInOutput and subagentOf read.
const R_EXIT_CODE: i32 = 16;
const R_EXITCODE: i32 = 17;
const R_CODE: i32 = 18;
const R_AGENT_ID: i32 = 19;
const R_METADATA: i32 = 20;
const R_META_EXIT_CODE: i32 = 21;
// Picked inside `data` (an object): the sub-agent a progress entry names (subagentOf).
const D_AGENT_ID: i32 = 22;
const FIELDS: i32 = 23;

// Per line: start, end (newline excluded), flags, then [start, end) of each field (0, 0: absent),
// then the line's first row in the block table and how many rows it has there, then its `uuid`
// packed (model/fold/entryIds.ts): a hash (0: not packed) and the 16 bytes of its 32 hex digits.
const WORDS_PER_LINE: i32 = 3 + 2 * FIELDS + 2 + 5;
const FIRST_BLOCK_WORD: i32 = 3 + 2 * FIELDS;
const UUID_WORD: i32 = FIRST_BLOCK_WORD + 2;
const TABLE_LINES: i32 = 1 << 14;

// Each object of an array `message.content`: a row of the block table.
const B_TYPE: i32 = 0;
const B_TEXT: i32 = 1;
const B_THINKING: i32 = 2;
const B_ID: i32 = 3;
const B_NAME: i32 = 4;
const B_INPUT: i32 = 5;
const B_TOOL_USE_ID: i32 = 6;
const B_IS_ERROR: i32 = 7;
const B_CONTENT: i32 = 8;
const BLOCK_FIELDS: i32 = 9;
// Per block: line (index in this call's table), flags, then [start, end) of each field.
const WORDS_PER_BLOCK: i32 = 2 + 2 * BLOCK_FIELDS;
const TABLE_BLOCKS: i32 = 1 << 15;
/** More blocks in one message: the JS path (keeps a table's worth of lines from overflowing it). */
const MAX_BLOCKS_PER_LINE: i32 = 512;
// A block's flags: its kind (low 4 bits), then a bit per field for "plain" (as a line's), and one
// for "no escape" (its UTF-8 slice is its text).
const K_OTHER: i32 = 0;
const K_TEXT: i32 = 1;
const K_THINKING: i32 = 2;
const K_TOOL_USE: i32 = 3;
const K_TOOL_RESULT: i32 = 4;
const BLOCK_PLAIN_SHIFT: u32 = 4;
const BLOCK_NO_ESCAPE_SHIFT: u32 = 16;
/**
 * A block's `content` is an array this pass read for what a light read keeps of a result's
 * content (walkResultContent): whether it holds a text block, an object whose `type` is "text" and
 * whose `text` is a string (BLOCK_CONTENT_TEXT). Not set where that is not sure from the bytes (a
 * key escaped or given twice in an element): the caller parses the content.
 */
const BLOCK_CONTENT_READ: u32 = 1 << 28;
const BLOCK_CONTENT_TEXT: u32 = 1 << 29;

// Which object's keys are picked.
const O_MESSAGE: i32 = 0;
const O_USAGE: i32 = 1;
const O_BLOCK: i32 = 2;
const O_RESULT: i32 = 3;
const O_METADATA: i32 = 4;
const O_DATA: i32 = 5;

/** One JSON value in valid UTF-8, no bail-out: the spans can be trusted. */
const OK: u32 = 1;
/** Valid, but beyond this pass (an escaped top-level key, a field twice, nesting > MAX_DEPTH). */
const JS_PATH: u32 = 2;
/** Not one JSON value, or not valid UTF-8: the caller reads it as it does today. */
const INVALID: u32 = 4;
/** Only spaces. */
const BLANK: u32 = 8;
/** `sessionId`'s bytes are the previous line's (the caller may reuse its string). */
const SAME_SESSION: u32 = 16;
/**
 * `message.usage` has a key not picked whose value is a number, or a `cost`: what readUsage
 * reads besides the picked counts, so the caller parses the usage whole.
 */
const USAGE_WHOLE: u32 = 32;
/** The line's `isMeta` is `true` / `false` (any other value of it: the JS path). */
const META_TRUE: u32 = 64;
const META_FALSE: u32 = 128;
/** Bit 8 + field: that field is a string with no escape and no byte >= 0x80 (latin1 = its text). */
const PLAIN_SHIFT: u32 = 8;

const MAX_DEPTH: i32 = 64;
const PADDING: usize = 64;

const table = memory.data(TABLE_LINES * WORDS_PER_LINE * 4);
const blocks = memory.data(TABLE_BLOCKS * WORDS_PER_BLOCK * 4);

let inputAt: usize = 0;
let resume: i32 = 0;
/** Set by skipString when a string held an escape or a non-ASCII byte. */
let stringNotPlain = false;
/** Set by skipString when a string held an escape. */
let stringHasEscape = false;
let prevSessionStart: usize = 0;
let prevSessionEnd: usize = 0;

export function input(): usize {
  if (inputAt == 0) inputAt = (__heap_base + 15) & ~15;
  return inputAt;
}

export function tableAt(): usize {
  return table;
}

export function wordsPerLine(): i32 {
  return WORDS_PER_LINE;
}

export function blocksAt(): usize {
  return blocks;
}

export function wordsPerBlock(): i32 {
  return WORDS_PER_BLOCK;
}

export function resumeAt(): i32 {
  return resume;
}

/** Makes room for `length` bytes at `input()`; false when memory cannot grow. */
export function reserve(length: i32): bool {
  const need = input() + <usize>length + PADDING;
  const have = <usize>memory.size() << 16;
  if (need > have && memory.grow(<i32>((need - have + 0xffff) >> 16)) < 0) return false;
  memory.fill(input() + <usize>length, 0, PADDING);
  return true;
}

// A newline is not a space here: a line's value may not cross one.
@inline function isSpace(c: u8): bool {
  return c <= 0x20 && (c == 0x20 || c == 0x0d || c == 0x09);
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
  if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return 0;
  return at + n + 1;
}

/** End of the string whose quote is at `at`, or 0; a raw newline (a control byte) ends it as invalid. */
@inline function skipString(at: usize, end: usize): usize {
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
    stringNotPlain = true;
    if (c == BACKSLASH) {
      stringHasEscape = true;
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

function skipWord(at: usize, end: usize): usize {
  const c = load<u8>(at);
  if (c == 0x74) return at + 4 <= end && load<u32>(at) == 0x65757274 ? at + 4 : 0;
  if (c == 0x6e) return at + 4 <= end && load<u32>(at) == 0x6c6c756e ? at + 4 : 0;
  if (c == 0x66) return at + 5 <= end && load<u32>(at + 1) == 0x65736c61 ? at + 5 : 0;
  return 0;
}

@inline function skipScalar(at: usize, end: usize): usize {
  const c = load<u8>(at);
  if (c == QUOTE) return skipString(at, end);
  if (c == MINUS || isDigit(c)) return skipNumber(at, end);
  return skipWord(at, end);
}

/** Which field the key [start, end) (quotes included, no escape) names, or -1. */
function fieldOf(start: usize, end: usize): i32 {
  const n = end - start - 2;
  const k = start + 1;
  switch (<i32>n) {
    case 4: // type, uuid, data
      if (load<u32>(k) == 0x65707974) return F_TYPE;
      if (load<u32>(k) == 0x64697575) return F_UUID;
      if (load<u32>(k) == 0x61746164) return F_DATA;
      return -1;
    case 7: // message, agentId
      if (load<u32>(k) == 0x7373656d && load<u32>(k + 3) == 0x65676173) return F_MESSAGE;
      if (load<u32>(k) == 0x6e656761 && load<u32>(k + 3) == 0x6449746e) return F_AGENT_ID;
      return -1;
    case 9: // timestamp, sessionId
      if (load<u64>(k) == 0x6d617473656d6974 && load<u8>(k + 8) == 0x70) return F_TIMESTAMP;
      if (load<u64>(k) == 0x496e6f6973736573 && load<u8>(k + 8) == 0x64) return F_SESSION_ID;
      return -1;
    case 11: // isSidechain
      if (load<u64>(k) == 0x6863656469537369 && load<u32>(k + 7) == 0x6e696168) return F_IS_SIDECHAIN;
      return -1;
    case 13: // toolUseResult
      if (load<u64>(k) == 0x526573556c6f6f74 && load<u64>(k + 5) == 0x746c757365526573) return F_TOOL_USE_RESULT;
      return -1;
  }
  return -1;
}

@inline function keyIs(k: usize, n: usize, name: string): bool {
  if (<i32>n != name.length) return false;
  for (let j = 0; j < name.length; j++) if (<i32>load<u8>(k + <usize>j) != name.charCodeAt(j)) return false;
  return true;
}

/**
 * A top-level key the fold's fast path leaves to JS (claudeCodeScanRead.ts): one that ClaudeEntryKeys
 * refuses a line for or reads besides the picked fields (`leafUuid`), whatever its value.
 */
function foreignKey(k: usize, n: usize): bool {
  switch (<i32>n) {
    case 1: return keyIs(k, n, 'v');
    case 2: return keyIs(k, n, 'id');
    case 3: return keyIs(k, n, 'dir') || keyIs(k, n, 'msg') || keyIs(k, n, 'seq');
    case 4: return keyIs(k, n, '$set');
    case 6: return keyIs(k, n, 'method') || keyIs(k, n, 'update');
    case 7: return keyIs(k, n, 'jsonrpc') || keyIs(k, n, 'payload');
    case 8: return keyIs(k, n, 'leafUuid');
    case 9: return keyIs(k, n, 'direction') || keyIs(k, n, '$rewindTo');
    case 10: return keyIs(k, n, '_direction') || keyIs(k, n, 'session_id') || keyIs(k, n, 'provenance');
    case 13: return keyIs(k, n, 'sessionUpdate') || keyIs(k, n, 'systemPayload') || keyIs(k, n, 'usageMetadata');
    case 14: return keyIs(k, n, 'toolCallResult');
  }
  return false;
}

let lineFlags: u32 = 0;
let row: usize = 0;
let lineIndex: i32 = 0;
let blockCount: i32 = 0;
let lineBlocks: i32 = 0;
let blockRow: usize = 0;

@inline function noteField(field: i32, start: usize, end: usize, plain: bool): void {
  const at = row + 12 + (<usize>field << 3);
  if (load<u32>(at + 4) != 0) lineFlags |= JS_PATH; // twice: JSON.parse keeps the last one
  store<u32>(at, <u32>(start - inputAt));
  store<u32>(at + 4, <u32>(end - inputAt));
  if (plain) lineFlags |= 1 << (PLAIN_SHIFT + <u32>field);
}

function messageKey(k: usize, n: usize): i32 {
  switch (<i32>n) {
    case 2: // id
      if (load<u16>(k + 0) == 0x6469) return M_ID;
      return -1;
    case 5: // usage
      if (load<u32>(k + 0) == 0x67617375 && load<u32>(k + 1) == 0x65676173) return M_USAGE;
      // Qwen Code's `parts` (Gemini's content): ClaudeEntryKeys' reading, not the fast path's.
      if (keyIs(k, n, 'parts')) lineFlags |= JS_PATH;
      return -1;
    case 7: // content
      if (load<u32>(k + 0) == 0x746e6f63 && load<u32>(k + 3) == 0x746e6574) return M_CONTENT;
      return -1;
  }
  return -1;
}

function usageKey(k: usize, n: usize): i32 {
  switch (<i32>n) {
    case 12: // input_tokens
      if (load<u64>(k + 0) == 0x6f745f7475706e69 && load<u64>(k + 4) == 0x736e656b6f745f74) return U_INPUT;
      return -1;
    case 13: // output_tokens
      if (load<u64>(k + 0) == 0x745f74757074756f && load<u64>(k + 5) == 0x736e656b6f745f74) return U_OUTPUT;
      return -1;
    case 23: // cache_read_input_tokens
      if (load<u64>(k + 0) == 0x65725f6568636163 && load<u64>(k + 8) == 0x7475706e695f6461 && load<u64>(k + 15) == 0x736e656b6f745f74) return U_CACHE_READ;
      return -1;
    case 27: // cache_creation_input_tokens
      if (load<u64>(k + 0) == 0x72635f6568636163 && load<u64>(k + 8) == 0x695f6e6f69746165 && load<u64>(k + 16) == 0x6b6f745f7475706e && load<u64>(k + 19) == 0x736e656b6f745f74) return U_CACHE_CREATION;
      return -1;
  }
  return -1;
}

function blockKey(k: usize, n: usize): i32 {
  switch (<i32>n) {
    case 2: // id
      if (load<u16>(k + 0) == 0x6469) return B_ID;
      return -1;
    case 4: // type, text, name
      if (load<u32>(k + 0) == 0x65707974) return B_TYPE;
      if (load<u32>(k + 0) == 0x74786574) return B_TEXT;
      if (load<u32>(k + 0) == 0x656d616e) return B_NAME;
      return -1;
    case 5: // input
      if (load<u32>(k + 0) == 0x75706e69 && load<u32>(k + 1) == 0x7475706e) return B_INPUT;
      return -1;
    case 7: // content
      if (load<u32>(k + 0) == 0x746e6f63 && load<u32>(k + 3) == 0x746e6574) return B_CONTENT;
      return -1;
    case 8: // thinking, is_error
      if (load<u64>(k + 0) == 0x676e696b6e696874) return B_THINKING;
      if (load<u64>(k + 0) == 0x726f7272655f7369) return B_IS_ERROR;
      return -1;
    case 11: // tool_use_id
      if (load<u64>(k + 0) == 0x6573755f6c6f6f74 && load<u64>(k + 3) == 0x64695f6573755f6c) return B_TOOL_USE_ID;
      return -1;
  }
  return -1;
}

function resultKey(k: usize, n: usize): i32 {
  switch (<i32>n) {
    case 4: // code
      if (load<u32>(k + 0) == 0x65646f63) return R_CODE;
      return -1;
    case 7: // agentId
      if (load<u32>(k + 0) == 0x6e656761 && load<u32>(k + 3) == 0x6449746e) return R_AGENT_ID;
      return -1;
    case 8: // exitCode, metadata
      if (load<u64>(k + 0) == 0x65646f4374697865) return R_EXITCODE;
      if (load<u64>(k + 0) == 0x617461646174656d) return R_METADATA;
      return -1;
    case 9: // exit_code
      if (load<u64>(k + 0) == 0x646f635f74697865 && load<u64>(k + 1) == 0x65646f635f746978) return R_EXIT_CODE;
      return -1;
  }
  return -1;
}

function metadataKey(k: usize, n: usize): i32 {
  switch (<i32>n) {
    case 9: // exit_code
      if (load<u64>(k + 0) == 0x646f635f74697865 && load<u64>(k + 1) == 0x65646f635f746978) return R_META_EXIT_CODE;
      return -1;
  }
  return -1;
}

function blockKindOf(k: usize, n: usize): i32 {
  switch (<i32>n) {
    case 4: // text
      if (load<u32>(k + 0) == 0x74786574) return K_TEXT;
      return -1;
    case 8: // thinking, tool_use
      if (load<u64>(k + 0) == 0x676e696b6e696874) return K_THINKING;
      if (load<u64>(k + 0) == 0x6573755f6c6f6f74) return K_TOOL_USE;
      return -1;
    case 11: // tool_result
      if (load<u64>(k + 0) == 0x7365725f6c6f6f74 && load<u64>(k + 3) == 0x746c757365725f6c) return K_TOOL_RESULT;
      return -1;
  }
  return -1;
}


@inline function noteBlockField(field: i32, start: usize, end: usize, plain: bool, noEscape: bool): void {
  const at = blockRow + 8 + (<usize>field << 3);
  if (load<u32>(at + 4) != 0) lineFlags |= JS_PATH;
  store<u32>(at, <u32>(start - inputAt));
  store<u32>(at + 4, <u32>(end - inputAt));
  let flags = load<u32>(blockRow + 4);
  if (plain) flags |= 1 << (BLOCK_PLAIN_SHIFT + <u32>field);
  if (noEscape) flags |= 1 << (BLOCK_NO_ESCAPE_SHIFT + <u32>field);
  store<u32>(blockRow + 4, flags);
}

/** An object whose keys of `kind` (O_*) are noted: in the line's row, or the block's. */
function walkPicked(at: usize, end: usize, depth: i32, kind: i32): usize {
  if (depth > MAX_DEPTH) {
    lineFlags |= JS_PATH;
    return 0;
  }
  let i = skipSpace(at + 1, end);
  if (i < end && load<u8>(i) == CLOSE_OBJECT) return i + 1;
  while (true) {
    if (i >= end || load<u8>(i) != QUOTE) return 0;
    const keyStart = i;
    stringNotPlain = false;
    i = skipString(i, end);
    if (i == 0) return 0;
    const keyEnd = i;
    let field: i32 = -1;
    if (stringNotPlain) {
      for (let k = keyStart; k < i; k++) if (load<u8>(k) == BACKSLASH) lineFlags |= JS_PATH;
    } else {
      const k = keyStart + 1;
      const n = i - keyStart - 2;
      if (kind == O_BLOCK) field = blockKey(k, n);
      else if (kind == O_MESSAGE) field = messageKey(k, n);
      else if (kind == O_USAGE) field = usageKey(k, n);
      else if (kind == O_RESULT) field = resultKey(k, n);
      else if (kind == O_METADATA) field = metadataKey(k, n);
      else field = keyIs(k, n, 'agentId') ? D_AGENT_ID : -1;
    }
    i = skipSpace(i, end);
    if (i >= end || load<u8>(i) != COLON) return 0;
    i = skipSpace(i + 1, end);
    if (i >= end) return 0;
    const valueStart = i;
    stringNotPlain = false;
    stringHasEscape = false;
    const c = load<u8>(i);
    if (c == QUOTE) i = skipString(i, end);
    else if (c == OPEN_OBJECT && kind == O_MESSAGE && field == M_USAGE) i = walkPicked(i, end, depth + 1, O_USAGE);
    else if (c == OPEN_OBJECT && kind == O_RESULT && field == R_METADATA) i = walkPicked(i, end, depth + 1, O_METADATA);
    else if (c == OPEN_ARRAY && kind == O_MESSAGE && field == M_CONTENT) i = walkContent(i, end, depth + 1);
    else if (c == OPEN_ARRAY && kind == O_BLOCK && field == B_CONTENT) i = walkResultContent(i, end, depth + 1);
    else i = skipValue(i, end, depth);
    if (i == 0) return 0;
    if (field < 0 && kind == O_USAGE && (c == MINUS || isDigit(c) || keyIs(keyStart + 1, keyEnd - keyStart - 2, 'cost'))) lineFlags |= USAGE_WHOLE;
    if (field >= 0) {
      const plain = c == QUOTE && !stringNotPlain;
      if (kind == O_BLOCK) noteBlockField(field, valueStart, i, plain, c == QUOTE && !stringHasEscape);
      else noteField(field, valueStart, i, plain);
    }
    i = skipSpace(i, end);
    if (i >= end) return 0;
    const d = load<u8>(i);
    if (d == COMMA) {
      i = skipSpace(i + 1, end);
      continue;
    }
    return d == CLOSE_OBJECT ? i + 1 : 0;
  }
}

/** `message.content` as an array: each object a block row. */
function walkContent(at: usize, end: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) {
    lineFlags |= JS_PATH;
    return 0;
  }
  let i = skipSpace(at + 1, end);
  if (i < end && load<u8>(i) == CLOSE_ARRAY) return i + 1;
  while (true) {
    if (i >= end) return 0;
    if (load<u8>(i) == OPEN_OBJECT && lineBlocks < MAX_BLOCKS_PER_LINE) {
      blockRow = blocks + (<usize>(blockCount * WORDS_PER_BLOCK) << 2);
      memory.fill(blockRow, 0, <usize>WORDS_PER_BLOCK << 2);
      store<u32>(blockRow, <u32>lineIndex);
      blockCount++;
      lineBlocks++;
      i = walkPicked(i, end, depth + 1, O_BLOCK);
      if (i == 0) return 0;
      const flags = load<u32>(blockRow + 4);
      const typeEnd = <usize>load<u32>(blockRow + 12);
      let blockKind = K_OTHER;
      if (typeEnd != 0) {
        const typeStart = <usize>load<u32>(blockRow + 8) + inputAt;
        // An escape could spell a kind's name.
        if (flags & (1 << (BLOCK_PLAIN_SHIFT + <u32>B_TYPE))) blockKind = max(blockKindOf(typeStart + 1, typeEnd + inputAt - typeStart - 2), K_OTHER);
        else if (!(flags & (1 << (BLOCK_NO_ESCAPE_SHIFT + <u32>B_TYPE))) && load<u8>(typeStart) == QUOTE) lineFlags |= JS_PATH;
      }
      store<u32>(blockRow + 4, flags | <u32>blockKind);
    } else {
      if (load<u8>(i) == OPEN_OBJECT) lineFlags |= JS_PATH;
      i = skipValue(i, end, depth);
      if (i == 0) return 0;
    }
    i = skipSpace(i, end);
    if (i >= end) return 0;
    const d = load<u8>(i);
    if (d == COMMA) {
      i = skipSpace(i + 1, end);
      continue;
    }
    return d == CLOSE_ARRAY ? i + 1 : 0;
  }
}

/** A block's `content` as an array: whether an element is a text block (BLOCK_CONTENT_READ says how sure). */
function walkResultContent(at: usize, end: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) {
    lineFlags |= JS_PATH;
    return 0;
  }
  let sure = true;
  let text = false;
  let i = skipSpace(at + 1, end);
  if (i < end && load<u8>(i) == CLOSE_ARRAY) i = i + 1;
  else {
    while (true) {
      if (i >= end) return 0;
      if (load<u8>(i) == OPEN_OBJECT) {
        i = walkResultElement(i, end, depth + 1);
        if (i == 0) return 0;
        if (elementIs == ELEMENT_TEXT) text = true;
        else if (elementIs == ELEMENT_UNSURE) sure = false;
      } else {
        i = skipValue(i, end, depth);
        if (i == 0) return 0;
      }
      i = skipSpace(i, end);
      if (i >= end) return 0;
      const d = load<u8>(i);
      if (d == COMMA) {
        i = skipSpace(i + 1, end);
        continue;
      }
      if (d != CLOSE_ARRAY) return 0;
      i = i + 1;
      break;
    }
  }
  if (sure) store<u32>(blockRow + 4, load<u32>(blockRow + 4) | BLOCK_CONTENT_READ | (text ? BLOCK_CONTENT_TEXT : 0));
  return i;
}

const ELEMENT_OTHER: i32 = 0;
const ELEMENT_TEXT: i32 = 1;
const ELEMENT_UNSURE: i32 = 2;
/** What walkResultElement found the element to be. */
let elementIs: i32 = ELEMENT_OTHER;

/** An element of a result's content: a text block when its `type` is "text" and its `text` a string (elementIs). */
function walkResultElement(at: usize, end: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) {
    lineFlags |= JS_PATH;
    return 0;
  }
  let typeSeen = false;
  let typeIsText = false;
  let textSeen = false;
  let textIsString = false;
  let unsure = false;
  let i = skipSpace(at + 1, end);
  if (i < end && load<u8>(i) == CLOSE_OBJECT) {
    elementIs = ELEMENT_OTHER;
    return i + 1;
  }
  while (true) {
    if (i >= end || load<u8>(i) != QUOTE) return 0;
    const keyStart = i;
    stringNotPlain = false;
    i = skipString(i, end);
    if (i == 0) return 0;
    const k = keyStart + 1;
    const n = i - keyStart - 2;
    // An escape could spell `type` or `text`.
    let isType = false;
    let isText = false;
    if (stringNotPlain) {
      for (let b = keyStart; b < i; b++) if (load<u8>(b) == BACKSLASH) unsure = true;
    } else {
      isType = keyIs(k, n, 'type');
      isText = keyIs(k, n, 'text');
    }
    i = skipSpace(i, end);
    if (i >= end || load<u8>(i) != COLON) return 0;
    i = skipSpace(i + 1, end);
    if (i >= end) return 0;
    const valueStart = i;
    stringHasEscape = false;
    i = skipValue(i, end, depth);
    if (i == 0) return 0;
    // Given twice, the parse keeps the last: not followed here.
    if (isType) {
      if (typeSeen) unsure = true;
      typeSeen = true;
      if (load<u8>(valueStart) == QUOTE && stringHasEscape) unsure = true;
      typeIsText = i - valueStart == 6 && keyIs(valueStart + 1, 4, 'text') && load<u8>(valueStart) == QUOTE;
    } else if (isText) {
      if (textSeen) unsure = true;
      textSeen = true;
      textIsString = load<u8>(valueStart) == QUOTE;
    }
    i = skipSpace(i, end);
    if (i >= end) return 0;
    const d = load<u8>(i);
    if (d == COMMA) {
      i = skipSpace(i + 1, end);
      continue;
    }
    if (d != CLOSE_OBJECT) return 0;
    elementIs = unsure ? ELEMENT_UNSURE : typeIsText && textIsString ? ELEMENT_TEXT : ELEMENT_OTHER;
    return i + 1;
  }
}

/** Where the value at `i` ends, or 0 (recursive descent: each grammar context its own loop). */
function skipValue(i: usize, end: usize, depth: i32): usize {
  if (i >= end) return 0;
  const c = load<u8>(i);
  if (c == QUOTE) return skipString(i, end);
  if (c == OPEN_OBJECT) return skipObject(i, end, depth + 1);
  if (c == OPEN_ARRAY) return skipArray(i, end, depth + 1);
  if (c == MINUS || isDigit(c)) return skipNumber(i, end);
  return skipWord(i, end);
}

function skipArray(at: usize, end: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) {
    lineFlags |= JS_PATH;
    return 0;
  }
  let i = skipSpace(at + 1, end);
  if (i < end && load<u8>(i) == CLOSE_ARRAY) return i + 1;
  while (true) {
    i = skipValue(i, end, depth);
    if (i == 0) return 0;
    i = skipSpace(i, end);
    if (i >= end) return 0;
    const d = load<u8>(i);
    if (d == COMMA) {
      i = skipSpace(i + 1, end);
      continue;
    }
    return d == CLOSE_ARRAY ? i + 1 : 0;
  }
}

/** An object; at depth 1 (the line's own object) its members' spans are noted. */
function skipObject(at: usize, end: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) {
    lineFlags |= JS_PATH;
    return 0;
  }
  let i = skipSpace(at + 1, end);
  if (i < end && load<u8>(i) == CLOSE_OBJECT) return i + 1;
  while (true) {
    if (i >= end || load<u8>(i) != QUOTE) return 0;
    const keyStart = i;
    stringNotPlain = false;
    i = skipString(i, end);
    if (i == 0) return 0;
    let field: i32 = -1;
    let meta = false;
    if (depth == 1) {
      if (stringNotPlain) {
        // An escape could spell a field's name; non-ASCII cannot.
        for (let k = keyStart; k < i; k++) if (load<u8>(k) == BACKSLASH) lineFlags |= JS_PATH;
      } else {
        field = fieldOf(keyStart, i);
        if (field < 0) {
          meta = keyIs(keyStart + 1, i - keyStart - 2, 'isMeta');
          if (!meta && foreignKey(keyStart + 1, i - keyStart - 2)) lineFlags |= JS_PATH;
        }
      }
    }
    i = skipSpace(i, end);
    if (i >= end || load<u8>(i) != COLON) return 0;
    i = skipSpace(i + 1, end);
    const valueStart = i;
    stringNotPlain = false;
    // Most values are strings: the call through skipValue is left for the rest.
    if (i >= end) return 0;
    const c = load<u8>(i);
    if (c == QUOTE) i = skipString(i, end);
    else if (c == OPEN_OBJECT && field == F_MESSAGE) i = walkPicked(i, end, depth + 1, O_MESSAGE);
    else if (c == OPEN_OBJECT && field == F_TOOL_USE_RESULT) i = walkPicked(i, end, depth + 1, O_RESULT);
    else if (c == OPEN_OBJECT && field == F_DATA) i = walkPicked(i, end, depth + 1, O_DATA);
    else i = skipValue(i, end, depth);
    if (i == 0) return 0;
    if (field >= 0) noteField(field, valueStart, i, load<u8>(valueStart) == QUOTE && !stringNotPlain);
    if (meta) {
      if (lineFlags & (META_TRUE | META_FALSE)) lineFlags |= JS_PATH;
      else if (load<u8>(valueStart) == 0x74) lineFlags |= META_TRUE;
      else if (load<u8>(valueStart) == 0x66) lineFlags |= META_FALSE;
      else lineFlags |= JS_PATH;
    }
    i = skipSpace(i, end);
    if (i >= end) return 0;
    const d = load<u8>(i);
    if (d == COMMA) {
      i = skipSpace(i + 1, end);
      continue;
    }
    return d == CLOSE_OBJECT ? i + 1 : 0;
  }
}

/**
 * Walks the value of the line at `start`; returns where the value (and spaces after it) end, or 0
 * when the line is not one JSON value in valid UTF-8. Never crosses a newline.
 */
function walkLine(start: usize, end: usize): usize {
  const i = skipValue(start, end, 0);
  return i == 0 ? 0 : skipSpace(i, end);
}

/** The first newline at or after `at`, or `end`. */
function nextNewline(at: usize, end: usize): usize {
  const newlines = i8x16.splat(NEWLINE);
  let i = at;
  while (i < end) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(i), newlines));
    if (mask != 0) {
      i += <usize>ctz(mask);
      return i < end ? i : end;
    }
    i += 16;
  }
  return end;
}

/** A lowercase hex digit's value, or -1. */
@inline function hexValue(c: u32): i32 {
  if (c - 0x30 < 10) return <i32>(c - 0x30);
  if (c - 0x61 < 6) return <i32>(c - 0x57);
  return -1;
}

/**
 * A plain `uuid` (its span at `span`) in its usual form, 8-4-4-4-12 lowercase hex digits, packed
 * into the row's uuid words as EntryIds packs one: byte k is digits 2k and 2k + 1, word j bytes
 * 4j..4j + 3 (the first the lowest), and the hash of the four words (hashWords in entryIds.ts,
 * the same arithmetic). Left 0 (not packed) for any other string.
 */
function packUuid(span: usize, base: usize): void {
  const start = <usize>load<u32>(span) + base + 1;
  const end = <usize>load<u32>(span + 4) + base - 1;
  if (end - start != 36) return;
  if (load<u8>(start + 8) != MINUS || load<u8>(start + 13) != MINUS || load<u8>(start + 18) != MINUS || load<u8>(start + 23) != MINUS) return;
  let at = start;
  let bad: i32 = 0;
  const out = row + (<usize>UUID_WORD << 2) + 4;
  for (let k: usize = 0; k < 16; k++) {
    const offset = at - start;
    if (offset == 8 || offset == 13 || offset == 18 || offset == 23) at++;
    const high = hexValue(<u32>load<u8>(at));
    const low = hexValue(<u32>load<u8>(at + 1));
    bad |= high | low;
    store<u8>(out + k, <u8>((high << 4) | low));
    at += 2;
  }
  if (bad < 0) {
    memory.fill(out, 0, 16);
    return;
  }
  store<i32>(out - 4, hashWords(load<i32>(out), load<i32>(out + 4), load<i32>(out + 8), load<i32>(out + 12)));
}

/** entryIds.ts's hashWords: never 0 (not packed) and never -1. */
@inline function hashWords(w0: i32, w1: i32, w2: i32, w3: i32): i32 {
  let h: i32 = w0 * <i32>0x85ebca6b;
  h = (h ^ (h >>> 15) ^ w1) * <i32>0xc2b2ae35;
  h = (h ^ (h >>> 13) ^ w2) * <i32>0x85ebca6b;
  h = (h ^ (h >>> 16) ^ w3) * <i32>0x27d4eb2f;
  return ((h ^ (h >>> 15)) & 0x3fffffff) | 0x40000000;
}

@inline function sameBytes(a: usize, b: usize, n: usize): bool {
  let k: usize = 0;
  for (; k + 8 <= n; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < n; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/**
 * Notes the lines of the `length` bytes at `input()` from offset `from` until the table is full:
 * returns how many (0 at the end); the next call begins at `resumeAt()`.
 */
export function scan(from: i32, length: i32): i32 {
  const base = input();
  const end = base + <usize>length;
  if (from == 0) {
    prevSessionStart = 0;
    prevSessionEnd = 0;
  }
  let i = base + <usize>from;
  let lines: i32 = 0;
  blockCount = 0;
  while (i < end && lines < TABLE_LINES && blockCount + MAX_BLOCKS_PER_LINE <= TABLE_BLOCKS) {
    row = table + (<usize>(lines * WORDS_PER_LINE) << 2);
    memory.fill(row, 0, <usize>WORDS_PER_LINE << 2);
    lineFlags = 0;
    lineIndex = lines;
    lineBlocks = 0;
    const firstBlock = blockCount;
    const lineStart = i;
    let lineEnd: usize;
    const first = skipSpace(i, end);
    if (first >= end || load<u8>(first) == NEWLINE) {
      lineEnd = first;
      lineFlags = BLANK;
    } else {
      const after = walkLine(first, end);
      if (after != 0 && (after == end || load<u8>(after) == NEWLINE)) {
        lineEnd = after;
        if (lineFlags & JS_PATH) {
          lineFlags = JS_PATH;
        } else {
          lineFlags |= OK;
          if (lineFlags & (1 << (PLAIN_SHIFT + <u32>F_UUID))) packUuid(row + 12 + (<usize>F_UUID << 3), base);
          const s = row + 12 + (<usize>F_SESSION_ID << 3);
          const sStart = <usize>load<u32>(s) + base;
          const sEnd = <usize>load<u32>(s + 4) + base;
          if (sEnd != base) {
            const n = sEnd - sStart;
            if (n == prevSessionEnd - prevSessionStart && sameBytes(sStart, prevSessionStart, n)) lineFlags |= SAME_SESSION;
            prevSessionStart = sStart;
            prevSessionEnd = sEnd;
          }
        }
      } else {
        lineEnd = nextNewline(first, end);
        lineFlags = lineFlags & JS_PATH ? JS_PATH : INVALID;
      }
    }
    store<u32>(row, <u32>(lineStart - base));
    store<u32>(row + 4, <u32>(lineEnd - base));
    store<u32>(row + 8, lineFlags);
    if (lineFlags & OK) {
      store<u32>(row + (<usize>FIRST_BLOCK_WORD << 2), <u32>firstBlock);
      store<u32>(row + (<usize>FIRST_BLOCK_WORD << 2) + 4, <u32>lineBlocks);
    } else {
      blockCount = firstBlock;
    }
    lines++;
    i = lineEnd < end ? lineEnd + 1 : end;
  }
  resume = <i32>(i - base);
  return lines;
}

/** For the bench only: newlines in the `length` bytes at `input()` (the pass's floor: one SIMD read). */
export function countNewlines(length: i32): i32 {
  const base = input();
  const end = base + <usize>length;
  let n: i32 = 0;
  let i = base;
  while (i < end) {
    i = nextNewline(i, end);
    if (i < end) n++;
    i++;
  }
  return n;
}
