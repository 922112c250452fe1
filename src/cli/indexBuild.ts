// Builds or refreshes a fleet index: every session file under some folders as rows of
// `calls.parquet` and `sessions.parquet`. A file the manifest says is unchanged keeps the rows the
// last run wrote; only new and changed files are read; files gone from the folders drop out. A
// database (OpenCode's, every session in one file) is kept and read a session tree at a time
// (indexDatabase.ts): the rows' unit is a file, or a database's session tree.
import { createHash } from 'node:crypto';
import { lstat, mkdir, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { CALLS_TABLE, fleetCallOf, fleetSessionOf, SESSIONS_TABLE, type FleetCall, type FleetSession } from '../analysis/fleet';
import { closePlan, planDatabase, readPlannedTrees, treeOfRow, unitKey, type DatabasePlan } from './indexDatabase';
import { indexFiles } from './indexPool';
import { DEFAULT_ROW_GROUP_ROWS, readManifest, sameStamp, stampOf, tableRows, TableWriter, writeManifest, type CodexThreadStamp, type FileStamp } from './indexStore';
import { parentSessionFileOf } from '../ingest/harnesses';
import { sessionFilesUnder, type LeftOut } from './sessions';
import { codexThreadOf, isCodexRollout, threadRoots } from './subagentFiles';

export interface IndexOptions {
  dirs: readonly string[];
  out: string;
  /** Threads to read with (default one per core; 0 reads in this thread). */
  jobs?: number;
  /** Rows per Parquet row group (DEFAULT_ROW_GROUP_ROWS). */
  rowGroupRows?: number;
  /** Only what lies inside the folders (no link or hard link to elsewhere): for a folder that is then served. */
  inside?: boolean;
  /** A folder whose files are never sessions (a team's folder, which holds `out`). */
  skipUnder?: string;
}

export interface IndexResult {
  out: string;
  sessions: number;
  calls: number;
  /** Session files read this run (a database's sessions each count as one). */
  parsed: number;
  /** Files (and databases' sessions) whose rows the last run wrote, kept as they were. */
  reused: number;
  /** What was read this run: files, and the sessions of a database read (`session`: the root session's id). */
  read: { file: string; session?: string }[];
  /** Files named like a session whose first lines have no shape Loupe reads. */
  skipped: number;
  unreadable: { file: string; why: string }[];
  ms: number;
  /** Worker threads that read the files (0: read in this thread). */
  threads: number;
  /** The files the tables hold rows of. */
  indexed: string[];
  /** Files and folders the walk did not read, and why (a link out of the folder, a loop). */
  leftOut: LeftOut[];
}

export async function buildIndex(options: IndexOptions): Promise<IndexResult> {
  const started = performance.now();
  const out = resolve(options.out);
  // Written through a link, the tables would land wherever it points (another user's folder, a shared drive).
  if ((await lstat(out).catch(() => null))?.isSymbolicLink()) throw new Error(`${out} is a symbolic link: give the folder it points to, or another`);
  await mkdir(out, { recursive: true });
  const inside = `${resolve(options.skipUnder ?? out)}${sep}`;
  // The index's own files are not sessions, wherever it is kept.
  const leftOut: LeftOut[] = [];
  const found = [...(await sessionFilesUnder(options.dirs.map((dir) => resolve(dir)), { inside: options.inside ?? false }, leftOut))]
    .filter((file) => !file.startsWith(inside))
    .sort();
  // A sub-agent's own file (CONTRACTS §10) is read with its session's, not as a session of its own:
  // its calls then have their Task call as parent, and it is stamped as part of that session.
  const manifest = await readManifest(out);
  const subagentsOf = subagentFilesByParent(found);
  const codex = await codexThreadsByParent(found, manifest?.threads ?? {});
  for (const [parent, threads] of codex.byRoot) subagentsOf.set(parent, [...(subagentsOf.get(parent) ?? []), ...threads]);
  const grouped = new Set([...subagentsOf.values()].flat());
  const files = found.filter((file) => !grouped.has(file));

  const stamps = new Map<string, FileStamp>();
  const current = new Map<string, Omit<FileStamp, 'state'>>();
  const reuse = new Set<string>();
  let toRead: string[] = [];
  const databases: DatabasePlan[] = [];
  const unreadable: IndexResult['unreadable'] = [];
  const now = Date.now();
  for (const [file, stamp] of await mapLimited(files, 32, (file) => sessionStampOf(file, subagentsOf.get(file) ?? [], manifest?.files[file], now))) {
    const before = manifest?.files[file];
    if (stamp) current.set(file, stamp);
    if (stamp?.database) {
      // Planned by its rows below, not by its time.
      const plan = await planDatabase(file, stamp, before);
      databases.push(plan);
      stamps.set(file, plan.stamp);
      for (const unit of plan.reuse) reuse.add(unit);
      if (plan.unreadable !== undefined) {
        stamps.delete(file);
        unreadable.push({ file, why: plan.unreadable });
      }
      continue;
    }
    if (stamp && before && sameStamp(stamp, before)) {
      stamps.set(file, before);
      if (before.state === 'indexed') reuse.add(file);
    } else {
      toRead.push(file);
    }
  }

  // Nothing new, changed or gone: the tables stand as they are.
  const unitsBefore = Object.values(manifest?.files ?? {}).reduce((sum, stamp) => sum + (stamp.state !== 'indexed' ? 0 : stamp.sessions ? Object.keys(stamp.sessions).length : 1), 0);
  const databaseReads = () => databases.reduce((sum, plan) => sum + plan.read.size, 0);
  if (toRead.length === 0 && databaseReads() === 0 && reuse.size === unitsBefore && unreadable.length === 0) {
    const rows = await tableRows(out);
    if (rows) {
      // A database's log changed (a checkpoint, a write undone) and none of its sessions: what it is now is kept.
      if (manifest && (codex.read > 0 || databases.some((plan) => plan.stamp !== manifest.files[plan.file]))) await writeManifest(out, stamps, manifest.unreadable, codex.threads);
      for (const plan of databases) closePlan(plan);
      const indexed = [...stamps].filter(([, stamp]) => stamp.state === 'indexed').map(([file]) => file);
      return {
        out, sessions: rows.sessions, calls: rows.calls, parsed: 0, reused: reuse.size, read: [], skipped: [...stamps.values()].filter((stamp) => stamp.state === 'not-a-session').length,
        unreadable: [], ms: Math.round(performance.now() - started), threads: 0, indexed, leftOut,
      };
    }
  }

  // Files only added: the tables keep their row groups as they are, and the new files' rows follow.
  // Files changed or gone: the row groups before the first that holds one of them are kept as they
  // are, the kept files' rows after it are written again, and the files read now follow.
  const groupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
  const appended = toRead.length + databaseReads() > 0 && reuse.size > 0 && reuse.size === unitsBefore ? await appendingWriters(out, reuse.size, groupRows) : null;
  const kept = !appended && reuse.size > 0 ? await keepingWriters(out, reuse, treeOfRow(manifest?.files ?? {}), groupRows) : null;
  const calls = appended?.calls ?? kept?.calls ?? new TableWriter(out, CALLS_TABLE, groupRows);
  const sessions = appended?.sessions ?? kept?.sessions ?? new TableWriter(out, SESSIONS_TABLE, groupRows);
  try {
    if (reuse.size > 0 && !appended && !kept) {
      // The tables are not what the manifest says (removed, written by another version): read everything.
      for (const file of reuse) stamps.delete(file);
      for (const plan of databases) {
        for (const root of Object.keys(plan.stamp.sessions ?? {})) plan.read.add(root);
        plan.reuse = [];
        stamps.set(plan.file, plan.stamp);
      }
      toRead = files.filter((file) => !stamps.has(file));
      reuse.clear();
    }

    let skipped = [...stamps.values()].filter((stamp) => stamp.state === 'not-a-session').length;
    let parsed = 0;
    const read: IndexResult['read'] = [];
    const { threads } = await indexFiles(toRead, {
      jobs: options.jobs,
      onFile: (file, result) => {
        const stamp = current.get(file);
        if (!result.ok) {
          unreadable.push({ file, why: result.error });
          return;
        }
        const rows = result.value;
        // Stamped before it was read: a file written to meanwhile differs next run and is read again.
        if (stamp) stamps.set(file, { ...stamp, state: rows === null ? 'not-a-session' : 'indexed' });
        if (rows === null) {
          skipped++;
          return;
        }
        parsed++;
        read.push({ file });
        sessions.add(rows.session);
        calls.addBatch(rows.calls);
      },
    }, subagentsOf);
    // Databases last: a session an agent is still writing is most often in one, and rows read last are rewritten first.
    for (const plan of databases) {
      const trees = await readPlannedTrees(plan, (root, rows) => {
        parsed++;
        read.push({ file: plan.file, session: root });
        sessions.add(rows.session);
        for (const call of rows.calls) calls.add(call);
      });
      for (const why of trees.unreadable) unreadable.push({ file: plan.file, why });
      closePlan(plan);
    }
    await calls.finish();
    await sessions.finish();
    unreadable.sort((a, b) => a.file.localeCompare(b.file));
    await writeManifest(out, stamps, unreadable, codex.threads);
    return {
      out,
      sessions: sessions.count,
      calls: calls.count,
      parsed,
      reused: reuse.size,
      read,
      skipped,
      unreadable,
      ms: Math.round(performance.now() - started),
      threads,
      indexed: [...stamps].filter(([, stamp]) => stamp.state === 'indexed').map(([file]) => file),
      leftOut,
    };
  } finally {
    for (const plan of databases) closePlan(plan);
    await Promise.all([calls.abandon(), sessions.abandon()]);
  }
}

/**
 * Writers that start with the rows of the last run's tables for the files in `reuse`, when its
 * sessions table holds every one of them (else the tables are not what the manifest says).
 */
async function keepingWriters(
  out: string,
  reuse: ReadonlySet<string>,
  treeOf: (file: string, session: string | null) => string | undefined | null,
  rowGroupRows: number,
): Promise<{ calls: TableWriter<FleetCall>; sessions: TableWriter<FleetSession> } | null> {
  // A row's unit: its file, or for a database's row the session tree it belongs to.
  const unitOf = (file: string, session: string | null): string | null => {
    const root = treeOf(file, session);
    return root === null ? null : unitKey(file, root);
  };
  const keptIn = (units: ReadonlySet<string>) => (file: string, session: string | null) => {
    const unit = unitOf(file, session);
    return unit !== null && units.has(unit) ? unit : null;
  };
  const sessions = await TableWriter.keeping(out, SESSIONS_TABLE, keptIn(reuse), fleetSessionOf, rowGroupRows);
  const calls = sessions && sessions.kept.size === reuse.size ? await TableWriter.keeping(out, CALLS_TABLE, keptIn(sessions.kept), fleetCallOf, rowGroupRows) : null;
  if (sessions && calls) return { calls: calls.writer, sessions: sessions.writer };
  await Promise.all([sessions?.writer.abandon(), calls?.writer.abandon()]);
  return null;
}

/** Writers that start with the last run's tables, when its sessions table holds exactly the files the manifest says. */
async function appendingWriters(out: string, files: number, rowGroupRows: number): Promise<{ calls: TableWriter<FleetCall>; sessions: TableWriter<FleetSession> } | null> {
  const sessions = await TableWriter.appending(out, SESSIONS_TABLE, rowGroupRows);
  const calls = sessions && sessions.count === files ? await TableWriter.appending(out, CALLS_TABLE, rowGroupRows) : null;
  if (sessions && calls) return { calls, sessions };
  await Promise.all([sessions?.abandon(), calls?.abandon()]);
  return null;
}

/** Each session file's sub-agents' files among `files`, in name order. */
function subagentFilesByParent(files: readonly string[]): Map<string, string[]> {
  const present = new Set(files);
  const byParent = new Map<string, string[]>();
  for (const file of files) {
    const parent = parentSessionFileOf(file);
    if (parent === null || !present.has(parent)) continue;
    byParent.set(parent, [...(byParent.get(parent) ?? []), file]);
  }
  return byParent;
}

/**
 * Codex keeps a sub-agent thread in a rollout of its own, whose `session_meta` names the thread
 * that spawned it: each such rollout among `files` under the rollout of the thread it descends
 * from (its parent's, or that one's parent's…), in name order.
 */
async function codexThreadsByParent(files: readonly string[], known: Readonly<Record<string, CodexThreadStamp>>): Promise<{ byRoot: Map<string, string[]>; threads: Record<string, CodexThreadStamp>; read: number }> {
  // A rollout's first line is read only when the file is new or changed since the last run said what it holds.
  const stamped: Record<string, CodexThreadStamp> = {};
  let read = 0;
  await mapLimited(files.filter(isCodexRollout), 32, async (file) => {
    const info = await stat(file).catch(() => null);
    if (!info) return;
    const before = known[file];
    if (before && before.size === info.size && before.mtimeMs === info.mtimeMs && before.ino === info.ino) {
      stamped[file] = before;
      return;
    }
    read++;
    const thread = await codexThreadOf(file);
    if (thread) stamped[file] = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, id: thread.id, parent: thread.parent };
  });
  // In the files' order, as they were found (sorted), whatever order the reads ended in.
  const threads = Object.entries(stamped).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fileOf = new Map(threads.map(([file, thread]) => [thread.id, file]));
  const roots = threadRoots(new Map(threads.map(([, thread]) => [thread.id, thread.parent ?? null])));
  const byRoot = new Map<string, string[]>();
  for (const [file, thread] of threads) {
    const root = roots.get(thread.id) ?? thread.id;
    if (root === thread.id) continue;
    const rootFile = fileOf.get(root)!;
    byRoot.set(rootFile, [...(byRoot.get(rootFile) ?? []), file].sort());
  }
  return { byRoot, threads: stamped, read };
}

