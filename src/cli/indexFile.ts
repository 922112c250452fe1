// One file of `loupe index`: read with the viewer's ingest, light (rows only, as `loupe summarize`
// reads), and turned into rows. Runs in an index worker thread, or in the calling thread.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fleetRows, type FleetRows } from '../analysis/fleet';
import { ingest } from '../model';
import { readFailure, whyUnreadable } from './files';
import { describe } from './sessions';

export type IndexedFile =
  | { state: 'indexed'; rows: FleetRows }
  /** No record has a shape Loupe reads: some other JSON file in the folder. */
  | { state: 'not-a-session' }
  | { state: 'unreadable'; why: string };

export async function indexFile(path: string): Promise<IndexedFile> {
  const unreadable = await whyUnreadable(path);
  if (unreadable !== null) return { state: 'unreadable', why: unreadable };
  try {
    const info = await stat(path);
    const head = await describe(path, Date.now(), []);
    if (head === null) return { state: 'unreadable', why: `no such file: ${path}` };
    const session = await ingest(createReadStream(path, { highWaterMark: 1 << 20 }), { detail: 'light' });
    // Decided by the whole read, not the first lines: a Zed export is one JSON array, which no line of its own names.
    if (session.format === 'unknown' || session.format === 'empty') return { state: 'not-a-session' };
    const startedMs = head.startedAt === null ? null : Date.parse(head.startedAt);
    return {
      state: 'indexed',
      rows: fleetRows(session, {
        file: path,
        bytes: info.size,
        modifiedMs: Math.round(info.mtimeMs),
        headFormat: head.format,
        project: head.project,
        startedMs: startedMs !== null && Number.isFinite(startedMs) ? startedMs : null,
        sessionId: head.sessionId,
      }),
    };
  } catch (error) {
    // The file changed between the check and the read (removed, its mode changed, a disk error).
    return { state: 'unreadable', why: readFailure(path, error) };
  }
}
