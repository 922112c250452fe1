// The library's data: the index `loupe open DIR` built, read in the browser from the Parquet files
// themselves (hyparquet), the same files DuckDB or Spark read; and the filters and sorts over them.
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { CALLS_TABLE, fleetCallOf, fleetSessionOf, SESSIONS_TABLE, type FleetCall, type FleetSession, type FleetTable } from '../analysis/fleet';

/** A page of this server's: the rows' paths are relative to `folder`. */
export interface LibraryListing {
  folder: string;
  unreadable: { file: string; why: string }[];
}

export function listingOf(value: unknown): LibraryListing | null {
  if (typeof value !== 'object' || value === null) return null;
  const { folder, unreadable } = value as { folder?: unknown; unreadable?: unknown };
  if (typeof folder !== 'string') return null;
  const problems = Array.isArray(unreadable)
    ? unreadable.filter((u): u is { file: string; why: string } => typeof (u as { file?: unknown })?.file === 'string' && typeof (u as { why?: unknown })?.why === 'string')
    : [];
  return { folder, unreadable: problems };
}

/** What a table's file holds, a row group at a time, yielding to the page between groups; rows not of the table's shape are counted, not shown. */
export async function readTable<Row>(
  buffer: ArrayBuffer,
  table: FleetTable<Row>,
  rowOf: (raw: Record<string, unknown>) => Row | null,
  columns?: readonly (keyof Row & string)[],
): Promise<{ rows: Row[]; rejected: number }> {
  const metadata = parquetMetadata(buffer);
  const rows: Row[] = [];
  let rejected = 0;
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const raw = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, ...(columns ? { columns: [...columns] } : {}) });
    rowStart = rowEnd;
    for (const value of raw) {
      const row = rowOf(columns ? withNulls(value, table) : value);
      if (row === null) rejected++;
      else rows.push(row);
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { rows, rejected };
}

/** The columns left unread, as nulls: the row checks see every column. */
function withNulls<Row>(value: Record<string, unknown>, table: FleetTable<Row>): Record<string, unknown> {
  const full: Record<string, unknown> = {};
  for (const { name } of table.columns) full[name] = value[name] ?? null;
  return full;
}

/** The calls' columns the library uses: the rest stay in the file. */
export const LIBRARY_CALL_COLUMNS = ['file', 'call_id', 'label', 'subject', 'status', 'duration_ms'] as const satisfies readonly (keyof FleetCall)[];

export async function fetchTable(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

export const readSessions = (buffer: ArrayBuffer) => readTable(buffer, SESSIONS_TABLE, fleetSessionOf);
export const readCalls = (buffer: ArrayBuffer) => readTable(buffer, CALLS_TABLE, fleetCallOf, LIBRARY_CALL_COLUMNS);

// ---------------------------------------------------------------------------------------------
// Filters and sorts

export interface LibraryFilter {
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

export const NO_FILTER: LibraryFilter = { harness: '', project: '', label: '', status: '', from: '', to: '', subject: '' };

export type SortKey = 'file' | 'format' | 'project' | 'started' | 'duration' | 'calls' | 'failed' | 'tokens';

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
export function filterSessions(sessions: readonly FleetSession[], callsByFile: ReadonlyMap<string, readonly FleetCall[]>, f: LibraryFilter): FleetSession[] {
  const subject = f.subject.trim().toLowerCase();
  const byCalls = f.label !== '' || f.status !== '' || subject !== '';
  return sessions.filter((s) => {
    if (f.harness && s.format !== f.harness) return false;
    if (f.project && (s.project ?? '') !== f.project) return false;
    if (f.from || f.to) {
      const day = dayOf(s.started_ms);
      if (day === null || (f.from && day < f.from) || (f.to && day > f.to)) return false;
    }
    if (!byCalls) return true;
    return (callsByFile.get(s.file) ?? []).some(
      (c) => (!f.label || c.label === f.label) && (!f.status || c.status === f.status) && (!subject || (c.subject ?? '').toLowerCase().includes(subject)),
    );
  });
}

const SORT_VALUE: Record<SortKey, (s: FleetSession) => string | number | null> = {
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
    if (va === null || vb === null) return va === vb ? a.file.localeCompare(b.file) : va === null ? 1 : -1;
    const order = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return order !== 0 ? sign * order : a.file.localeCompare(b.file);
  });
}
