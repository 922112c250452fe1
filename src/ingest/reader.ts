// The byte reader: bytes in any chunking → records. It splits lines (or the elements of a
// top-level JSON array, sniffed from the first non-blank line), parses and classifies each one,
// and hands the model records and bad lines with their locations (CONTRACTS §1–§2). A light read
// skims long lines (skim.ts): the bulk it never keeps is checked on its bytes, not parsed.
import type { SourceLocation } from './acpTypes';
import { classify, classifyTextLog } from './classify';
import { JsonArraySplitter, type ArrayElement } from './jsonArray';
import { documentKindOf, JsonDocumentSplitter, type DocumentPart } from './jsonDocument';
import { LineReader, MAX_LINE_BYTES, type RawLine } from './lines';
import type { IngestRecord } from './records';
import { isJsonObject, type JsonObject } from './schemas';
import { LineSkimmer, splicedText, type Skimmer } from './skim';
import { readTextLogLine } from './textLog';

/** A record's exact bytes: `source[start, end)`. Valid only during the call it is handed to. */
export interface ByteRange {
  source: Uint8Array;
  start: number;
  end: number;
}

export interface RecordSink {
  /** A line or element about to be read as a record or a bad line (the ledger chain counts it). */
  beginLine(line: number): void;
  /** A record (event or unknown), with its exact bytes where it is a line of its own. */
  record(record: IngestRecord, bytes: ByteRange | null): void;
  /** A line or element that is not a record (CONTRACTS §2). */
  bad(line: number, offset: number, reason: string, text: string): void;
  warning(line: number, message: string): void;
}

export interface RecordReaderOptions {
  /** Skim the bulk a light read leaves in the source instead of parsing it. */
  light?: boolean;
  /** Decode each line on its own, not a chunk at a time (LineReader says when that pays). */
  decodeEachLine?: boolean;
}

/**
 * Shorter lines are parsed whole. Checking bytes in JS costs about what JSON.parse spends on the
 * same string bytes; what a skim saves is the strings' allocation and garbage, and that pays only
 * on long lines (measured: 20% faster on lines of 4–32 KB, slower on lines of 0.5–4 KB, where a
 * third of the lines skimmed have no bulk).
 */
export const SKIM_MIN_LINE_BYTES = 4096;

const encoder = new TextEncoder();

export class RecordReader {
  // In a browser lines are decoded a run of ASCII lines at a time unless told (decodeEachLine): one
  // TextDecoder call per line costs microseconds in Chromium, where a run's decoding is a bulk
  // copy. In Node it is the other way round (lines.ts).
  private readonly lineReader: LineReader;
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private mode: 'sniff' | 'lines' | 'array' | 'document' = 'sniff';
  private array: JsonArraySplitter | null = null;
  private document: JsonDocumentSplitter | null = null;
  /** A first line `{` alone: the next line says whether it opens a pretty-printed Gemini or Cline `.json` (jsonDocument.ts). */
  private held: RawLine | null = null;
  private readonly skimmer: Skimmer | null;
  private readonly scratch = { buffer: new Uint8Array(1 << 16) };

  constructor(private readonly sink: RecordSink, options: RecordReaderOptions = {}) {
    this.skimmer = options.light ? new LineSkimmer() : null;
    this.lineReader = new LineReader((line) => this.onLine(line), MAX_LINE_BYTES, options.decodeEachLine);
  }

  get bytesRead(): number {
    return this.lineReader.bytesRead;
  }

  /** Lines read so far, blank ones included. */
  get lines(): number {
    return this.lineReader.lines;
  }

  push(chunk: Uint8Array): void {
    // A plain view: `subarray` on a Node Buffer goes through its species constructor, much slower.
    if (chunk.constructor !== Uint8Array) chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    this.lineReader.push(chunk);
  }

