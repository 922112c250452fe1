// OpenCode's database as index rows: one sessions row per session a person started, its
// sub-agents' child sessions read with it (their calls are the task call's children, which only
// the parent's rows say), and its calls. `loupe index` lists the sessions first and reads only
// those whose rows changed since its last run (cli/indexDatabase.ts); "Open folder…" reads them all.
import { headOfOpenCodeSession } from '../ingest/harnesses/opencode';
import { openOpenCodeDatabase, type DatabaseRow, type OpenCodeDatabase, type OpenCodeSession } from '../ingest/formats/opencode';
import { projectOf } from '../ingest/harnesses/head';
import { isSqlite } from '../ingest/sqlite/wal';
import { SessionBuilder } from '../model';
import type { FileRows } from './fileRows';
import { ok } from '../ingest/result';
import { fleetRows, type FleetRows } from './fleet';

/** A session a person started and the sub-agents' sessions under it: one row of the sessions table. */
export interface SessionTree {
  root: OpenCodeSession;
  /** The root's id and its descendants', sorted. */
  members: string[];
  /** The latest change to any of their rows (OpenCode's `time_updated`). */
  updatedMs: number | null;
}

/** The database's sessions grouped under the sessions people started, by the root's start. */
export function sessionTrees(sessions: readonly OpenCodeSession[]): SessionTree[] {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const rootOf = (session: OpenCodeSession): OpenCodeSession => {
    const seen = new Set<string>();
    let at = session;
    // A parent that is gone (or a loop a broken copy could hold) makes the session its own root.
    while (at.parentId !== null && !seen.has(at.id)) {
      seen.add(at.id);
      const parent = byId.get(at.parentId);
      if (parent === undefined || seen.has(parent.id)) break;
      at = parent;
    }
    return at;
  };
  const trees = new Map<string, SessionTree>();
  for (const session of sessions) {
    const root = rootOf(session);
    let tree = trees.get(root.id);
    if (!tree) trees.set(root.id, (tree = { root, members: [], updatedMs: null }));
    tree.members.push(session.id);
    if (session.updatedMs !== undefined && (tree.updatedMs === null || session.updatedMs > tree.updatedMs)) tree.updatedMs = session.updatedMs;
  }
  for (const tree of trees.values()) tree.members.sort();
  return [...trees.values()];
}

/** An OpenCode database open for reading rows a session tree at a time. */
export interface OpenCodeRowsReader {
  trees: SessionTree[];
  /**
   * These trees' rows, each handed to `onTree` (in the order given); `file` names the database in
   * them, `fileModifiedMs` stands in for a tree with no times. Their rows are read in one pass:
   * per tree, the statements cost more than the rows when most trees are read.
   */
  rowsOf(trees: readonly SessionTree[], file: string, fileModifiedMs: number, onTree: (tree: SessionTree, rows: FleetRows) => void): Promise<void>;
  close(): void;
}

/** The database open, its sessions listed; null when it is not OpenCode's (another database, bytes SQLite cannot open). */
export async function openCodeRowsReader(main: Uint8Array, wal?: Uint8Array): Promise<OpenCodeRowsReader | null> {
  let db: OpenCodeDatabase;
  try {
    db = await openOpenCodeDatabase(main, wal);
  } catch {
    return null;
  }
  let trees: SessionTree[];
  try {
    if (db.tables !== null) throw new Error('not OpenCode');
    trees = sessionTrees(db.sessions());
  } catch {
    db.close();
    return null;
  }
  return {
    trees,
    async rowsOf(wanted, file, fileModifiedMs, onTree) {
      const members = new Set(wanted.flatMap((tree) => tree.members));
      const rootOf = new Map(wanted.flatMap((tree) => tree.members.map((id) => [id, tree.root.id] as const)));
      const rowsByTree = new Map<string, DatabaseRow[]>();
      for (const row of db.read(members)) {
        const root = row.sessionId === undefined ? undefined : rootOf.get(row.sessionId);
        if (root === undefined) continue;
        let rows = rowsByTree.get(root);
        if (!rows) rowsByTree.set(root, (rows = []));
        rows.push(row);
      }
      const bytes = db.dataBytes(members);
      for (const tree of wanted) {
        const builder = new SessionBuilder({ detail: 'light' });
        await builder.init();
        builder.pushDatabase({ rows: rowsByTree.get(tree.root.id) ?? [], warnings: db.warnings });
        builder.end();
        const head = headOfOpenCodeSession(tree.root);
        const rows = fleetRows(builder.session, {
          file,
          bytes: tree.members.reduce((sum, id) => sum + (bytes.get(id) ?? 0), 0),
          // The session's own last write, not the file's: the database changes whenever any session does.
          modifiedMs: tree.updatedMs ?? Math.round(fileModifiedMs),
          headFormat: 'opencode',
          project: projectOf(head, file),
          startedMs: head.startMs ?? null,
          sessionId: tree.root.id,
          title: head.title,
        });
        rows.session.session = tree.root.id;
        onTree(tree, rows);
      }
    },
    close: () => db.close(),
  };
}

/** Every session tree's rows (what a picked database gives "Open folder…"); null when it is not OpenCode's database. */
export async function rowsOfOpenCodeDatabase(main: Uint8Array, wal: Uint8Array | undefined, file: string, fileModifiedMs: number): Promise<FileRows[] | null> {
  const reader = await openCodeRowsReader(main, wal);
  if (reader === null) return null;
  try {
    const all: FileRows[] = [];
    await reader.rowsOf(reader.trees, file, fileModifiedMs, (_tree, rows) => all.push(ok(rows)));
    return all;
  } finally {
    reader.close();
  }
}

/** A picked file's rows when it is a database (with its picked `-wal`, if any); null when it is not one. */
export async function rowsOfDatabaseBlob(file: Blob, wal: Blob | undefined, path: string, modifiedMs: number): Promise<FileRows[] | null> {
  if (!isSqlite(new Uint8Array(await file.slice(0, 16).arrayBuffer()))) return null;
  // The log before the database, as the CLI reads them (cli/files.ts walBeside says why).
  const log = wal ? new Uint8Array(await wal.arrayBuffer()) : undefined;
  return rowsOfOpenCodeDatabase(new Uint8Array(await file.arrayBuffer()), log, path, modifiedMs);
}
