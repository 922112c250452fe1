// One file of `loupe index`: read with the viewer's ingest, light (rows only, as `loupe summarize`
// reads), and turned into rows (analysis/fileRows.ts, which "Open folder…" uses too). Runs in an
// index worker thread, or in the calling thread.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { rowsOfFile, type FileRows } from '../analysis/fileRows';
import { ingest } from '../model';
import { readFailure, walBeside, whyUnreadable } from './files';
import { readHead } from './sessions';
import { withSubagentBytes } from './subagentFiles';

/** `subagents`: the session's sub-agents' own files (CONTRACTS §10), read with it as one input so their calls have parents. */
export async function indexFile(path: string, subagents: readonly string[] = []): Promise<FileRows> {
  const unreadable = await whyUnreadable(path);
  if (unreadable !== null) return { state: 'unreadable', why: unreadable };
  try {
    const info = await stat(path);
    const head = await readHead(path);
    // A database's log before the database (walBeside says why).
    const wal = await walBeside(path);
    const bytes = subagents.length > 0 ? withSubagentBytes(path, subagents) : createReadStream(path, { highWaterMark: 1 << 20 });
    const session = await ingest(bytes, { detail: 'light', wal });
    let size = info.size;
    for (const subagent of subagents) size += (await stat(subagent)).size;
    return rowsOfFile(session, { file: path, bytes: size, modifiedMs: info.mtimeMs, head });
  } catch (error) {
    // The file changed between the check and the read (removed, its mode changed, a disk error).
    return { state: 'unreadable', why: readFailure(path, error) };
  }
}