  end(): void {
    this.lineReader.end();
    const held = this.held;
    if (held) {
      this.held = null;
      this.mode = 'lines';
      this.onLine(held);
    }
    if (this.document) {
      this.document.end();
      if (!this.document.closed) this.sink.warning(this.lineReader.lines, 'the JSON object was not closed (input truncated?)');
    }
    if (!this.array) return;
    const open = this.array.end();
    if (open) this.sink.bad(open.line, open.offset, 'truncated: the input ended inside this array element', open.text);
    else if (!this.array.closed) this.sink.warning(this.lineReader.lines, 'the JSON array was not closed (input truncated?)');
  }

  private onLine(raw: RawLine): void {
    if (raw.tooLong !== undefined) {
      return this.sink.bad(raw.line, raw.offset, `line too long to read: ${raw.tooLong.toLocaleString('en')} bytes (the limit is ${MAX_LINE_BYTES.toLocaleString('en')})`, raw.text);
    }
    if (this.mode === 'array') return this.onArrayLine(raw, raw.text);
    if (isBlankText(raw.text)) return;
    if (this.mode === 'document') return this.onDocumentLine(raw);
    if (this.held) {
      const held = this.held;
      this.held = null;
      const kind = documentKindOf(held.text, raw.text);
      if (kind !== null) {
        this.mode = 'document';
        this.document = new JsonDocumentSplitter('messages', (part) => this.onDocumentPart(part), kind);
        this.onDocumentLine(held);
        return this.onDocumentLine(raw);
      }
      this.mode = 'lines';
      this.onLine(held);
    }
    if (this.mode === 'sniff') {
      if (raw.text.trim() === '{') {
        // Copied: a line's bytes are valid only during its callback.
        this.held = { ...raw, source: raw.source.slice(raw.start, raw.end), start: 0, end: raw.end - raw.start };
        return;
      }
      this.mode = 'lines';
      const text = raw.text;
      if (startsArray(text)) {
        this.mode = 'array';
        this.array = new JsonArraySplitter((element) => this.onElement(element));
        return this.onArrayLine(raw, text);
      }
    }
    this.sink.beginLine(raw.line);
    const loc = { line: raw.line, offset: raw.offset, length: raw.end - raw.start };
    if (this.skimmer && raw.end - raw.start >= SKIM_MIN_LINE_BYTES && this.readSkimmed(this.skimmer, raw, loc)) return;
    const text = raw.text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // A text log line (`… IN: {…}`) carries its message after a prefix (CONTRACTS §1).
      const logged = readTextLog(text, loc);
      if (logged) return this.sink.record(logged, raw);
      const reason = raw.terminated ? `not JSON: ${errorMessage(error)}` : `truncated last line (no newline at the end): ${errorMessage(error)}`;
      return this.sink.bad(raw.line, raw.offset, reason, text);
    }
    if (!isJsonObject(value)) return this.sink.bad(raw.line, raw.offset, `JSON is not an object (${describeType(value)})`, text);
    this.sink.record(classify(value, text, loc), raw);
  }

  /**
   * Reads a line with its bulk left out; false when that reading is not the line's (it is not
   * JSON, has no bulk, or the bulk turned out not to be a tool call's): the caller reads it whole.
   */
  private readSkimmed(skimmer: Skimmer, raw: RawLine, loc: SourceLocation): boolean {
    if (!skimmer.skim(raw.source, raw.start, raw.end) || skimmer.spans.length === 0) return false;
    const text = splicedText(raw.source, raw.start, raw.end, skimmer.spans, this.decoder, this.scratch);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Valid on its bytes, yet JSON.parse refuses it (nesting too deep): the plain reading says why.
      return false;
    }
    if (!isJsonObject(value)) return false;
    const record = classify(value, text, loc);
    for (const path of skimmer.parents) if (!heldOut(record, value, path)) return false;
    this.sink.record(record, raw);
    return true;
  }


  private onArrayLine(raw: RawLine, text: string): void {
    const array = this.array!;
    if (array.closed) {
      // Text after the array: read on as JSON lines, so nothing after it is lost.
      this.mode = 'lines';
      return this.onLine(raw);
    }
    const rest = array.pushLine(text, raw.line, raw.offset);
    if (rest >= 0 && !isBlankText(text.slice(rest))) {
      this.sink.bad(raw.line, raw.offset, array.closed ? 'text after the end of the JSON array' : 'text before the JSON array', text.slice(rest));
    }
  }

  private onDocumentLine(raw: RawLine): void {
    const document = this.document!;
    if (document.closed) {
      // Text after the object: another document (a session read with its sub-agents' files, each
      // one object) or JSON lines, so nothing after it is lost.
      this.mode = 'sniff';
      this.document = null;
      return this.onLine(raw);
    }
    document.pushLine(raw.text, raw.line, raw.offset);
  }

  /** A part of a pretty-printed object (its head, an element of its array, its tail): one record. */
  private onDocumentPart(part: DocumentPart): void {
    if (part.part === 'element') return this.onElement(part);
    this.sink.beginLine(part.line);
    let value: unknown;
    try {
      value = JSON.parse(part.text);
    } catch (error) {
      return this.sink.bad(part.line, part.offset, `not JSON: ${errorMessage(error)}`, part.text);
    }
    if (!isJsonObject(value)) return this.sink.bad(part.line, part.offset, `JSON is not an object (${describeType(value)})`, part.text);
    // Not the file's bytes (the array is left out): no byte range, nothing to read again.
    this.sink.record(classify(value, part.text, { line: part.line, offset: part.offset, length: 0 }), null);
  }

  private onElement(element: ArrayElement): void {
    this.sink.beginLine(element.line);
    let value: unknown;
    try {
      value = JSON.parse(element.text);
    } catch (error) {
      return this.sink.bad(element.line, element.offset, `not JSON: ${errorMessage(error)}`, element.text);
    }
    if (!isJsonObject(value)) return this.sink.bad(element.line, element.offset, `JSON is not an object (${describeType(value)})`, element.text);
    const bytes = encoder.encode(element.text);
    this.sink.record(classify(value, element.text, { line: element.line, offset: element.offset, length: bytes.length }), { source: bytes, start: 0, end: bytes.length });
  }
}

