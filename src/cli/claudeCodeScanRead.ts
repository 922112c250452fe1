// `loupe index`'s read of a Claude Code log (model/claudeCodeRead.ts's `readClaudeCodeForRows`) fed
// from the WebAssembly pass's tables (ingest/wasm/assembly/indexScan.ts: each line validated, the
// spans of what the fold uses picked, once per file) instead of a JSON.parse per line. For a line the pass read whole, the message is rebuilt as a slim object holding only what
// `messageParts` reads (id, usage, content with each block's own fields) from the spans, and handed
// to `messageParts` and `ClaudeLines.fold`: the same rules, called, not copied. Every other line
// (marked for the JS path by the pass, or a case below leaves) goes through `ClaudeLines.line`,
// the per-line read. claudeCodeScanRead.test.ts holds its rows to that read's on every fixture, on
// lines written for each case and on a real log changed at random; scripts/bench-wasm-fold.mjs
// checks the same on a fleet and times the two.
import { messageParts, subagentOf } from '../ingest/formats/claudeCode';
import { timeOf } from '../ingest/formats/shared';
import { parseIsoTimeBytes } from '../ingest/isoTime';
import { hasIntegerLikeKey } from '../ingest/keyOrder';
import { MAX_LINE_BYTES } from '../ingest/lines';
import { isJsonObject, type JsonObject } from '../ingest/schemas';
import type { IndexScanExports } from '../ingest/wasm/indexScanner';
import { ClaudeLines, readClaudeCodeForRows, type LineSplitter } from '../model/claudeCodeRead';
import { FoldState, type FoldKeep } from '../model/fold/foldState';
import { endInput } from '../model/fold/recordFold';
import type { Session } from '../model/session';

// The table layout of indexScan.ts.
const F_TYPE = 0;
const F_UUID = 1;
const F_TIMESTAMP = 2;
const F_SESSION_ID = 3;
const F_IS_SIDECHAIN = 4;
const F_AGENT_ID = 5;
const F_MESSAGE = 6;
const F_TOOL_USE_RESULT = 7;
const F_DATA = 8;
const M_ID = 9;
const M_USAGE = 10;
const M_CONTENT = 11;
const U_INPUT = 12;
const U_OUTPUT = 13;
const U_CACHE_CREATION = 14;
const U_CACHE_READ = 15;
const R_EXIT_CODE = 16;
const R_EXITCODE = 17;
const R_CODE = 18;
const R_AGENT_ID = 19;
const R_METADATA = 20;
const R_META_EXIT_CODE = 21;
const D_AGENT_ID = 22;
const FIELDS = 23;
const FIRST_BLOCK_WORD = 3 + 2 * FIELDS;
/** The line's uuid as the pass packed it for EntryIds: a hash (0: not packed) and four words. */
const UUID_WORD = FIRST_BLOCK_WORD + 2;
const B_TEXT = 1;
const B_THINKING = 2;
const B_ID = 3;
const B_NAME = 4;
const B_INPUT = 5;
const B_TOOL_USE_ID = 6;
const B_IS_ERROR = 7;
const B_CONTENT = 8;
const K_TEXT = 1;
const K_THINKING = 2;
const K_TOOL_USE = 3;
const K_TOOL_RESULT = 4;
const BLOCK_PLAIN_SHIFT = 4;
const BLOCK_NO_ESCAPE_SHIFT = 16;
/** A result's `content` is an array the pass read, and whether it holds a text block (assembly/indexScan.ts). */
const BLOCK_CONTENT_READ = 1 << 28;
const BLOCK_CONTENT_TEXT = 1 << 29;
const OK = 1;
const BLANK = 8;
const SAME_SESSION = 16;
const USAGE_WHOLE = 32;
const META_TRUE = 64;
const META_FALSE = 128;
const PLAIN_SHIFT = 8;
const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CR = 13;

/** How many lines took which path (for the bench). */
export interface ScanReadCounts {
  fast: number;
  js: number;
  blank: number;
}

