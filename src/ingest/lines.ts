// Chunk-safe line splitting over raw bytes. A chunk's runs of ASCII lines are decoded with one call
// each, their newlines found in the text (byte and character offsets are the same there); a line
// that is not ASCII is decoded on its own, its end found in the bytes, where U+000A never occurs
// inside a multi-byte UTF-8 sequence. Or, where a call is cheap (Node), every line on its own.

export interface RawLine {
  /** 1-based line number in the input. */
  line: number;
  /** Byte offset of the line's first byte (after a BOM on line 1). */
  offset: number;
  /** The line's text without its terminator (LF or CRLF). */
  text: string;
  /** The line's exact bytes are `source[start, end)`, without the terminator. Valid only during the callback. */
  source: Uint8Array;
  start: number;
  end: number;
  /** False for a last line that ended without a newline. */
  terminated: boolean;
  /**
   * Set for a line longer than the reader's limit: its length in bytes. Such a line is never
   * joined (it could not be one string), `text` holds only its first few hundred characters.
   */
  tooLong?: number;
}

/**
 * Longer lines are reported, not read: V8 cannot hold a string of more than about 512 MiB, and
 * parsing one takes several times its size in memory.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
/** What is kept of a line that is too long: enough for an excerpt. */
const TOO_LONG_HEAD_BYTES = 800;

const LF = 10;
const CR = 13;

/** What Node's Buffer has that a typed array lacks: a byte search by memchr, UTF-8 read with no view made. */
interface NodeBuffer {
  prototype: {
    indexOf: (this: Uint8Array, value: number, from: number) => number;
    utf8Slice: (this: Uint8Array, start: number, end: number) => string;
  };
}
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
/**
 * Where the next newline at or after `from` is (-1: none). Node's Buffer search where there is one
 * (memchr: on 40 MB of ACP lines 3 ms against 16 ms for `Uint8Array.prototype.indexOf`, which was
 * 5–9% of a light read in Node); the typed array's own elsewhere.
 */
const newlineFrom: (bytes: Uint8Array, from: number) => number = nodeBuffer
  ? ((search) => (bytes, from) => search.call(bytes, LF, from))(nodeBuffer.prototype.indexOf)
  : (bytes, from) => bytes.indexOf(LF, from);
/**
 * `bytes[start, end)` as text, as TextDecoder (BOM kept) reads it: Node's Buffer reads UTF-8 the same
 * way, invalid bytes included (cli/bufferLines.test.ts, lines.test.ts), with no view and no decoder
 * call per line; null where there is no Buffer.
 */
const utf8Text: ((bytes: Uint8Array, start: number, end: number) => string) | null = nodeBuffer
  ? ((slice) => (bytes: Uint8Array, start: number, end: number) => slice.call(bytes, start, end))(nodeBuffer.prototype.utf8Slice)
  : null;

/**
 * Where decoding one line costs a fraction of a microsecond: Node, whose `process` no browser
 * has. There lines decoded one by one are read faster than runs of them (40 MB light reads,
 * Node 20: ACP 464 against 580 ms, ledger 507 against 685, Claude Code the same); in Chromium a
 * call costs 2–3 µs and runs are faster (ACP 587 against 772 ms, Claude Code 648 against 854).
 */
export const DECODE_EACH_LINE_BY_DEFAULT = typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';

export class LineReader {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private carry: Uint8Array[] = [];
  private carryLength = 0;
  private lineNo = 0;
  private offset = 0;
  private atStart = true;
  /** One object for every line: the callback reads it and must not keep it. */
  private readonly current: RawLine = { line: 0, offset: 0, text: '', source: new Uint8Array(0), start: 0, end: 0, terminated: true };
  /** While a line past the limit is being skipped: its first bytes and its length so far. */
  private tooLong: { head: Uint8Array; headLength: number; bytes: number } | null = null;
  bytesRead = 0;

  /** Lines read so far, blank ones included: the number of the last line. */
  get lines(): number {
    return this.lineNo;
  }

