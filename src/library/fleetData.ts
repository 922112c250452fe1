// The library's data: the index `loupe open DIR` built, read in the browser from the Parquet files
// themselves (hyparquet), the same files DuckDB or Spark read; and the filters and sorts over them.
import { parquetMetadata, parquetMetadataAsync, parquetReadObjects, type AsyncBuffer } from 'hyparquet';
import { fleetSessionOf, type FleetSession } from '../analysis/fleet';
import type { TeamPartition } from '../analysis/teamIndex';
import { concatCallColumns, filesWithCall, readCallColumns, type CallColumns } from './callColumns';
import type { CallsWorkerAnswer, CallsWorkerQuestion } from './calls.worker';
import { fetchTable, libraryTables } from './tables';

/** A session's key among the rows: its file, and in a team's index its machine too (two machines may have a file at the same path). */
export function sessionKey(s: Pick<FleetSession, 'file' | 'machine'>): string {
  return s.machine === undefined ? s.file : `${s.machine}\u0000${s.file}`;
}

/** A row's key among the sessions shown: its file's key and its session (a database, OpenCode's, has a row per session). */
export function rowKeyOf(s: Pick<FleetSession, 'file' | 'machine' | 'session'>): string {
  return `${sessionKey(s)}\u0000${s.session ?? ''}`;
}

/** A partition's table as the library reads it (its bytes, or a host's file read by range); null when the partition has none. */
export type TeamTableOpener = (partition: TeamPartition, file: 'sessions.parquet' | 'calls.parquet') => Promise<ArrayBuffer | AsyncBuffer> | null;

/** The tables `loupe open BASE` serves beside the page, each fetched whole. */
export const servedTeamTable = (baseUrl: string): TeamTableOpener => (partition, file) =>
  partition.tables.some((t) => t.file === file) ? fetchTable(`${baseUrl}${encodeURIComponent(partition.dir)}/${file}`) : null;

/**
 * A team's partitions read as one library: every partition's sessions table first (the rows show
 * once they are read), marked with its machine; then the calls, decoded off the page's thread,
 * `callReaders` partitions at a time (each in a worker of its own: one decodes while another's
 * bytes arrive), their files keyed as `sessionKey` keys them.
 */
export function readTeamTables(partitions: readonly TeamPartition[], open: TeamTableOpener, callReaders = 1): { sessions: Promise<FleetSession[]>; calls: Promise<CallColumns> } {
  const sessions = Promise.all(
    partitions.map(async (partition) => {
      const table = open(partition, 'sessions.parquet');
      if (!table) return [];
      return (await readTable(await table, fleetSessionOf)).rows.map((row) => ({ ...row, machine: partition.machine }));
    }),
  ).then((parts) => parts.flat());
  const calls = sessions.then(async () => {
    const parts: ({ columns: CallColumns; fileKey: (file: string) => string } | null)[] = partitions.map(() => null);
    let next = 0;
    const reader = async () => {
      for (let i = next++; i < partitions.length; i = next++) {
        const partition = partitions[i]!;
        const table = open(partition, 'calls.parquet');
        if (!table) continue;
        parts[i] = { columns: await readCallsOffThread(await table), fileKey: (file: string) => sessionKey({ file, machine: partition.machine }) };
      }
    };
    await Promise.all(Array.from({ length: callReaders }, reader));
    return concatCallColumns(parts.filter((part) => part !== null));
  });
  sessions.catch(() => undefined);
  calls.catch(() => undefined);
  return { sessions, calls };
}

/**
 * What a table's file holds, a row group at a time, yielding to the page between groups; rows not
 * of the table's shape are counted, not shown. The file is its bytes, or a host's, read by range.
 */
export async function readTable<Row>(
  buffer: ArrayBuffer | AsyncBuffer,
  rowOf: (raw: Record<string, unknown>) => Row | null,
): Promise<{ rows: Row[]; rejected: number }> {
  const metadata = buffer instanceof ArrayBuffer ? parquetMetadata(buffer) : await parquetMetadataAsync(buffer);
  const rows: Row[] = [];
  let rejected = 0;
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const raw = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd });
    rowStart = rowEnd;
    for (const value of raw) {
      const row = rowOf(value);
      if (row === null) rejected++;
      else rows.push(row);
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { rows, rejected };
}

export const readSessions = (buffer: ArrayBuffer) => readTable(buffer, fleetSessionOf);

// ---------------------------------------------------------------------------------------------
// Filters and sorts

export interface LibraryFilter {
  /** A team's index: the machine whose partition holds the session. */
  machine: string;
  harness: string;
  project: string;
  label: string;
  status: string;
  /** YYYY-MM-DD, inclusive, by the day (UTC) a session started. */
  from: string;
  to: string;
  /** Text a call's subject contains (case-insensitive). */
  subject: string;
}

export const NO_FILTER: LibraryFilter = { machine: '', harness: '', project: '', label: '', status: '', from: '', to: '', subject: '' };

export type SortKey = 'machine' | 'file' | 'format' | 'project' | 'started' | 'duration' | 'calls' | 'failed' | 'tokens';

export interface Sort {
  key: SortKey;
  descending: boolean;
}