/** `keep`: as readClaudeCodeForRows's. */
export function readClaudeCodeForRowsFromScan(
  buffer: Buffer, wasm: IndexScanExports, lines: LineSplitter, counts: ScanReadCounts = { fast: 0, js: 0, blank: 0 }, keep: FoldKeep = 'rows',
): Session | null {
  // A BOM is the per-line read's (the pass would call the first line invalid).
  if (hasBom(buffer)) return readClaudeCodeForRows(buffer, lines, keep);
  let copied = false;
  const session = scanRead((into) => {
    if (copied) return 0;
    copied = true;
    into.set(buffer);
    return buffer.length;
  }, wasm, Math.max(buffer.length, 1), counts, keep);
  return session === undefined ? readClaudeCodeForRows(buffer, lines, keep) : session;
}

/**
 * A log read in windows of `windowBytes` (grown for a longer line) straight into the pass's memory,
 * by `readInto` (a file's next bytes into the target; 0 at its end): any size of file in the same
 * few megabytes, read once, with no copy. Null when the per-line read or ingest must read it (as
 * above, or a BOM, or memory that cannot grow).
 */
export function readClaudeCodeForRowsInWindows(
  readInto: (target: Uint8Array) => number, wasm: IndexScanExports, windowBytes: number, counts: ScanReadCounts = { fast: 0, js: 0, blank: 0 }, keep: FoldKeep = 'rows',
): Session | null {
  return scanRead(readInto, wasm, windowBytes, counts, keep, true) ?? null;
}

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** Undefined: the pass could not take the input (memory did not grow, a BOM when `refuseBom`); null: the read refuses it. */
function scanRead(
  readInto: (target: Uint8Array) => number, wasm: IndexScanExports, windowBytes: number, counts: ScanReadCounts, keep: FoldKeep, refuseBom = false,
): Session | null | undefined {
  let window = windowBytes;
  if (!wasm.reserve(window)) return undefined;
  const inputAt = wasm.input();
  const perLine = wasm.wordsPerLine();
  const perBlock = wasm.wordsPerBlock();
  const tableWord = wasm.tableAt() >>> 2;
  const blockWord = wasm.blocksAt() >>> 2;
  const state = new FoldState('light', undefined, false, keep);
  const reader = new ClaudeLines(state);
  const fields = new LineFields();
  let line = 0;
  // Bytes at the window's start carried from the last (a line not yet whole), and where in the input the window starts.
  let carried = 0;
  let windowOffset = 0;
  let ended = false;
  for (let first = true; ; first = false) {
    let filled = carried;
    while (!ended && filled < window) {
      const n = readInto(new Uint8Array(wasm.memory.buffer, inputAt + filled, window - filled));
      if (n === 0) ended = true;
      else filled += n;
    }
    const bytes = Buffer.from(wasm.memory.buffer, inputAt, filled) as SlicingBuffer;
    if (first && refuseBom && hasBom(bytes)) return undefined;
    // The window's whole lines: up to its last newline, or all of it at the input's end.
    let region = filled;
    if (!ended) {
      region = bytes.lastIndexOf(10) + 1;
      if (region === 0) {
        // A line longer than the window: the window grows to hold it.
        if (window >= MAX_LINE_BYTES) return null;
        window = Math.min(window * 2, MAX_LINE_BYTES + 1);
        if (!wasm.reserve(window)) return undefined;
        carried = filled;
        continue;
      }
    } else if (filled < window) {
      // Past the input's end the pass reads what a window before left: zeros stop its strings there, as its padding does.
      new Uint8Array(wasm.memory.buffer, inputAt + filled, Math.min(16, window - filled)).fill(0);
    }
    if (region > 0) {
      const words = new Uint32Array(wasm.memory.buffer);
      fields.use(bytes, words);
      let from = 0;
      for (;;) {
        const count = wasm.scan(from, region);
        if (count === 0) break;
        for (let l = 0; l < count && !reader.refused; l++) {
          line++;
          const row = tableWord + l * perLine;
          const start = words[row]!;
          const flags = words[row + 2]!;
          // Where the per-line read ends this line: its newline, a CR before it left out. Its length is
          // checked first, blank or not, as the per-line read checks every line's.
          let next = flags & (OK | BLANK) ? words[row + 1]! : bytes.indexOf(10, start);
          if (next < 0 || next > region) next = region;
          const end = next > start && bytes[next - 1] === CR ? next - 1 : next;
          if (end - start > MAX_LINE_BYTES) return null;
          if (flags & BLANK) {
            counts.blank++;
            continue;
          }
          if (!(flags & OK) || !fields.fold(reader, row, flags, blockWord, perBlock, line, windowOffset + start, end - start)) {
            counts.js++;
            reader.line(end === start ? '' : bytes.utf8Slice(start, end), line, windowOffset + start, end - start);
          } else {
            counts.fast++;
          }
        }
        if (reader.refused) return null;
        from = wasm.resumeAt();
      }
    }
    if (ended) break;
    new Uint8Array(wasm.memory.buffer).copyWithin(inputAt, inputAt + region, inputAt + filled);
    carried = filled - region;
    windowOffset += region;
  }
  if (state.session.counts.lines === 0) return null;
  state.session.format = 'claude-code';
  endInput(state);
  return state.session;
}