  /**
   * `decodeEachLine`: decode each line on its own instead of a run of lines at a time (see
   * DECODE_EACH_LINE_BY_DEFAULT for which is faster where).
   */
  constructor(
    private readonly onLine: (line: RawLine) => void,
    private readonly maxLineBytes = MAX_LINE_BYTES,
    private readonly decodeEachLine = DECODE_EACH_LINE_BY_DEFAULT,
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.bytesRead += chunk.length;
    let bytes = chunk;
    if (this.tooLong) {
      const newline = chunk.indexOf(LF);
      this.skip(newline < 0 ? chunk : chunk.subarray(0, newline + 1));
      if (newline < 0) return;
      this.emitTooLong(true);
      bytes = chunk.subarray(newline + 1);
      if (bytes.length === 0) return;
    }
    if (this.carryLength > 0) {
      const firstNewline = chunk.indexOf(LF);
      if (firstNewline < 0) {
        this.keep(chunk);
        return;
      }
      // Only the line that straddles the chunk boundary is copied; the rest is used in place.
      this.keep(chunk.subarray(0, firstNewline + 1));
      if (this.tooLong) this.emitTooLong(true);
      else {
        const joined = this.takeCarry();
        this.emitRegion(joined, joined.length);
      }
      bytes = chunk.subarray(firstNewline + 1);
    }
    const lastNewline = bytes.lastIndexOf(LF);
    if (lastNewline < 0) {
      this.keep(bytes);
      return;
    }
    this.emitRegion(bytes, lastNewline + 1);
    if (lastNewline + 1 < bytes.length) this.keep(bytes.subarray(lastNewline + 1));
  }

  /** Flushes a last line that has no newline. */
  end(): void {
    if (this.tooLong) return this.emitTooLong(false);
    if (this.carryLength === 0) return;
    let bytes = this.takeCarry();
    if (this.atStart) bytes = this.skipBom(bytes);
    if (bytes.length === 0) return;
    let end = bytes.length;
    if (bytes[end - 1] === CR) end--;
    this.lineNo++;
    const line = this.current;
    line.line = this.lineNo;
    line.offset = this.offset;
    line.text = this.decoder.decode(bytes.subarray(0, end));
    line.source = bytes;
    line.start = 0;
    line.end = end;
    line.terminated = false;
    this.onLine(line);
    this.offset += bytes.length;
  }

