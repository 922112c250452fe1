// A team's shared index folder on disk: the partitions `loupe index --machine NAME` writes
// (`BASE/machine=NAME/`), and `BASE/index.json` listing them (see analysis/teamIndex.ts).
import { copyFile, lstat, mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { CALLS_TABLE, SESSIONS_TABLE } from '../analysis/fleet';
import { LISTING_FILE, machineOfDir, PARTITION_PREFIX, PUBLISHED_DIR, publishedPath, TEAM_LISTING_VERSION, teamListingOf, type TeamListing, type TeamPartition, type TeamTable } from '../analysis/teamIndex';

/** The partitions in `base` as they are on disk now: each `machine=NAME/` folder (not a link) that holds a sessions table. */
export async function scanPartitions(base: string): Promise<TeamPartition[]> {
  const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
  const partitions: TeamPartition[] = [];
  for (const entry of entries) {
    const machine = entry.isDirectory() ? machineOfDir(entry.name) : null;
    if (machine === null) continue;
    const partition = await partitionOf(base, machine);
    if (partition) partitions.push(partition);
  }
  return partitions.sort((a, b) => a.machine.localeCompare(b.machine));
}

/** A partition's entry, from its tables' sizes, times and footers; null without a sessions table. */
export async function partitionOf(base: string, machine: string): Promise<TeamPartition | null> {
  const dir = `${PARTITION_PREFIX}${machine}`;
  const tables: TeamTable[] = [];
  for (const table of [SESSIONS_TABLE, CALLS_TABLE]) {
    const path = join(base, dir, table.file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) continue;
    let rows: number | null = null;
    try {
      rows = Number((await parquetMetadataAsync(await asyncBufferFromFile(path))).num_rows);
    } catch {
      // Being replaced, or not Parquet: listed with its size, its rows unknown.
    }
    tables.push({ file: table.file, bytes: info.size, rows, updated_ms: Math.round(info.mtimeMs) });
  }
  if (!tables.some((t) => t.file === SESSIONS_TABLE.file)) return null;
  const published = (await lstat(join(base, dir, PUBLISHED_DIR)).catch(() => null))?.isDirectory() === true;
  return {
    machine, dir, updated_ms: Math.max(...tables.map((t) => t.updated_ms)),
    sessions: tables.find((t) => t.file === SESSIONS_TABLE.file)?.rows ?? null,
    calls: tables.find((t) => t.file === CALLS_TABLE.file)?.rows ?? null,
    tables,
    ...(published ? { published } : {}),
  };
}

export async function readTeamListing(base: string): Promise<TeamListing | null> {
  try {
    return teamListingOf(JSON.parse(await readFile(join(base, LISTING_FILE), 'utf8')));
  } catch {
    return null;
  }
}

const LOCK_FILE = `.${LISTING_FILE}.lock`;
/** A lock older than this was left by a writer that stopped: it is taken over. */
const STALE_LOCK_MS = 15_000;
const LOCK_WAIT_MS = 10_000;

/**
 * `index.json` written again after `machine`'s partition was: re-read, this machine's entry
 * replaced, every other partition's entry made again from what is on disk (a writer that raced
 * this one and lost its entry gets it back; a partition whose folder is gone drops out, one whose
 * entry is unreadable keeps what the listing said), then a temp file renamed into place. Writers
 * take turns by a lock file (created exclusively; one left by a stopped writer is taken over after
 * 15 s; after 10 s of waiting this writer goes ahead: the listing is made from the disk, so the
 * next write puts right whatever a race left).
 */
export async function writeTeamListing(base: string, machine: string): Promise<TeamListing> {
  const unlock = await lock(join(base, LOCK_FILE));
  try {
    const before = await readTeamListing(base);
    const onDisk = await scanPartitions(base);
    const partitions = onDisk.map((p) => (p.machine !== machine && p.tables.some((t) => t.rows === null) ? (before?.partitions.find((q) => q.machine === p.machine) ?? p) : p));
    const listing: TeamListing = { version: TEAM_LISTING_VERSION, partitions };
    const path = join(base, LISTING_FILE);
    const temp = `${path}.${process.pid}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(listing, null, 1)}\n`);
      await rename(temp, path);
    } finally {
      await rm(temp, { force: true });
    }
    return listing;
  } finally {
    await unlock();
  }
}

async function lock(path: string): Promise<() => Promise<void>> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return () => Promise.resolve();
    }
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) return () => Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
  }
}

/** The session files a partition's sessions table names (the files of the machine that wrote it); none when it cannot be read. */
export async function partitionFiles(dir: string): Promise<string[]> {
  try {
    const file = await asyncBufferFromFile(join(dir, SESSIONS_TABLE.file));
    const rows = await parquetReadObjects({ file, columns: ['file'] });
    return rows.map((row): unknown => row.file).filter((name): name is string => typeof name === 'string');
  } catch {
    return [];
  }
}

/**
 * `--publish`: the session files a partition's table names copied beside it, into
 * `machine=NAME/files/<path>` (the path without its leading `/`), so a static host serving the
 * team's folder serves them and `?index=` opens them. A file already there with the same size and
 * time is left as it is; each copy is written under a temporary name and renamed. Files the table
 * no longer names are removed. Returns what was copied, kept, and could not be copied (and why).
 */
export async function publishPartitionFiles(partition: string): Promise<{ copied: number; kept: number; failed: { file: string; why: string }[] }> {
  const root = join(partition, PUBLISHED_DIR);
  const files = await partitionFiles(partition);
  const wanted = new Set<string>();
  let copied = 0;
  let kept = 0;
  const failed: { file: string; why: string }[] = [];
  for (const file of files) {
    const relative = publishedPath(file);
    if (relative === null) {
      failed.push({ file, why: 'its path cannot be a published file\'s' });
      continue;
    }
    const target = join(root, relative);
    wanted.add(target);
    try {
      const source = await stat(file);
      const there = await stat(target).catch(() => null);
      if (there?.isFile() && there.size === source.size && Math.round(there.mtimeMs) === Math.round(source.mtimeMs)) {
        kept++;
        continue;
      }
      await mkdir(dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      try {
        await copyFile(file, temp);
        await utimes(temp, source.atime, source.mtime);
        await rename(temp, target);
      } finally {
        await rm(temp, { force: true });
      }
      copied++;
    } catch (error) {
      failed.push({ file, why: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  }
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !wanted.has(path)) await rm(path, { force: true });
  }
  return { copied, kept, failed };
}
