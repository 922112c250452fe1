// Chunk-safe line splitting over raw bytes. Newline positions are found in the bytes (so byte
// offsets are exact and the ledger can hash a line's exact bytes), while the text is decoded once
// per chunk: U+000A never occurs inside a multi-byte UTF-8 sequence, so the k-th newline byte and
// the k-th '\n' of the decoded text are the same line break.

export interface RawLine {
  /** 1-based line number in the input. */
  line: number;
  /** Byte offset of the line's first byte (after a BOM on line 1). */
  offset: number;
  /** The line's text without its terminator (LF or CRLF). */
  text: string;
  /** The line's exact bytes without its terminator. Valid only during the callback. */
  bytes: Uint8Array;
  /** False for a last line that ended without a newline. */
  terminated: boolean;
}

const LF = 10;
const CR = 13;

export class LineReader {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private carry: Uint8Array[] = [];
  private carryLength = 0;
  private lineNo = 0;
  private offset = 0;
  private atStart = true;
  bytesRead = 0;

  constructor(private readonly onLine: (line: RawLine) => void) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.bytesRead += chunk.length;
    let bytes = chunk;
    if (this.carryLength > 0) {
      const firstNewline = chunk.indexOf(LF);
      if (firstNewline < 0) {
        this.keep(chunk);
        return;
      }
      // Only the line that straddles the chunk boundary is copied; the rest is used in place.
      this.keep(chunk.subarray(0, firstNewline + 1));
      const joined = this.takeCarry();
      this.emitRegion(joined, joined.length);
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
    if (this.carryLength === 0) return;
    let bytes = this.takeCarry();
    if (this.atStart) bytes = this.skipBom(bytes);
    if (bytes.length === 0) return;
    let end = bytes.length;
    if (bytes[end - 1] === CR) end--;
    this.lineNo++;
    const text = this.decoder.decode(bytes.subarray(0, end));
    this.onLine({ line: this.lineNo, offset: this.offset, text, bytes: bytes.subarray(0, end), terminated: false });
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
    const text = this.decoder.decode(bytes.subarray(0, end));
    let textStart = 0;
    let byteStart = 0;
    while (byteStart < end) {
      const byteNewline = bytes.indexOf(LF, byteStart);
      const textNewline = text.indexOf('\n', textStart);
      let byteEnd = byteNewline;
      let textEnd = textNewline;
      if (byteEnd > byteStart && bytes[byteEnd - 1] === CR) {
        byteEnd--;
        textEnd--;
      }
      this.lineNo++;
      this.onLine({
        line: this.lineNo,
        offset: this.offset,
        text: text.slice(textStart, textEnd),
        bytes: bytes.subarray(byteStart, byteEnd),
        terminated: true,
      });
      this.offset += byteNewline + 1 - byteStart;
      byteStart = byteNewline + 1;
      textStart = textNewline + 1;
    }
  }

  private keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
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
