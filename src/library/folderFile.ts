// One picked file of "Open folder…", read as `loupe index` reads a file (src/cli/indexFile.ts):
// the viewer's ingest, light, then the index's rows. In the folder worker, or on the page where
// a worker cannot start.
import { fleetRows, type FleetRows } from '../analysis/fleet';
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
    // The CLI takes project, start and session id from the file's first lines as well; here the
    // records alone say them (the start from the first timed record, fleetRows' fallback).
    return {
      state: 'indexed',
      rows: fleetRows(session, { file: path, bytes: file.size, modifiedMs: file.lastModified, headFormat: session.format, project: null, startedMs: null, sessionId: null }),
    };
  } catch (error) {
    return { state: 'unreadable', why: error instanceof Error ? error.message : String(error) };
  }
}

