// What a session file's first lines say about it: its format (the first line of a known shape),
// session id, working directory, start and title. `loupe ls` and `loupe index` read it from a file
// on disk, "Open folder…" from a picked file: one reading, each harness adding what its own lines
// say (Harness.noteHead).
import { classify } from '../classify';
import { documentKindOf, JsonDocumentSplitter } from '../jsonDocument';
import { isJsonObject } from '../json';
import { isSqlite } from '../sqlite/wal';
import { harnessOfFormat } from './index';
import { objectAt, stringAt } from './headFields';
import type { SessionHead } from './types';

/** A Codex rollout's first line holds the harness's whole instructions: read that far, no further. */
export const HEAD_MAX_BYTES = 2 * 1024 * 1024;
export const HEAD_LINES = 200;

export function emptyHead(): SessionHead {
  return { format: 'unknown', sessionId: null, cwd: null, startMs: undefined, title: null, titleIsCommand: false };
}

/** Everything a head can say has been said: no need to read further. */
export function headComplete(head: SessionHead): boolean {
  return head.format !== 'unknown' && head.sessionId !== null && head.cwd !== null && head.startMs !== undefined && head.title !== null && !head.titleIsCommand;
}

/** Adds what line `line` (1-based) says to `head`; a line that is not a JSON object says nothing. */
export function noteHeadLine(head: SessionHead, text: string, line: number): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  if (!isJsonObject(value)) return;
  const shape = classify(value, text, { line, offset: 0, length: 0 }).shape;
  if (head.format === 'unknown' && shape !== undefined) head.format = shape;
  harnessOfFormat(shape ?? head.format)?.noteHead(head, value);
  // The earliest time of the lines read: Claude Code writes queued-prompt entries before the prompt that started them.
  const payload = objectAt(value, 'payload');
  const time = stringAt(value, 'timestamp') ?? stringAt(value, 'at') ?? stringAt(payload, 'timestamp') ?? stringAt(value, 'startTime');
  const ms = time === null ? NaN : Date.parse(time);
  if (Number.isFinite(ms) && (head.startMs === undefined || ms < head.startMs)) head.startMs = ms;
}

/**
 * A head read line by line: each line on its own, or, when the first two open a pretty-printed
 * document (an older Gemini CLI's `.json`, Cline's `.messages.json`), each of its records as the
 * reader splits them (jsonDocument.ts).
 */
export class HeadLines {
  readonly head = emptyHead();
  private lines = 0;
  /** A first line `{` alone: the next says whether it opens a document. */
  private held: string | null = null;
  private sniffing = true;
  private document: JsonDocumentSplitter | null = null;

  /** Adds the next line; true when the head says all it can (no need to read on). */
  push(text: string): boolean {
    this.lines++;
    if (this.document) {
      this.document.pushLine(text, this.lines, 0);
      return this.document.closed || headComplete(this.head);
    }
    if (this.sniffing && text.trim() !== '') {
      if (this.held === null && text.trim() === '{') {
        this.held = text;
        return false;
      }
      this.sniffing = false;
      const held = this.held;
      if (held !== null) {
        const kind = documentKindOf(held, text);
        if (kind !== null) {
          this.document = new JsonDocumentSplitter('messages', (part) => noteHeadLine(this.head, part.text, part.line), kind);
          this.document.pushLine(held, this.lines - 1, 0);
          this.document.pushLine(text, this.lines, 0);
          return headComplete(this.head);
        }
        noteHeadLine(this.head, held, this.lines - 1);
      }
    }
    noteHeadLine(this.head, text, this.lines);
    return headComplete(this.head);
  }
}

/** Adds what a harness's file beside the session says (Harness.headFileOf) to `head`: its text, one JSON object. */
export function noteHeadFile(head: SessionHead, text: string): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  if (isJsonObject(value)) harnessOfFormat(head.format)?.noteHead(head, value);
}

/** A file as the head reader sees it: a file on disk (`loupe ls`, `loupe index`) or a picked one (a Blob). */
export interface HeadSource {
  /** Its bytes from `start` to `end`, fewer at its end; not overwritten by the next slice (a line cut at its end is joined to that one). */
  slice(start: number, end: number): Promise<Uint8Array>;
  /** What a SQLite database (OpenCode's), which has no first lines, says; absent: nothing. */
  databaseHead?: () => Promise<SessionHead>;
}

const HEAD_CHUNK = 64 * 1024;

/**
 * What a file's first lines say (at most HEAD_LINES of them, within HEAD_MAX_BYTES; a last line
 * without a newline counts), read a chunk at a time until the head is complete.
 */
export async function readHead(source: HeadSource): Promise<SessionHead> {
  const reader = new HeadLines();
  const head = reader.head;
  // Each line decoded by itself: a byte order mark before the first is dropped (CONTRACTS §1).
  const decoder = new TextDecoder();
  let pending: Uint8Array = new Uint8Array(0);
  let offset = 0;
  let lines = 0;
  while (offset < HEAD_MAX_BYTES && lines < HEAD_LINES) {
    const chunk = await source.slice(offset, offset + HEAD_CHUNK);
    if (offset === 0 && isSqlite(chunk)) return source.databaseHead ? source.databaseHead() : head;
    if (chunk.length === 0) break;
    offset += chunk.length;
    // Lines are only read from it: a chunk with no line begun before it is taken as it is (the whole
    // first chunk, most often all a head reads), not copied.
    const joined = pending.length === 0 ? chunk : concat(pending, chunk);
    let start = 0;
    let newline;
    while ((newline = joined.indexOf(10, start)) >= 0 && lines < HEAD_LINES) {
      lines++;
      if (reader.push(decoder.decode(joined.subarray(start, newline)))) return head;
      start = newline + 1;
    }
    pending = joined.subarray(start);
  }
  // A last line without a newline (a session still being written).
  if (pending.length > 0 && pending.length < HEAD_MAX_BYTES && lines < HEAD_LINES) reader.push(decoder.decode(pending));
  return head;
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

/** The head of a Blob (a picked or dropped file), read from as little of it as will do. */
export function blobHeadSource(blob: Blob, databaseHead?: () => Promise<SessionHead>): HeadSource {
  return { slice: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()), ...(databaseHead ? { databaseHead } : {}) };
}

/** The directory the agent worked in, where the file says; else what the harness's folder names say. */
export function projectOf(head: SessionHead, path: string): string | null {
  return head.cwd ?? harnessOfFormat(head.format)?.projectFromPath?.(path) ?? null;
}
