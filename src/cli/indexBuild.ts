// Builds or refreshes a fleet index: every session file under some folders as rows of
// `calls.parquet` and `sessions.parquet`. A file the manifest says is unchanged keeps the rows the
// last run wrote; only new and changed files are read; files gone from the folders drop out. A
// database (OpenCode's, every session in one file) is kept and read a session tree at a time
// (indexDatabase.ts): the rows' unit is a file, or a database's session tree.
//
// This module finds the files and compares them with the manifest; reading and writing
// (indexWrite.ts) is loaded only when something changed. A run with nothing changed is most runs
// (an agent's hook, a shell prompt), and loading the reading code, zod, the Parquet writer and the
// threads' code was a third of it: 0.32 → 0.25 s on 1,000 logs. indexStartup.test.ts keeps them out.
import { lstat, mkdir, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { DatabasePlan } from './indexDatabase';
import type { StartedReaders } from './indexPool';
import { readManifest, sameStamp, sha1, stampOf, tableRows, writeManifest, type CodexThreadStamp, type FileStamp, type Manifest } from './indexManifest';
import { parentSessionFileOf } from '../ingest/harnesses';
import { sessionFilesUnder, type LeftOut } from './sessionWalk';
import { isCodexRollout, threadRoots } from './codexThreads';

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
  /** Threads that read the files: workers, and this thread beside them when there are two or more (0: this thread alone). */
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
  const manifest = await readManifest(out);
  // A first run reads every file: its threads start now and load their code while the folders are
  // walked, not after (0.2 s of a 3 s run when one waited for the other).
  const early = manifest === null && options.jobs !== 0 ? import('./indexPool').then((pool) => pool.StartedReaders.start(options.jobs)) : undefined;
  try {
    return await planIndex(options, out, started, manifest, early);
  } finally {
    // Stopped when the run did not take them (nothing to read, or it failed before).
    await (await early?.catch(() => undefined))?.release();
  }
}

async function planIndex(options: IndexOptions, out: string, started: number, manifest: Manifest | null, early: Promise<StartedReaders | undefined> | undefined): Promise<IndexResult> {
  const inside = `${resolve(options.skipUnder ?? out)}${sep}`;
  // The index's own files are not sessions, wherever it is kept.
  const leftOut: LeftOut[] = [];
  const found = [...(await sessionFilesUnder(options.dirs.map((dir) => resolve(dir)), { inside: options.inside ?? false }, leftOut))]
    .filter((file) => !file.startsWith(inside))
    .sort();
  // A sub-agent's own file (CONTRACTS §10) is read with its session's, not as a session of its own:
  // its calls then have their Task call as parent, and it is stamped as part of that session.
  const subagentsOf = subagentFilesByParent(found);
  const codex = await codexThreadsByParent(found, manifest?.threads ?? {});
  for (const [parent, threads] of codex.byRoot) subagentsOf.set(parent, [...(subagentsOf.get(parent) ?? []), ...threads]);
  const grouped = new Set([...subagentsOf.values()].flat());
  const files = found.filter((file) => !grouped.has(file));

  const stamps = new Map<string, FileStamp>();
  const current = new Map<string, Omit<FileStamp, 'state'>>();
  const reuse = new Set<string>();
  const toRead: string[] = [];
  const databases: DatabasePlan[] = [];
  // Loaded only where a database is found: it reads one with SQLite compiled to WebAssembly.
  let databaseCode: typeof import('./indexDatabase') | undefined;
  const unreadable: IndexResult['unreadable'] = [];
  const now = Date.now();
  for (const [file, stamp] of await mapLimited(files, 32, (file) => sessionStampOf(file, subagentsOf.get(file) ?? [], manifest?.files[file], now))) {
    const before = manifest?.files[file];
    if (stamp) current.set(file, stamp);
    if (stamp?.database) {
      // Planned by its rows below, not by its time.
      databaseCode ??= await import('./indexDatabase');
      const plan = await databaseCode.planDatabase(file, stamp, before);
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
      for (const plan of databases) databaseCode?.closePlan(plan);
      const indexed = [...stamps].filter(([, stamp]) => stamp.state === 'indexed').map(([file]) => file);
      return {
        out, sessions: rows.sessions, calls: rows.calls, parsed: 0, reused: reuse.size, read: [], skipped: [...stamps.values()].filter((stamp) => stamp.state === 'not-a-session').length,
        unreadable: [], ms: Math.round(performance.now() - started), threads: 0, indexed, leftOut,
      };
    }
  }

  const { writeIndex } = await import('./indexWrite');
  const readers = await early?.catch(() => undefined);
  return writeIndex({ options, out, started, manifest, files, stamps, current, reuse, toRead, databases, unreadable, subagentsOf, codex, leftOut, unitsBefore, ...(readers ? { early: readers } : {}) });
}

/** What a run found and what it must read (buildIndex), for the part that reads and writes (indexWrite.ts). */
export interface IndexPlan {
  options: IndexOptions;
  out: string;
  /** When the run started (performance.now()). */
  started: number;
  manifest: Manifest | null;
  /** The session files found (sub-agents' own files grouped under their session's). */
  files: string[];
  /** Each file's stamp as the manifest will record it (a kept file's, as the last run did). */
  stamps: Map<string, FileStamp>;
  /** Each file's stamp as it is now. */
  current: Map<string, Omit<FileStamp, 'state'>>;
  /** Files (and databases' session trees) whose rows the last run wrote and that have not changed. */
  reuse: Set<string>;
  toRead: string[];
  databases: DatabasePlan[];
  unreadable: IndexResult['unreadable'];
  subagentsOf: Map<string, string[]>;
  codex: { threads: Record<string, CodexThreadStamp> };
  leftOut: LeftOut[];
  /** Units (files, databases' session trees) the last run's tables hold rows of. */
  unitsBefore: number;
  /** Reader threads a first run started before its walk. */
  early?: StartedReaders;
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
    const thread = await (await import('./subagentFiles')).codexThreadOf(file);
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
    head: `${withHeads ? 'h' : 's'}:${await sha1(JSON.stringify(parts.map((part, index) => [paths[index], part])))}`,
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