export function durationOf(s: FleetSession): number | null {
  return s.started_ms !== null && s.ended_ms !== null ? s.ended_ms - s.started_ms : null;
}

export function tokensOf(s: FleetSession): number | null {
  return s.input_tokens === null && s.output_tokens === null ? null : (s.input_tokens ?? 0) + (s.output_tokens ?? 0);
}

export function dayOf(ms: number | null): string | null {
  return ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

/** The sessions the filter lets through: a call filter (label, status, subject) keeps the sessions with a call that matches all of it. */
export function filterSessions(sessions: readonly FleetSession[], calls: CallColumns, f: LibraryFilter): FleetSession[] {
  const byCalls = f.label !== '' || f.status !== '' || f.subject.trim() !== '';
  const matching = byCalls ? filesWithCall(calls, f) : null;
  const fileIds = matching ? fileIdsOf(calls) : null;
  return sessions.filter((s) => {
    if (f.machine && s.machine !== f.machine) return false;
    if (f.harness && s.format !== f.harness) return false;
    if (f.project && (s.project ?? '') !== f.project) return false;
    if (f.from || f.to) {
      const day = dayOf(s.started_ms);
      if (day === null || (f.from && day < f.from) || (f.to && day > f.to)) return false;
    }
    if (!matching || !fileIds) return true;
    const id = fileIds.get(sessionKey(s));
    return id !== undefined && matching[id] === 1;
  });
}

const fileIdCache = new WeakMap<readonly string[], Map<string, number>>();

/** A call file's id in the columns, by its path. */
export function fileIdsOf(calls: CallColumns): Map<string, number> {
  let ids = fileIdCache.get(calls.files);
  if (!ids) fileIdCache.set(calls.files, (ids = new Map(calls.files.map((file, id) => [file, id]))));
  return ids;
}

/** Per file of the columns: 1 where the file is one of `sessions`. */
export function shownFilesOf(calls: CallColumns, sessions: readonly FleetSession[]): Uint8Array {
  const shown = new Uint8Array(calls.files.length);
  const ids = fileIdsOf(calls);
  for (const s of sessions) {
    const id = ids.get(sessionKey(s));
    if (id !== undefined) shown[id] = 1;
  }
  return shown;
}

const SORT_VALUE: Record<SortKey, (s: FleetSession) => string | number | null> = {
  machine: (s) => s.machine ?? null,
  file: (s) => s.file,
  format: (s) => s.format,
  project: (s) => s.project,
  started: (s) => s.started_ms,
  duration: durationOf,
  calls: (s) => s.calls,
  failed: (s) => s.failed,
  tokens: tokensOf,
};

/** Sorted by the key; sessions without a value last, whichever the direction; ties by file. */
export function sortSessions(sessions: readonly FleetSession[], sort: Sort): FleetSession[] {
  const value = SORT_VALUE[sort.key];
  const sign = sort.descending ? -1 : 1;
  return [...sessions].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return va === vb ? sessionKey(a).localeCompare(sessionKey(b)) : va === null ? 1 : -1;
    const order = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return order !== 0 ? sign * order : a.file.localeCompare(b.file) || sessionKey(a).localeCompare(sessionKey(b));
  });
}

let callsRead: Promise<CallColumns> | null = null;

/** The library's calls, decoded once per page (the bytes move to the worker: they cannot be read twice). */
export function libraryCalls(): Promise<CallColumns> {
  return (callsRead ??= libraryTables().calls.then(readCallsOffThread));
}

/**
 * calls.parquet's columns, decoded in a worker so the page stays responsive while a million calls
 * are read (the page keeps working on the main thread where a worker cannot start). A host's file
 * (an AsyncBuffer) is read by the worker a range at a time, each range fetched by the page.
 */
export async function readCallsOffThread(buffer: ArrayBuffer | AsyncBuffer): Promise<CallColumns> {
  let worker: Worker;
  try {
    // The worker fetches nothing (it is handed the bytes), so its own policy does not matter: a plain module worker.
    worker = new Worker(new URL('./calls.worker.ts', import.meta.url), { type: 'module', name: 'loupe-library-calls' });
  } catch {
    return readCallColumns(buffer);
  }
  try {
    return await new Promise<CallColumns>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<CallsWorkerAnswer>) => {
        const answer = event.data;
        if (answer.kind === 'slice') {
          const remote = buffer as AsyncBuffer;
          void Promise.resolve(remote.slice(answer.start, answer.end)).then(
            (bytes) => worker.postMessage({ kind: 'bytes', id: answer.id, bytes } satisfies CallsWorkerQuestion, [bytes]),
            (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
          );
        } else if (answer.kind === 'columns') resolve(answer.columns);
        else reject(new Error(answer.why));
      };
      worker.onerror = (event) => reject(new Error(event.message || 'the calls reader stopped'));
      if (buffer instanceof ArrayBuffer) worker.postMessage({ kind: 'file', bytes: buffer } satisfies CallsWorkerQuestion, [buffer]);
      else worker.postMessage({ kind: 'remote', byteLength: buffer.byteLength } satisfies CallsWorkerQuestion);
    });
  } finally {
    worker.terminate();
  }
}