/** Node's Buffer slices without toString's argument checks (not in @types/node). */
type SlicingBuffer = Buffer & { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };

/** A span's value: `true`, `false`, `null` from its first byte (the pass checked the word), anything else by JSON.parse. */
function literalOrParse(buffer: SlicingBuffer, start: number, end: number): unknown {
  switch (buffer[start]) {
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    default:
      return JSON.parse(buffer.utf8Slice(start, end));
  }
}

/** The two stand-ins for a result's content array (resultContent), shared: only read (textOf), never kept. */
const RESULT_WITH_TEXT: readonly JsonObject[] = Object.freeze([Object.freeze({ type: 'text', text: '' })]);
const RESULT_WITHOUT_TEXT: readonly JsonObject[] = Object.freeze([]);

/** A content block of each kind read, made once and used again (LineFields.fold). */
class ReusedBlocks {
  private readonly texts: { type: 'text'; text: unknown }[] = [];
  private readonly thinkings: { type: 'thinking'; thinking: unknown }[] = [];
  private readonly uses: { type: 'tool_use'; id: unknown; name: unknown; input: unknown }[] = [];
  private readonly results: { type: 'tool_result'; tool_use_id: unknown; content: unknown; is_error: unknown }[] = [];
  private usedTexts = 0;
  private usedThinkings = 0;
  private usedUses = 0;
  private usedResults = 0;

  /** A new line: every block may be used again. */
  reuse(): void {
    this.usedTexts = this.usedThinkings = this.usedUses = this.usedResults = 0;
  }

  text(): { type: 'text'; text: unknown } {
    return (this.texts[this.usedTexts++] ??= { type: 'text', text: undefined });
  }

  thinking(): { type: 'thinking'; thinking: unknown } {
    return (this.thinkings[this.usedThinkings++] ??= { type: 'thinking', thinking: undefined });
  }

  toolUse(): { type: 'tool_use'; id: unknown; name: unknown; input: unknown } {
    return (this.uses[this.usedUses++] ??= { type: 'tool_use', id: undefined, name: undefined, input: undefined });
  }

  toolResult(): { type: 'tool_result'; tool_use_id: unknown; content: unknown; is_error: unknown } {
    return (this.results[this.usedResults++] ??= { type: 'tool_result', tool_use_id: undefined, content: undefined, is_error: undefined });
  }
}

class LineFields {
  private readonly message: { id: unknown; usage: unknown; content: unknown } = { id: undefined, usage: undefined, content: undefined };
  private readonly content: JsonObject[] = [];
  private readonly blocks = new ReusedBlocks();
  private sessionId: unknown;
  private buffer = Buffer.alloc(0) as SlicingBuffer;
  private words: Uint32Array = new Uint32Array(0);

  /** The window's bytes and the pass's memory as words, for the lines of one window. */
  use(buffer: SlicingBuffer, words: Uint32Array): void {
    this.buffer = buffer;
    this.words = words;
    // The pass says SAME_SESSION only of lines in the same window (it starts each one afresh).
    this.sessionId = undefined;
  }

