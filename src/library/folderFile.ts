// One picked file of "Open folder…", read as `loupe index` reads a file (src/cli/indexFile.ts):
// the viewer's ingest, light, then the index's rows (analysis/fileRows.ts). In the folder worker,
// or on the page where a worker cannot start.
import { headOfBlob, rowsOfFile, unreadableRows, type FileRows, type HeadFile } from '../analysis/fileRows';
import { rowsOfDatabaseBlob } from '../analysis/openCodeRows';
import { ingest } from '../model';

export interface FolderFile {
  /** The path inside the picked folder: the row's name. */
  path: string;
  file: File;
  /** A database's write-ahead log picked with it (`<name>-wal`): its latest writes may be only there. */
  wal?: File;
  /** The file a harness keeps beside the session saying more of its head (Cline's `<id>.json`), picked with it. */
  headFile?: HeadFile;
}

/** The file's rows: one, or for a database (OpenCode's) one per session a person started, as `loupe index` writes them. */
export async function indexPickedFile({ path, file, wal, headFile }: FolderFile): Promise<FileRows[]> {
  try {
    const databaseRows = await rowsOfDatabaseBlob(file, wal, path, file.lastModified);
    if (databaseRows !== null) return databaseRows;
    const session = await ingest(file, { detail: 'light', keepEvents: false, keep: 'rows' });
    return [rowsOfFile(session, { file: path, bytes: file.size, modifiedMs: file.lastModified, head: await headOfBlob(file, headFile) })];
  } catch (error) {
    return [unreadableRows(error)];
  }
}