  /** Called with the input's first complete line(s), so three bytes are in hand when a BOM is. */
  private skipBom(bytes: Uint8Array): Uint8Array {
    this.atStart = false;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      this.offset += 3;
      return bytes.subarray(3);
    }
    return bytes;
  }

  /** Emits every line of `bytes[0, end)`, which ends with a newline. */
  private emitRegion(bytes: Uint8Array, end: number): void {
    if (this.atStart) {
      bytes = this.skipBom(bytes.subarray(0, end));
      end = bytes.length;
    }
    if (this.decodeEachLine) return this.emitLines(bytes, end);
    const line = this.current;
    line.source = bytes;
    line.terminated = true;
    // Decoded a run of ASCII lines at a time (one byte a character, one call a run); a line that is
    // not ASCII on its own. A region decoded whole with one such line in it is two bytes a
    // character throughout, which TextDecoder is slow to make (Chromium: 80 MB/s, against GB/s
    // for ASCII) and JSON.parse and every string it makes pay for again: Claude Code logs have an
    // arrow or a quote mark on 2% of their lines.
    let at = 0;
    while (at < end) {
      const other = firstNonAscii(bytes, at, end);
      if (other < 0) return this.emitAsciiRun(bytes, at, end);
      const lineStart = Math.max(at, bytes.lastIndexOf(LF, other) + 1);
      if (lineStart > at) this.emitAsciiRun(bytes, at, lineStart);
      const newline = bytes.indexOf(LF, other);
      const lineEnd = newline > lineStart && bytes[newline - 1] === CR ? newline - 1 : newline;
      this.emitLine(bytes, lineStart, lineEnd, newline, null);
      at = newline + 1;
    }
  }

  /** The lines of `bytes[start, end)`, all ASCII and each ending with a newline, decoded with one call. */
  private emitAsciiRun(bytes: Uint8Array, start: number, end: number): void {
    const text = this.decoder.decode(bytes.subarray(start, end));
    let from = 0;
    while (from < text.length) {
      const newline = text.indexOf('\n', from);
      const lineEnd = newline > from && text.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
      this.emitLine(bytes, start + from, start + lineEnd, start + newline, text.slice(from, lineEnd));
      from = newline + 1;
    }
  }

  /** emitRegion's lines, each decoded on its own. */
  private emitLines(bytes: Uint8Array, end: number): void {
    const line = this.current;
    line.source = bytes;
    line.terminated = true;
    let byteStart = 0;
    while (byteStart < end) {
      const byteNewline = newlineFrom(bytes, byteStart);
      let byteEnd = byteNewline;
      if (byteEnd > byteStart && bytes[byteEnd - 1] === CR) byteEnd--;
      this.emitLine(bytes, byteStart, byteEnd, byteNewline, null);
      byteStart = byteNewline + 1;
    }
  }

  /**
   * One line of `bytes`, `[byteStart, byteEnd)` without its line ending, the newline at `byteNewline`;
   * `text` its text where the chunk was decoded whole, else null (decoded here).
   */
  private emitLine(bytes: Uint8Array, byteStart: number, byteEnd: number, byteNewline: number, text: string | null): void {
    const line = this.current;
    this.lineNo++;
    line.line = this.lineNo;
    line.offset = this.offset;
    line.start = byteStart;
    line.end = byteEnd;
    if (byteEnd - byteStart > this.maxLineBytes) {
      // The same verdict whatever the chunking: a line past the limit is reported, not read.
      line.text = this.decoder.decode(bytes.subarray(byteStart, Math.min(byteEnd, byteStart + TOO_LONG_HEAD_BYTES)));
      line.tooLong = byteEnd - byteStart;
    } else line.text = text ?? (byteEnd === byteStart ? '' : utf8Text ? utf8Text(bytes, byteStart, byteEnd) : this.decoder.decode(bytes.subarray(byteStart, byteEnd)));
    this.onLine(line);
    line.tooLong = undefined;
    this.offset += byteNewline + 1 - byteStart;
  }

  /** Counts bytes of the line being skipped, keeping the first of them for its excerpt. */
  private skip(bytes: Uint8Array): void {
    const skipped = this.tooLong!;
    const room = skipped.head.length - skipped.headLength;
    if (room > 0) {
      const take = bytes.subarray(0, room);
      skipped.head.set(take, skipped.headLength);
      skipped.headLength += take.length;
    }
    skipped.bytes += bytes.length;
  }

  /** Reports the line being skipped; `bytes` counts its newline when it had one. */
  private emitTooLong(terminated: boolean): void {
    const skipped = this.tooLong!;
    this.tooLong = null;
    this.atStart = false;
    this.lineNo++;
    const line = this.current;
    line.line = this.lineNo;
    line.offset = this.offset;
    // A multi-byte character cut at the end of the head decodes as U+FFFD: it is only an excerpt.
    const length = skipped.bytes - (terminated ? 1 : 0);
    let headEnd = Math.min(skipped.headLength, length);
    if (terminated && headEnd === length && skipped.head[headEnd - 1] === CR) headEnd--;
    const head = skipped.head.subarray(0, headEnd);
    line.text = this.decoder.decode(head);
    line.source = head;
    line.start = 0;
    line.end = head.length;
    line.terminated = terminated;
    line.tooLong = length;
    this.onLine(line);
    line.tooLong = undefined;
    this.offset += skipped.bytes;
  }

  private keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.carryLength + bytes.length > this.maxLineBytes) {
      // Past the limit: keep only the head and count the rest until the line ends.
      const joined = this.takeCarry();
      this.tooLong = { head: new Uint8Array(TOO_LONG_HEAD_BYTES), headLength: 0, bytes: 0 };
      this.skip(joined);
      this.skip(bytes);
      return;
    }
    // Copy: the caller may reuse the chunk's buffer.
    this.carry.push(bytes.slice());
    this.carryLength += bytes.length;
  }

  private takeCarry(): Uint8Array {
    const joined = this.carry.length === 1 ? this.carry[0]! : new Uint8Array(this.carryLength);
    if (this.carry.length > 1) {
      let at = 0;
      for (const piece of this.carry) {
        joined.set(piece, at);
        at += piece.length;
      }
    }
    this.carry = [];
    this.carryLength = 0;
    return joined;
  }
}

/** The first byte of `bytes[from, to)` that is not ASCII, or -1: four at a time where they are aligned. */
export function firstNonAscii(bytes: Uint8Array, from: number, to: number): number {
  let i = from;
  const misaligned = (bytes.byteOffset + i) % 4;
  const alignedFrom = Math.min(to, misaligned === 0 ? i : i + 4 - misaligned);
  for (; i < alignedFrom; i++) if (bytes[i]! >= 0x80) return i;
  const words = Math.max(0, (to - i) >> 2);
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let w = 0; w < words; w++) {
      if ((view[w]! & 0x80808080) !== 0) {
        i += w << 2;
        for (;; i++) if (bytes[i]! >= 0x80) return i;
      }
    }
    i += words << 2;
  }
  for (; i < to; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}
