// One session file as the index's rows: what `loupe index` writes for a file on disk
// (cli/indexFile.ts) and "Open folder…" keeps for a picked one (library/folderFile.ts). Each reads
// the bytes its own way; what the rows say is decided here.
import { HEAD_MAX_BYTES, headComplete, headOfText, noteHeadFile, projectOf, timeInCaptureName } from '../ingest/harnesses/head';
import { headOfOpenCodeDatabase } from '../ingest/harnesses/opencode';
import { isSqlite } from '../ingest/sqlite/wal';
import type { SessionHead } from '../ingest/harnesses';
import type { Session } from '../model/session';
import { fleetRows, type FleetRows } from './fleet';

export type FileRows = { state: 'indexed'; rows: FleetRows } | { state: 'not-a-session' } | { state: 'unreadable'; why: string };

export interface SessionFileFacts {
  /** The row's name: an absolute path, or the path inside a picked folder. */
  file: string;
  bytes: number;
  modifiedMs: number;
  /** What its first lines say (ingest/harnesses/head.ts). */
  head: SessionHead;
}

/** The rows of a session read to its end (light is enough), or why it has none. */
export function rowsOfFile(session: Session, facts: SessionFileFacts): FileRows {
  // Decided by the whole read, not the first lines: a Zed export is one JSON array, which no line of its own names.
  if (session.format === 'unknown' || session.format === 'empty') return { state: 'not-a-session' };
  const { head, file } = facts;
  return {
    state: 'indexed',
    rows: fleetRows(session, {
      file,
      bytes: facts.bytes,
      modifiedMs: Math.round(facts.modifiedMs),
      headFormat: head.format,
      project: projectOf(head, file),
      startedMs: head.startMs ?? timeInCaptureName(file.slice(file.lastIndexOf('/') + 1)) ?? null,
      sessionId: head.sessionId,
      title: head.title,
    }),
  };
}

/** What a failed read says, as a row's reason. */
export function unreadableRows(error: unknown): FileRows {
  return { state: 'unreadable', why: error instanceof Error ? error.message : String(error) };
}

/** Most heads are said in the first kilobytes; a Codex rollout's first line can take megabytes. */
const FIRST_HEAD_BYTES = 256 * 1024;

/** A file picked beside a session that says more of its head (Harness.headFileOf), and the harness that names it so. */
export interface HeadFile {
  format: string;
  blob: Blob;
}

/**
 * What a picked file's first lines say (ingest/harnesses/head.ts), read from as little of it as
 * will do; with what the harness's file beside it adds (Cline's `<id>.json`: its directory), as
 * `loupe ls` reads it (cli/sessions.ts).
 */
export async function headOfBlob(blob: Blob, beside?: HeadFile): Promise<SessionHead> {
  // A SQLite database (OpenCode's) has no first lines: it is read whole (a picked file comes without its -wal).
  if (isSqlite(new Uint8Array(await blob.slice(0, 16).arrayBuffer()))) return headOfOpenCodeDatabase(new Uint8Array(await blob.arrayBuffer()));
  let head = headOfText(await blob.slice(0, FIRST_HEAD_BYTES).text());
  if (!headComplete(head) && blob.size > FIRST_HEAD_BYTES) head = headOfText(await blob.slice(0, HEAD_MAX_BYTES).text());
  if (!headComplete(head) && beside !== undefined && beside.format === head.format && beside.blob.size <= HEAD_MAX_BYTES) noteHeadFile(head, await beside.blob.text());
  return head;
}
