// `loupe index`'s manifest.json: what each file was when it was read (size, times, inode; a hash of
// its head while it is live), and the stamps a run compares to it. Everything a run with nothing
// changed needs lives here and in the modules this one imports, which are few and small: such a run
// loads no reading or writing code (indexBuild.ts says why), so this file reads the manifest with a
// check of its own rather than with zod, whose loading alone (35–48 ms) was a tenth of that run.
import { statSync } from 'node:fs';
import { open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet/src/metadata.js';
import { INDEX_TABLE_FILES, MANIFEST_FILE } from './indexOutput';
import { isSqlite } from '../ingest/sqlite/wal';

const MANIFEST_VERSION = 2;

export interface FileStamp {
  size: number;
  mtimeMs: number;
  /** Changed by every write and by setting mtime back (utimes), which mtime alone misses. */
  ctimeMs: number;
  /** A file replaced by another (written aside and renamed over it) is another inode. */
  ino: number;
  /**
   * sha1 of the file's first HEAD_BYTES, taken only while the file was written within LIVE_MS:
   * a live file rewritten to the same size within one timestamp tick (the kernel's clock ticks
   * every few ms) still differs. An older file's times moved on with any later write.
   */
  head?: string;
  /** `not-a-session`: read, and its first lines have no shape Loupe reads; kept so it is not read again. */
  state: 'indexed' | 'not-a-session';
  /** A SQLite database (OpenCode's): its `-wal`, which takes its writes first, is part of what it is. */
  database?: true;
  wal?: { size: number; mtimeMs: number; head: string } | null;
  /** A database's session trees as last read (analysis/openCodeRows.ts), by root id: a tree whose rows changed is read again. */
  sessions?: Record<string, { updatedMs: number | null; members: string[] }>;
}

/** A Codex rollout's thread and the thread that spawned it, as its first line said when the file was this size and time. */
export interface CodexThreadStamp {
  size: number;
  mtimeMs: number;
  ino: number;
  id: string;
  parent: string | null;
}

export interface Manifest {
  version: typeof MANIFEST_VERSION;
  files: Record<string, FileStamp>;
  unreadable: { file: string; why: string }[];
  /** By rollout: what its first line said, so a run with nothing changed reads no rollout to group threads. */
  threads?: Record<string, CodexThreadStamp>;
}

/** The manifest of the last run; null when there is none, or one this version does not read (everything is read again). */
export async function readManifest(out: string): Promise<Manifest | null> {
  let text;
  try {
    text = await readFile(join(out, MANIFEST_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    return manifestOf(JSON.parse(text));
  } catch {
    return null;
  }
}

// The check: each object is rebuilt from the keys it knows (others are dropped), and any key with
// a value of the wrong type refuses the whole manifest, so a run reads every file again.

/** Thrown inside the check only, caught by manifestOf. */
class NotAManifest extends Error {}

/** The manifest in `value`, or null when it is not one this version wrote. */
export function manifestOf(value: unknown): Manifest | null {
  try {
    const manifest = objectOf(value);
    if (manifest.version !== MANIFEST_VERSION) return null;
    const threads = manifest.threads === undefined ? undefined : recordOf(manifest.threads, codexThreadStampOf);
    return {
      version: MANIFEST_VERSION,
      files: recordOf(manifest.files, fileStampOf),
      unreadable: arrayOf(manifest.unreadable, (item) => {
        const entry = objectOf(item);
        return { file: stringOf(entry.file), why: stringOf(entry.why) };
      }),
      ...(threads !== undefined ? { threads } : {}),
    };
  } catch (error) {
    if (error instanceof NotAManifest) return null;
    throw error;
  }
}

function fileStampOf(value: unknown): FileStamp {
  const stamp = objectOf(value);
  const state = stamp.state;
  if (state !== 'indexed' && state !== 'not-a-session') throw new NotAManifest();
  const read: FileStamp = { size: numberOf(stamp.size), mtimeMs: numberOf(stamp.mtimeMs), ctimeMs: numberOf(stamp.ctimeMs), ino: numberOf(stamp.ino), state };
  if (stamp.head !== undefined) read.head = stringOf(stamp.head);
  if (stamp.database !== undefined) {
    if (stamp.database !== true) throw new NotAManifest();
    read.database = true;
  }
  if (stamp.wal === null) read.wal = null;
  else if (stamp.wal !== undefined) {
    const wal = objectOf(stamp.wal);
    read.wal = { size: numberOf(wal.size), mtimeMs: numberOf(wal.mtimeMs), head: stringOf(wal.head) };
  }
  if (stamp.sessions !== undefined) {
    read.sessions = recordOf(stamp.sessions, (tree) => {
      const { updatedMs, members } = objectOf(tree);
      return { updatedMs: updatedMs === null ? null : numberOf(updatedMs), members: arrayOf(members, stringOf) };
    });
  }
  return read;
}

function codexThreadStampOf(value: unknown): CodexThreadStamp {
  const stamp = objectOf(value);
  return {
    size: numberOf(stamp.size), mtimeMs: numberOf(stamp.mtimeMs), ino: numberOf(stamp.ino), id: stringOf(stamp.id),
    parent: stamp.parent === null ? null : stringOf(stamp.parent),
  };
}

function objectOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new NotAManifest();
  return value as Record<string, unknown>;
}

/** Its entries each read by `read`; built with fromEntries, so a key named `__proto__` stays a key. */
function recordOf<T>(value: unknown, read: (item: unknown) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(objectOf(value)).map(([key, item]) => [key, read(item)]));
}

function arrayOf<T>(value: unknown, read: (item: unknown) => T): T[] {
  if (!Array.isArray(value)) throw new NotAManifest();
  return value.map(read);
}

function numberOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new NotAManifest();
  return value;
}