/** A session file's stamp with its sub-agents' files: a sub-agent's file that changes, comes or goes changes it. */
async function sessionStampOf(file: string, subagents: readonly string[], before: Omit<FileStamp, 'state'> | undefined, now: number): Promise<Omit<FileStamp, 'state'> | null> {
  if (subagents.length === 0) return stampOf(file, before, now);
  const paths = [file, ...subagents];
  let parts = await stampsOf(paths, now, false);
  // As for one file: heads are hashed while a part is live, and from then on, so that two runs compare
  // (`h:` says the last run's hash took them in).
  const withHeads = parts !== null && (parts.some((part) => part.head !== undefined) || before?.head?.startsWith('h:') === true);
  if (withHeads) parts = await stampsOf(paths, now, true);
  if (parts === null) return null;
  return {
    size: parts.reduce((sum, part) => sum + part.size, 0),
    mtimeMs: Math.max(...parts.map((part) => part.mtimeMs)),
    ctimeMs: Math.max(...parts.map((part) => part.ctimeMs)),
    ino: parts[0]!.ino,
    head: `${withHeads ? 'h' : 's'}:${createHash('sha1').update(JSON.stringify(parts.map((part, index) => [paths[index], part]))).digest('hex')}`,
  };
}

/** Each file's stamp (`withHead`: its head hashed whether it is live or not); null when one cannot be read. */
async function stampsOf(paths: readonly string[], now: number, withHead: boolean): Promise<Omit<FileStamp, 'state'>[] | null> {
  const stamps = [];
  for (const path of paths) {
    const stamp = await stampOf(path, withHead ? HASH_HEAD : undefined, now);
    if (stamp === null) return null;
    stamps.push(stamp);
  }
  return stamps;
}

/** A last stamp that had a head: stampOf hashes the head again to compare with it. */
const HASH_HEAD: Omit<FileStamp, 'state'> = { size: 0, mtimeMs: 0, ctimeMs: 0, ino: 0, head: '' };

/** `fn` over every item, at most `limit` at once; results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<[T, R][]> {
  const results = new Array<[T, R]>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        const item = items[index]!;
        results[index] = [item, await fn(item)];
      }
    }),
  );
  return results;
}