  /** The span's value: a plain string from its bytes, anything else by JSON.parse; undefined when absent. */
  private value(row: number, field: number, flags: number): unknown {
    const start = this.words[row + 3 + 2 * field]!;
    const end = this.words[row + 4 + 2 * field]!;
    if (end === 0) return undefined;
    if (flags & (1 << (PLAIN_SHIFT + field))) return this.buffer.latin1Slice(start + 1, end - 1);
    return literalOrParse(this.buffer, start, end);
  }

  /** A picked field only when it is there: an absent key stays absent in the stand-ins below. */
  private setPicked(into: JsonObject, key: string, row: number, field: number, flags: number): void {
    const start = this.words[row + 3 + 2 * field]!;
    const end = this.words[row + 4 + 2 * field]!;
    if (end === 0) return;
    // Counts and exit codes are short integers: their digits read here, not by JSON.parse.
    let n = 0;
    for (let i = start; i < end; i++) {
      const digit = this.buffer[i]! - 0x30;
      if (digit < 0 || digit > 9 || end - start > 15 || (i === start && digit === 0 && end - start > 1)) {
        into[key] = this.value(row, field, flags);
        return;
      }
      n = n * 10 + digit;
    }
    into[key] = n;
  }

  /**
   * `message.usage` as the light read uses it: its counts (readUsage reads numbers by name and a
   * `cost`; the pass says USAGE_WHOLE when the usage has any other number or a cost). Its `raw`,
   * which rows never show, is this object, not the whole usage.
   */
  private usageCounts(row: number, flags: number): JsonObject {
    const counts: JsonObject = {};
    this.setPicked(counts, 'input_tokens', row, U_INPUT, flags);
    this.setPicked(counts, 'output_tokens', row, U_OUTPUT, flags);
    this.setPicked(counts, 'cache_creation_input_tokens', row, U_CACHE_CREATION, flags);
    this.setPicked(counts, 'cache_read_input_tokens', row, U_CACHE_READ, flags);
    return counts;
  }

  /**
   * The entry's `toolUseResult` as a light read uses it (CONTRACTS §11: a light call keeps its exit
   * code, not its output): an object stands in with only what exitCodeInOutput reads (the keys of
   * model/inputs.ts's INPUT_KEYS.exitCode and `metadata.exit_code`, which the pass picks: a key added
   * there must be picked here too); a string or any other value is read whole.
   */
  private toolOutput(row: number, flags: number): unknown {
    const first = this.firstByte(row, F_TOOL_USE_RESULT);
    // An array (an ACP adapter's content blocks) gives no exit code (exitCodeInOutput reads an
    // object or a string), and a light call keeps no output: an empty one stands for it unparsed.
    if (first === OPEN_ARRAY) return [];
    if (first !== OPEN_OBJECT) return this.value(row, F_TOOL_USE_RESULT, flags);
    const output: JsonObject = {};
    this.setPicked(output, 'exit_code', row, R_EXIT_CODE, flags);
    this.setPicked(output, 'exitCode', row, R_EXITCODE, flags);
    this.setPicked(output, 'code', row, R_CODE, flags);
    if (this.firstByte(row, R_METADATA) === OPEN_OBJECT) {
      const metadata: JsonObject = {};
      this.setPicked(metadata, 'exit_code', row, R_META_EXIT_CODE, flags);
      output.metadata = metadata;
    }
    return output;
  }

  /** The entry's time as timeOf reads its `timestamp`: a plain one of the usual form from its bytes, with no string made. */
  private time(row: number, flags: number): number | undefined {
    const start = this.words[row + 3 + 2 * F_TIMESTAMP]!;
    const end = this.words[row + 4 + 2 * F_TIMESTAMP]!;
    if (end === 0) return undefined;
    if (flags & (1 << (PLAIN_SHIFT + F_TIMESTAMP))) {
      const ms = parseIsoTimeBytes(this.buffer, start + 1, end - 1);
      if (ms !== undefined) return ms;
    }
    return timeOf(this.value(row, F_TIMESTAMP, flags));
  }