function stringOf(value: unknown): string {
  if (typeof value !== 'string') throw new NotAManifest();
  return value;
}

export async function writeManifest(out: string, files: Map<string, FileStamp>, unreadable: Manifest['unreadable'], threads: Record<string, CodexThreadStamp> = {}): Promise<void> {
  const manifest: Manifest = {
    version: MANIFEST_VERSION, files: Object.fromEntries([...files].sort(([a], [b]) => a.localeCompare(b))), unreadable,
    ...(Object.keys(threads).length > 0 ? { threads } : {}),
  };
  await writeAtomically(join(out, MANIFEST_FILE), (temp) => writeFile(temp, `${JSON.stringify(manifest, null, 1)}\n`));
}

/** `write` to a temporary name beside `path`, then renamed into place: a reader never sees it half written. */
export async function writeAtomically(path: string, write: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await write(temp);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

const HEAD_BYTES = 64 * 1024;

/** A file changed this recently may be written again within the same timestamp tick: its head is hashed too. */
const LIVE_MS = 2_000;

/**
 * What a file is now, as the manifest records it; null when it cannot be read. A stat per file (a
 * run with nothing changed reads no file): the head is read only for a live file, or when the
 * last run's stamp has one (`before`), so the two compare.
 */
export async function stampOf(path: string, before?: Omit<FileStamp, 'state'>, now = Date.now()): Promise<Omit<FileStamp, 'state'> | null> {
  let info;
  try {
    // Synchronous: a stat of a file the walk just found is a few microseconds, and a thousand of them
    // through the thread pool and their promises were a fifth of a run with nothing changed.
    info = statSync(path);
  } catch {
    return null;
  }
  const stamp: Omit<FileStamp, 'state'> = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino };
  if (path.endsWith('.db')) {
    const database = await databaseStampOf(path, stamp);
    if (database) return database;
  }
  const live = now - Math.max(info.mtimeMs, info.ctimeMs) < LIVE_MS;
  if (!live && before?.head === undefined) return stamp;
  const head = await firstBytes(path, Math.min(HEAD_BYTES, info.size));
  return head && { ...stamp, head: await sha1(head.bytes) };
}

/**
 * A SQLite database (OpenCode's, named `*.db`): its `-wal` stamped too, since its writes land
 * there first and the database's own times can stay the same. Null: not a database.
 */
async function databaseStampOf(path: string, stamp: Omit<FileStamp, 'state'>): Promise<Omit<FileStamp, 'state'> | null> {
  const magic = await firstBytes(path, 16);
  if (!magic || !isSqlite(magic.bytes)) return null;
  return { ...stamp, database: true, wal: await walStampOf(`${path}-wal`) };
}

/** A log's size, time and header (its salts change each time SQLite restarts it from the start, at the same size). */
async function walStampOf(path: string): Promise<FileStamp['wal']> {
  const header = await firstBytes(path, 32);
  return header && { size: header.size, mtimeMs: header.mtimeMs, head: await sha1(header.bytes) };
}

/**
 * The first `n` bytes of a file (fewer when it is shorter), with its size and time as the open file
 * has them; null when it cannot be opened or read.
 */
async function firstBytes(path: string, n: number): Promise<{ bytes: Buffer; size: number; mtimeMs: number } | null> {
  return withOpenFile(path, async (handle) => {
    const info = await handle.stat();
    const bytes = Buffer.alloc(n);
    const { bytesRead } = n > 0 ? await handle.read(bytes, 0, n, 0) : { bytesRead: 0 };
    return { bytes: bytes.subarray(0, bytesRead), size: info.size, mtimeMs: info.mtimeMs };
  });
}

/** `read` of the file opened for reading, closed after; null when it cannot be opened or `read` throws. */
async function withOpenFile<T>(path: string, read: (handle: FileHandle) => Promise<T | null>): Promise<T | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    return await read(handle);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** The hex sha1 of `bytes`. Node's crypto is loaded only when a head is hashed: a run with nothing changed most often hashes none. */
export async function sha1(bytes: Uint8Array | string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha1').update(bytes).digest('hex');
}

export function sameStamp(a: Omit<FileStamp, 'state'>, b: Omit<FileStamp, 'state'>): boolean {
  const [walA, walB] = [a.wal ?? null, b.wal ?? null];
  const sameWal = walA === null || walB === null ? walA === walB : walA.size === walB.size && walA.mtimeMs === walB.mtimeMs && walA.head === walB.head;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.head === b.head && (a.database ?? false) === (b.database ?? false) && sameWal;
}

/** How many rows each table holds, from their footers; null when either cannot be read. */
export async function tableRows(out: string): Promise<{ calls: number; sessions: number } | null> {
  const [callsFile, sessionsFile] = INDEX_TABLE_FILES;
  const [calls, sessions] = await Promise.all([footerRows(join(out, callsFile)), footerRows(join(out, sessionsFile))]);
  return calls === null || sessions === null ? null : { calls, sessions };
}

/** A Parquet file's row count, from its footer (the metadata, its length and `PAR1` at the end); null when it cannot be read. */
async function footerRows(path: string): Promise<number | null> {
  return withOpenFile(path, async (handle) => {
    const { size } = await handle.stat();
    if (size < 12) return null;
    const tail = Buffer.alloc(8);
    await handle.read(tail, 0, 8, size - 8);
    const footer = tail.readUInt32LE(0) + 8;
    if (footer > size - 4) return null;
    const bytes = Buffer.alloc(footer);
    const { bytesRead } = await handle.read(bytes, 0, footer, size - footer);
    if (bytesRead !== footer) return null;
    return Number(parquetMetadata(bytes).num_rows);
  });
}
