// One picked file of "Open folder…", read as `loupe index` reads a file (src/cli/indexFile.ts):
// the viewer's ingest, light, then the index's rows (analysis/fileRows.ts). In the folder worker,
// or on the page where a worker cannot start.
import { headOfBlob, rowsOfFile, unreadableRows, type FileRows } from '../analysis/fileRows';
import { ingest } from '../model';

export interface FolderFile {
  /** The path inside the picked folder: the row's name. */
  path: string;
  file: File;
}

export async function indexPickedFile({ path, file }: FolderFile): Promise<FileRows> {
  try {
    const session = await ingest(file, { detail: 'light' });
    return rowsOfFile(session, { file: path, bytes: file.size, modifiedMs: file.lastModified, head: await headOfBlob(file) });
  } catch (error) {
    return unreadableRows(error);
  }
}