  /** A plain string field's text (its bytes between the quotes). */
  private spanText(row: number, field: number): string {
    return this.buffer.latin1Slice(this.words[row + 3 + 2 * field]! + 1, this.words[row + 4 + 2 * field]! - 1);
  }

  private firstByte(row: number, field: number): number {
    return this.words[row + 4 + 2 * field] === 0 ? 0 : this.buffer[this.words[row + 3 + 2 * field]!]!;
  }

  private blockValue(block: number, field: number, flags: number): unknown {
    const start = this.words[block + 2 + 2 * field]!;
    const end = this.words[block + 3 + 2 * field]!;
    if (end === 0) return undefined;
    if (flags & (1 << (BLOCK_PLAIN_SHIFT + field))) return this.buffer.latin1Slice(start + 1, end - 1);
    if (flags & (1 << (BLOCK_NO_ESCAPE_SHIFT + field))) return this.buffer.utf8Slice(start + 1, end - 1);
    return literalOrParse(this.buffer, start, end);
  }

  /**
   * A result block's `content`. An array the pass read stands for itself as this read's fold takes
   * it (light, FoldState): a call keeps of its result's content only whether it has text (one
   * content block, or none) and that there is an output, whose exit code an array never gives
   * (exitCodeInOutput). So such an array is not parsed (it was two fifths of what this read
   * parsed): an array with a text block is read as one empty text block, one without as none.
   */
  private resultContent(block: number, flags: number): unknown {
    if (!(flags & BLOCK_CONTENT_READ)) return this.blockValue(block, B_CONTENT, flags);
    return flags & BLOCK_CONTENT_TEXT ? RESULT_WITH_TEXT : RESULT_WITHOUT_TEXT;
  }

