// One session file as the index's rows: what `loupe index` writes for a file on disk
// (cli/indexFile.ts) and "Open folder…" keeps for a picked one (library/folderFile.ts). Each reads
// the bytes its own way; what the rows say is decided here.
import { blobHeadSource, HEAD_MAX_BYTES, headComplete, noteHeadFile, projectOf, readHead } from '../ingest/harnesses/head';
import { timeInCaptureName } from '../ingest/captureName';
import { headOfOpenCodeDatabase } from '../ingest/harnesses/opencode';
import type { SessionHead } from '../ingest/harnesses';
import { fail, ok, type Result } from '../ingest/result';
import type { Session } from '../model/session';
import { fleetRows, type FleetRows } from './fleet';

/** A file's rows; null when it holds no session (nothing to index, not a failure); the error: why it could not be read. */
export type FileRows = Result<FleetRows | null>;

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
  if (session.format === 'unknown' || session.format === 'empty') return ok(null);
  const { head, file } = facts;
  return ok(
    fleetRows(session, {
      file,
      bytes: facts.bytes,
      modifiedMs: Math.round(facts.modifiedMs),
      headFormat: head.format,
      project: projectOf(head, file),
      startedMs: head.startMs ?? timeInCaptureName(file.slice(file.lastIndexOf('/') + 1)) ?? null,
      sessionId: head.sessionId,
      title: head.title,
    }),
  );
}

/** What a failed read says, as a row's reason. */
export function unreadableRows(error: unknown): FileRows {
  return fail(error instanceof Error ? error.message : String(error));
}

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
  // A SQLite database (OpenCode's) is read whole (a picked file comes without its -wal).
  const head = await readHead(blobHeadSource(blob, async () => headOfOpenCodeDatabase(new Uint8Array(await blob.arrayBuffer()))));
  if (!headComplete(head) && beside !== undefined && beside.format === head.format && beside.blob.size <= HEAD_MAX_BYTES) noteHeadFile(head, await beside.blob.text());
  return head;
}
