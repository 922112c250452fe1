// One picked file of "Open folder…", read as `loupe index` reads a file (src/cli/indexFile.ts):
// the viewer's ingest, light, then the index's rows. In the folder worker, or on the page where
// a worker cannot start.
import { fleetRows, type FleetRows } from '../analysis/fleet';
import { HEAD_MAX_BYTES, headComplete, headOfText, projectOf, timeInCaptureName, type SessionHead } from '../analysis/sessionHead';
import { ingest } from '../model';

export interface FolderFile {
  /** The path inside the picked folder: the row's name. */
  path: string;
  file: File;
}

export type FolderFileResult = { state: 'indexed'; rows: FleetRows } | { state: 'not-a-session' } | { state: 'unreadable'; why: string };

export async function indexPickedFile({ path, file }: FolderFile): Promise<FolderFileResult> {
  try {
    const session = await ingest(file, { detail: 'light' });
    // Decided by the whole read, as `loupe index` decides: some other JSON file in the folder.
    if (session.format === 'unknown' || session.format === 'empty') return { state: 'not-a-session' };
    // Project, start and session id from the file's first lines, as the CLI takes them.
    const head = await headOfFile(file);
    const parts = path.split('/');
    return {
      state: 'indexed',
      rows: fleetRows(session, {
        file: path,
        bytes: file.size,
        modifiedMs: file.lastModified,
        headFormat: head.format,
        project: projectOf(head, parts.at(-2) ?? ''),
        startedMs: head.startMs ?? timeInCaptureName(parts.at(-1) ?? '') ?? null,
        sessionId: head.sessionId,
      }),
    };
  } catch (error) {
    return { state: 'unreadable', why: error instanceof Error ? error.message : String(error) };
  }
}


/** Most heads are said in the first kilobytes; a Codex rollout's first line can take megabytes. */
const FIRST_HEAD_BYTES = 256 * 1024;

async function headOfFile(file: File): Promise<SessionHead> {
  const head = headOfText(await file.slice(0, FIRST_HEAD_BYTES).text());
  if (headComplete(head) || file.size <= FIRST_HEAD_BYTES) return head;
  return headOfText(await file.slice(0, HEAD_MAX_BYTES).text());
}