  /**
   * The line folded from its spans, as ClaudeLines.line would; false (nothing folded) for a line it
   * leaves to that: the guard's answer not known from the picks, a progress entry whose `data`
   * names an agent, a tool input with integer-like keys (its key order needs the line's text).
   */
  fold(reader: ClaudeLines, row: number, flags: number, blockWord: number, perBlock: number, line: number, offset: number, length: number): boolean {
    const words = this.words;
    // `sessionId` read again only when its bytes differ from those of the last OK line that had one
    // (the pass's SAME_SESSION), so read on every OK line before anything sends it to the JS path.
    let sessionId: unknown;
    if (flags & SAME_SESSION) sessionId = this.sessionId;
    else {
      sessionId = this.value(row, F_SESSION_ID, flags);
      if (sessionId !== undefined) this.sessionId = sessionId;
    }
    if (this.firstByte(row, F_TYPE) !== QUOTE) return false;
    const type = this.value(row, F_TYPE, flags) as string;
    if (type === 'tool_result') return false;
    // The uuid's string is made only where a rule reads it (a user's message is named by it); a plain
    // one is noted as seen from its bytes.
    const uuidIsString = this.firstByte(row, F_UUID) === QUOTE;
    const plainUuid = uuidIsString && (flags & (1 << (PLAIN_SHIFT + F_UUID))) !== 0;
    const uuid = plainUuid ? undefined : this.value(row, F_UUID, flags);
    // ClaudeEntryKeys' `named` (`leafUuid` takes the JS path).
    if (!uuidIsString && typeof sessionId !== 'string') return false;
    const user = type === 'user';
    // `data.agentId` as the pass picked it: `data` itself (a hook's progress, most often) is not parsed.
    if (type === 'progress' && this.firstByte(row, F_DATA) === OPEN_OBJECT) {
      const agentId = this.value(row, D_AGENT_ID, flags);
      if (typeof agentId === 'string' && agentId !== '') return false;
    }
    let parts;
    let subagent;
    if ((user || type === 'assistant') && this.firstByte(row, F_MESSAGE) === OPEN_OBJECT) {
      // The slim message and its blocks are used again line after line: messageParts keeps none of
      // them (readMessage and readBlock copy what they read), and they were a fifth of what this read allocated.
      const message = this.message;
      message.id = this.value(row, M_ID, flags);
      message.usage = this.firstByte(row, M_USAGE) === OPEN_OBJECT ? (flags & USAGE_WHOLE ? this.value(row, M_USAGE, flags) : this.usageCounts(row, flags)) : undefined;
      const contentAt = this.firstByte(row, M_CONTENT);
      // userUpdates counts the tool_result blocks.
      let results = 0;
      message.content = undefined;
      if (contentAt === QUOTE) message.content = this.value(row, M_CONTENT, flags);
      else if (contentAt === OPEN_ARRAY) {
        // Only the content's objects of the four kinds read: readBlock skips the rest, and no rule here reads a block's index.
        const content = this.content;
        const blocks = this.blocks;
        blocks.reuse();
        content.length = 0;
        const first = words[row + FIRST_BLOCK_WORD]!;
        const count = words[row + FIRST_BLOCK_WORD + 1]!;
        for (let b = first; b < first + count; b++) {
          const block = blockWord + b * perBlock;
          const blockFlags = words[block + 1]!;
          switch (blockFlags & 15) {
            case K_TEXT: {
              const text = blocks.text();
              text.text = this.blockValue(block, B_TEXT, blockFlags);
              content.push(text);
              break;
            }
            case K_THINKING: {
              const thinking = blocks.thinking();
              thinking.thinking = this.blockValue(block, B_THINKING, blockFlags);
              content.push(thinking);
              break;
            }
            case K_TOOL_USE: {
              const input = this.blockValue(block, B_INPUT, blockFlags);
              if (isJsonObject(input) && hasIntegerLikeKey(input)) return false;
              const use = blocks.toolUse();
              use.id = this.blockValue(block, B_ID, blockFlags);
              use.name = this.blockValue(block, B_NAME, blockFlags);
              use.input = input;
              content.push(use);
              break;
            }
            case K_TOOL_RESULT: {
              results++;
              const result = blocks.toolResult();
              result.tool_use_id = this.blockValue(block, B_TOOL_USE_ID, blockFlags);
              result.content = this.resultContent(block, blockFlags);
              result.is_error = this.blockValue(block, B_IS_ERROR, blockFlags);
              content.push(result);
              break;
            }
          }
        }
        message.content = content;
      }
      // The entry's `toolUseResult` is read only where userUpdates reads it: one result in the message.
      const toolUseResult = user && results === 1 ? this.toolOutput(row, flags) : undefined;
      // The sub-agent a result names, by subagentOf itself, asked only when `toolUseResult.agentId` is a string.
      const agentId = user && this.firstByte(row, F_TOOL_USE_RESULT) === OPEN_OBJECT ? this.value(row, R_AGENT_ID, flags) : undefined;
      if (typeof agentId === 'string') subagent = subagentOf({ toolUseResult: { agentId }, message }, type);
      // The line's text is read only for a tool input with integer-like keys, which takes the JS path.
      const isMeta = flags & META_TRUE ? true : flags & META_FALSE ? false : undefined;
      const uuidText = plainUuid ? (user ? this.spanText(row, F_UUID) : undefined) : typeof uuid === 'string' ? uuid : undefined;
      parts = messageParts(type, isMeta, uuidText, toolUseResult, message, '', line);
    }
    const uuids = reader.state.native.uuids;
    const packed = words[row + UUID_WORD]!;
    const fresh = packed !== 0
      ? uuids.addWords(packed, words[row + UUID_WORD + 1]!, words[row + UUID_WORD + 2]!, words[row + UUID_WORD + 3]!, words[row + UUID_WORD + 4]!)
      // A plain uuid the pass did not pack is not in the usual form: noted as its string (rare).
      : plainUuid ? uuids.add(this.spanText(row, F_UUID)) : typeof uuid !== 'string' || uuids.add(uuid);
    reader.fold(this.time(row, flags), this.value(row, F_IS_SIDECHAIN, flags), this.value(row, F_AGENT_ID, flags), sessionId, fresh, subagent, parts, line, offset, length);
    return true;
  }
}
