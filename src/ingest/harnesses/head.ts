// What a session file's first lines say about it: its format (the first line of a known shape),
// session id, working directory, start and title. `loupe ls` and `loupe index` read it from a file
// on disk, "Open folder…" from a picked file: one reading, each harness adding what its own lines
// say (Harness.noteHead).
import { classify } from '../classify';
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

/** A file as the head reader sees it: a file on disk (`loupe ls`, `loupe index`) or a picked one (a Blob). */
export interface HeadSource {
  /** Its bytes from `start` to `end`, fewer at its end. */
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
  const head = emptyHead();
  // Each line decoded by itself: a byte order mark before the first is dropped (CONTRACTS §1).
  const decoder = new TextDecoder();
  let pending = new Uint8Array(0);
  let offset = 0;
  let lines = 0;
  while (offset < HEAD_MAX_BYTES && lines < HEAD_LINES) {
    const chunk = await source.slice(offset, offset + HEAD_CHUNK);
    if (offset === 0 && isSqlite(chunk)) return source.databaseHead ? source.databaseHead() : head;
    if (chunk.length === 0) break;
    offset += chunk.length;
    const joined = new Uint8Array(pending.length + chunk.length);
    joined.set(pending);
    joined.set(chunk, pending.length);
    let start = 0;
    let newline;
    while ((newline = joined.indexOf(10, start)) >= 0 && lines < HEAD_LINES) {
      lines++;
      noteHeadLine(head, decoder.decode(joined.subarray(start, newline)), lines);
      if (headComplete(head)) return head;
      start = newline + 1;
    }
    pending = joined.subarray(start);
  }
  // A last line without a newline (a session still being written).
  if (pending.length > 0 && pending.length < HEAD_MAX_BYTES && lines < HEAD_LINES) noteHeadLine(head, decoder.decode(pending), lines + 1);
  return head;
}

/** The head of a Blob (a picked or dropped file), read from as little of it as will do. */
export function blobHeadSource(blob: Blob, databaseHead?: () => Promise<SessionHead>): HeadSource {
  return { slice: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()), ...(databaseHead ? { databaseHead } : {}) };
}

/** The directory the agent worked in, where the file says; else what the harness's folder names say. */
export function projectOf(head: SessionHead, path: string): string | null {
  return head.cwd ?? harnessOfFormat(head.format)?.projectFromPath?.(path) ?? null;
}
