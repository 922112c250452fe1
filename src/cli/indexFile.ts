// One file of `loupe index`: read with the viewer's ingest, light (rows only, as `loupe summarize`
// reads), and turned into rows (analysis/fileRows.ts, which "Open folder…" uses too). Runs in an
// index worker thread, or in the calling thread.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { rowsOfFile, type FileRows } from '../analysis/fileRows';
import { fail } from '../ingest/result';
import { ingest } from '../model';
import { readFailure, walBeside, whyUnreadable } from './files';
import { readHead } from './sessions';

export async function indexFile(path: string): Promise<FileRows> {
  const unreadable = await whyUnreadable(path);
  if (unreadable !== null) return fail(unreadable);
  try {
    const info = await stat(path);
    const head = await readHead(path);
    // A database's log before the database (walBeside says why).
    const wal = await walBeside(path);
    const session = await ingest(createReadStream(path, { highWaterMark: 1 << 20 }), { detail: 'light', wal });
    return rowsOfFile(session, { file: path, bytes: info.size, modifiedMs: info.mtimeMs, head });
  } catch (error) {
    // The file changed between the check and the read (removed, its mode changed, a disk error).
    return fail(readFailure(path, error));
  }
}
