// A team's index: one folder (BASE) that every machine's `loupe index --machine NAME` writes its
// own partition into, `BASE/machine=NAME/` (Hive partitioning: DuckDB, Spark and pandas read
// `BASE/*/calls.parquet` as one table with a `machine` column), and `BASE/index.json`, the
// partitions listed with their tables' sizes and rows. No Node here: the browser reads the listing too.

export const LISTING_FILE = 'index.json';
export const PARTITION_PREFIX = 'machine=';
export const TEAM_LISTING_VERSION = 1;
/** A partition's published session files (`loupe index --publish`): `machine=NAME/files/<path>`. */
export const PUBLISHED_DIR = 'files';

/**
 * Where a session file is published inside its partition's `files/`: its path without the leading
 * `/` (a Windows path's drive letter kept as a folder, `C/Users/…`), each segment as it is. Null for
 * a path with `.` or `..` segments, which could point out of the folder.
 */
export function publishedPath(file: string): string | null {
  const segments = file.replace(/\\/g, '/').replace(/^([A-Za-z]):/, '$1').split('/').filter((segment) => segment !== '');
  return segments.length === 0 || segments.some((segment) => segment === '.' || segment === '..') ? null : segments.join('/');
}

/** One table of a partition, as the listing names it: its file (relative to the partition), bytes, rows, and when it was written. */
export interface TeamTable {
  file: string;
  bytes: number;
  rows: number | null;
  updated_ms: number;
}

export interface TeamPartition {
  machine: string;
  /** The partition's folder, relative to the listing: `machine=NAME`. */
  dir: string;
  /** When the partition's newest table was written. */
  updated_ms: number;
  sessions: number | null;
  calls: number | null;
  tables: TeamTable[];
  /** Its session files are published beside its tables, in `files/` (`loupe index --publish`). */
  published?: boolean;
}

/** `index.json`: written by each `loupe index --machine` run, after its partition. */
export interface TeamListing {
  version: typeof TEAM_LISTING_VERSION;
  partitions: TeamPartition[];
}

/**
 * A machine's name as a partition's folder holds it: letters, digits, `.`, `_` and `-`, not
 * starting with a dot, at most 64 characters. Null when `name` is not one.
 */
export function validMachineName(name: string): string | null {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(name) ? name : null;
}

/** A host name made a machine's name: lower case, anything else than letters, digits, `.`, `_` and `-` a `-`. */
export function machineNameOf(hostname: string): string {
  const name = hostname
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 64);
  return validMachineName(name) ?? 'unknown-host';
}

/** The machine a partition's folder name names, or null when it is not `machine=NAME`. */
export function machineOfDir(dir: string): string | null {
  return dir.startsWith(PARTITION_PREFIX) ? validMachineName(dir.slice(PARTITION_PREFIX.length)) : null;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A listing read from JSON another program (or another machine) wrote; what is not of its shape is left out. Null when it is no listing. */
export function teamListingOf(value: unknown): TeamListing | null {
  if (typeof value !== 'object' || value === null) return null;
  const { version, partitions } = value as { version?: unknown; partitions?: unknown };
  if (version !== TEAM_LISTING_VERSION || !Array.isArray(partitions)) return null;
  const seen = new Set<string>();
  const kept: TeamPartition[] = [];
  for (const raw of partitions as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const p = raw as Record<string, unknown>;
    const machine = typeof p.machine === 'string' ? validMachineName(p.machine) : null;
    if (machine === null || seen.has(machine) || p.dir !== `${PARTITION_PREFIX}${machine}`) continue;
    seen.add(machine);
    const tables = (Array.isArray(p.tables) ? (p.tables as unknown[]) : []).flatMap((t): TeamTable[] => {
      if (typeof t !== 'object' || t === null) return [];
      const { file, bytes, rows, updated_ms } = t as Record<string, unknown>;
      if (typeof file !== 'string' || !/^[a-z]+\.parquet$/.test(file) || !isCount(bytes) || !isCount(updated_ms)) return [];
      return [{ file, bytes, rows: isCount(rows) ? rows : null, updated_ms }];
    });
    kept.push({
      machine, dir: `${PARTITION_PREFIX}${machine}`, updated_ms: isCount(p.updated_ms) ? p.updated_ms : 0,
      sessions: isCount(p.sessions) ? p.sessions : null, calls: isCount(p.calls) ? p.calls : null, tables,
      ...(p.published === true ? { published: true } : {}),
    });
  }
  kept.sort((a, b) => a.machine.localeCompare(b.machine));
  return { version: TEAM_LISTING_VERSION, partitions: kept };
}