/**
 * Whether the object at `path` in the line (one a skim left bulk out of) was read as a tool call's
 * update or a ledger result, whose bulk a light read does not keep.
 */
function heldOut(record: IngestRecord, root: JsonObject, path: readonly string[]): boolean {
  let parent: unknown = root;
  for (const key of path) {
    if (!isJsonObject(parent) || !Object.hasOwn(parent, key)) return false;
    parent = parent[key];
  }
  const body = record.body;
  switch (body.kind) {
    case 'update':
      return body.update.type === 'tool' && body.update.fields === parent;
    case 'request':
      return body.permission?.toolCall?.fields === parent;
    case 'ledger':
      return body.body.type === 'tool_result' && body.line.data === parent;
    default:
      return false;
  }
}

/** A text log line's message as a record, or null when the line is not one (its message is not a JSON object). */
export function readTextLog(text: string, loc: SourceLocation): IngestRecord | null {
  const logged = readTextLogLine(text);
  if (!logged) return null;
  let message: unknown;
  try {
    message = JSON.parse(logged.json);
  } catch {
    return null;
  }
  return isJsonObject(message) ? classifyTextLog(message, logged.json, logged.dir, logged.ts, loc) : null;
}

/** Only spaces, tabs, CRs and byte order marks. */
export function isBlankText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff) return false;
  }
  return true;
}

function startsArray(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '[') return true;
  if (!trimmed.startsWith('[')) return false;
  // A one-line array is a JSON-array document; `[1,2` (a broken line) is not.
  try {
    return Array.isArray(JSON.parse(trimmed));
  } catch {
    return false;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
