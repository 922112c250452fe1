// A SQLite database (OpenCode's) in `loupe index`: every session of the machine in one file, so
// the file's size and time say only that some session changed. Its unit in the index is a session
// tree (a session a person started with its sub-agents' sessions, analysis/openCodeRows.ts): the
// database is listed (each tree's latest `time_updated` and its members), and only the trees
// whose rows changed since the manifest's record are read; the others keep their rows, and a tree
// gone from the database drops out. The database is read as the CLI reads it elsewhere: the
// `-wal` first, then the main file, both only read (OpenCode keeps writing undisturbed).
import { readFile, stat } from 'node:fs/promises';
import { openCodeRowsReader, type OpenCodeRowsReader } from '../analysis/openCodeRows';
import type { FleetRows } from '../analysis/fleet';
import { walBeside } from './files';
import { readFailure } from './listable';
import { sameStamp, type FileStamp } from './indexManifest';

/** A unit of the index's rows: a file, or one session tree of a database (its file and root session). */
export function unitKey(file: string, root?: string): string {
  return root === undefined ? file : `${file}\u0000${root}`;
}

/** What a run does with one database. */
export interface DatabasePlan {
  file: string;
  /** What the manifest says of it after this run. */
  stamp: FileStamp;
  /** Trees whose rows the last run wrote and this run keeps (their unit keys). */
  reuse: string[];
  /** Trees to read, by root id. */
  read: Set<string>;
  /** Why it could not be listed; it is then left out. */
  unreadable?: string;
  /** The database as listed, open until `close`. */
  reader: OpenCodeRowsReader | null;
}

/**
 * What changed in a database since `before` (the manifest's record of it). A database whose file
 * and log are as they were is not opened: no row can have changed.
 */
export async function planDatabase(file: string, stamp: Omit<FileStamp, 'state'>, before: FileStamp | undefined): Promise<DatabasePlan> {
  if (before && sameStamp(stamp, before) && (before.state === 'not-a-session' || before.sessions !== undefined)) {
    const reuse = before.state === 'indexed' ? Object.keys(before.sessions ?? {}).map((root) => unitKey(file, root)) : [];
    return { file, stamp: before, reuse, read: new Set(), reader: null };
  }
  const reader = await open(file);
  if (typeof reader === 'string') return { file, stamp: { ...stamp, state: 'not-a-session' }, reuse: [], read: new Set(), unreadable: reader, reader: null };
  if (reader === null) return { file, stamp: { ...stamp, state: 'not-a-session' }, reuse: [], read: new Set(), reader: null };
  const sessions: NonNullable<FileStamp['sessions']> = {};
  const reuse: string[] = [];
  const read = new Set<string>();
  for (const tree of reader.trees) {
    const root = tree.root.id;
    sessions[root] = { updatedMs: tree.updatedMs ?? null, members: tree.members };
    const last = before?.state === 'indexed' ? before.sessions?.[root] : undefined;
    const same = last !== undefined && last.updatedMs === (tree.updatedMs ?? null) && last.members.join('\n') === tree.members.join('\n');
    if (same) reuse.push(unitKey(file, root));
    else read.add(root);
  }
  return { file, stamp: { ...stamp, state: 'indexed', sessions }, reuse, read, reader };
}

/** The database open (null: not OpenCode's), or why it cannot be read. */
async function open(file: string): Promise<OpenCodeRowsReader | null | string> {
  try {
    // The log before the database (walBeside says why).
    const wal = await walBeside(file);
    return await openCodeRowsReader(await readFile(file), wal);
  } catch (error) {
    return readFailure(file, error);
  }
}

/**
 * The rows of the plan's trees to read, each handed to `onTree` as it is read. A tree that cannot
 * be read is left out of the manifest's record, so the next run tries it again.
 */
export async function readPlannedTrees(plan: DatabasePlan, onTree: (root: string, rows: FleetRows) => void): Promise<{ unreadable: string[] }> {
  const unreadable: string[] = [];
  if (plan.read.size === 0) return { unreadable };
  if (plan.reader === null) {
    // Planned without opening it (nothing had changed), then asked for its rows (the tables had to be written anew).
    const reader = await open(plan.file);
    if (typeof reader === 'string' || reader === null) {
      for (const root of plan.read) delete plan.stamp.sessions?.[root];
      return { unreadable: [typeof reader === 'string' ? reader : `${plan.file} is no longer OpenCode's database`] };
    }
    plan.reader = reader;
  }
  const modifiedMs = (await stat(plan.file).catch(() => null))?.mtimeMs ?? 0;
  const wanted = plan.reader.trees.filter((tree) => plan.read.has(tree.root.id));
  try {
    await plan.reader.rowsOf(wanted, plan.file, modifiedMs, (tree, rows) => onTree(tree.root.id, rows));
  } catch (error) {
    // What SQLite could not read is read again next run.
    for (const tree of wanted) delete plan.stamp.sessions?.[tree.root.id];
    unreadable.push(`its sessions could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  // A tree to read that the database no longer holds (it was opened afresh): it drops out.
  for (const root of plan.read) if (!plan.reader.trees.some((tree) => tree.root.id === root)) delete plan.stamp.sessions?.[root];
  return { unreadable };
}

export function closePlan(plan: DatabasePlan): void {
  plan.reader?.close();
  plan.reader = null;
}

/** Each database's members by the root of their tree, as the last run wrote their rows: a calls row names its own session, maybe a sub-agent's. */
export function treeOfRow(before: Readonly<Record<string, FileStamp>>): (file: string, session: string | null) => string | undefined | null {
  const roots = new Map<string, Map<string, string>>();
  for (const [file, stamp] of Object.entries(before)) {
    if (!stamp.database || !stamp.sessions) continue;
    const members = new Map<string, string>();
    for (const [root, { members: ids }] of Object.entries(stamp.sessions)) for (const id of ids) members.set(id, root);
    roots.set(file, members);
  }
  // undefined: not a database's row (its unit is its file); null: a database's row of no tree it had.
  return (file, session) => {
    const members = roots.get(file);
    if (members === undefined) return undefined;
    const root = session === null ? undefined : members.get(session);
    return root === undefined ? null : root;
  };
}
