// The calls of a library as columns: a typed array per column, strings interned (an id into a
// list of the distinct values), no object per call. A million calls are a few typed arrays; the
// filters and the fleet stats are passes over them.
import { parquetMetadata, parquetMetadataAsync, parquetRead, type AsyncBuffer } from 'hyparquet';
import type { FleetCall, FleetLabelStats } from '../analysis/fleet';
import { DISPLAY_STATUSES, isDisplayStatus } from '../model/status';

const FAILED = DISPLAY_STATUSES.indexOf('failed');

export interface CallColumns {
  length: number;
  /** Index into `files`. */
  file: Int32Array;
  files: readonly string[];
  /** Index into `labels`. */
  label: Int32Array;
  labels: readonly string[];
  /** Index into DISPLAY_STATUSES. */
  status: Uint8Array;
  /** Index into `subjects`; -1: none. */
  subject: Int32Array;
  subjects: readonly string[];
  /** NaN: not known. */
  durationMs: Float64Array;
  /** Rows not of the table's shape: counted, not kept. */
  rejected: number;
}

/** The calls' columns the library reads: the rest stay in the file. */
export const LIBRARY_CALL_COLUMNS = ['file', 'label', 'subject', 'status', 'duration_ms'] as const satisfies readonly (keyof FleetCall)[];
type LibraryCallColumn = (typeof LIBRARY_CALL_COLUMNS)[number];

class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  idOf(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }
}

const BAD = -2;

/**
 * Columns filled a value at a time, in any order of rows and columns (a Parquet file gives them a
 * column chunk at a time); a value not of its column's kind marks its row, which `finish` drops.
 */
export class CallColumnsBuilder {
  private readonly file: Int32Array;
  private readonly label: Int32Array;
  private readonly status: Uint8Array;
  private readonly subject: Int32Array;
  private readonly durationMs: Float64Array;
  private readonly bad: Uint8Array;
  private readonly files = new Interner();
  private readonly labels = new Interner();
  private readonly subjects = new Interner();

  constructor(private readonly length: number) {
    this.file = new Int32Array(length).fill(BAD);
    this.label = new Int32Array(length).fill(BAD);
    this.status = new Uint8Array(length).fill(255);
    this.subject = new Int32Array(length).fill(-1);
    this.durationMs = new Float64Array(length).fill(Number.NaN);
    this.bad = new Uint8Array(length);
  }

  /** One column's values for the rows from `rowStart` on (values past the table's end are ignored). */
  setColumn(column: LibraryCallColumn, rowStart: number, values: ArrayLike<unknown>): void {
    const end = Math.min(this.length, rowStart + values.length);
    for (let row = Math.max(0, rowStart); row < end; row++) this.set(column, row, values[row - rowStart]);
  }

  set(column: LibraryCallColumn, row: number, value: unknown): void {
    switch (column) {
      case 'file':
        if (typeof value === 'string') this.file[row] = this.files.idOf(value);
        else this.bad[row] = 1;
        break;
      case 'label':
        if (typeof value === 'string') this.label[row] = this.labels.idOf(value);
        else this.bad[row] = 1;
        break;
      case 'status': {
        const index = isDisplayStatus(value) ? DISPLAY_STATUSES.indexOf(value) : -1;
        if (index >= 0) this.status[row] = index;
        else this.bad[row] = 1;
        break;
      }
      case 'subject':
        if (typeof value === 'string') this.subject[row] = this.subjects.idOf(value);
        else if (value !== null && value !== undefined) this.bad[row] = 1;
        break;
      case 'duration_ms':
        // Parquet's INT64 reads back as a bigint.
        if (typeof value === 'bigint') this.durationMs[row] = Number(value);
        else if (typeof value === 'number' && Number.isFinite(value)) this.durationMs[row] = value;
        else if (value !== null && value !== undefined) this.bad[row] = 1;
        break;
    }
  }

  /** The columns, without the rows a value was missing from or not of its kind. */
  finish(): CallColumns {
    let kept = 0;
    for (let row = 0; row < this.length; row++) {
      if (this.bad[row] || this.file[row] === BAD || this.label[row] === BAD || this.status[row] === 255) continue;
      if (kept !== row) {
        this.file[kept] = this.file[row] ?? BAD;
        this.label[kept] = this.label[row] ?? BAD;
        this.status[kept] = this.status[row] ?? 255;
        this.subject[kept] = this.subject[row] ?? -1;
        this.durationMs[kept] = this.durationMs[row] ?? Number.NaN;
      }
      kept++;
    }
    return {
      length: kept,
      file: this.file.subarray(0, kept),
      files: this.files.values,
      label: this.label.subarray(0, kept),
      labels: this.labels.values,
      status: this.status.subarray(0, kept),
      subject: this.subject.subarray(0, kept),
      subjects: this.subjects.values,
      durationMs: this.durationMs.subarray(0, kept),
      rejected: this.length - kept,
    };
  }
}

/** Calls already read as rows, as columns. */
export function callColumnsOf(calls: readonly Pick<FleetCall, LibraryCallColumn>[]): CallColumns {
  const builder = new CallColumnsBuilder(calls.length);
  calls.forEach((call, row) => {
    for (const column of LIBRARY_CALL_COLUMNS) builder.set(column, row, call[column]);
  });
  return builder.finish();
}

/**
 * calls.parquet's library columns, decoded a column chunk at a time straight into the typed arrays
 * (no row objects). A host's file is read by range: its footer, then these columns' chunks alone.
 */
export async function readCallColumns(buffer: ArrayBuffer | AsyncBuffer): Promise<CallColumns> {
  // A remote footer is a few kB: its first read need not take the last half-megabyte of the columns the page leaves out.
  const metadata = buffer instanceof ArrayBuffer ? parquetMetadata(buffer) : await parquetMetadataAsync(buffer, { initialFetchSize: 1 << 16 });
  const names = new Set(metadata.schema.slice(1).map((element) => element.name));
  const builder = new CallColumnsBuilder(Number(metadata.num_rows));
  // A column the file lacks reads as nulls: rows then lack a file, label or status and are rejected.
  const columns = LIBRARY_CALL_COLUMNS.filter((name) => names.has(name));
  await parquetRead({
    file: buffer,
    metadata,
    columns: [...columns],
    onChunk: ({ columnName, columnData, rowStart }) => {
      if ((columns as readonly string[]).includes(columnName)) builder.setColumn(columnName as LibraryCallColumn, rowStart, columnData);
    },
  });
  return builder.finish();
}

// ---------------------------------------------------------------------------------------------
// Passes over the columns

export interface CallFilter {
  label: string;
  status: string;
  /** Text a call's subject contains (case-insensitive). */
  subject: string;
}

const lowerSubjects = new WeakMap<readonly string[], string[]>();

/**
 * Per file (an index into `columns.files`): 1 where a call of the file has the label, the status
 * and the subject text all at once (an empty part matches every call).
 */
export function filesWithCall(columns: CallColumns, filter: CallFilter): Uint8Array {
  const matches = new Uint8Array(columns.files.length);
  const label = filter.label === '' ? -1 : columns.labels.indexOf(filter.label);
  const status = isDisplayStatus(filter.status) ? DISPLAY_STATUSES.indexOf(filter.status) : -1;
  if ((filter.label !== '' && label < 0) || (filter.status !== '' && status < 0)) return matches;
  const text = filter.subject.trim().toLowerCase();
  // The test runs once per distinct subject, not once per call.
  let subjectMatches: Uint8Array | null = null;
  if (text !== '') {
    let lower = lowerSubjects.get(columns.subjects);
    if (!lower) lowerSubjects.set(columns.subjects, (lower = columns.subjects.map((s) => s.toLowerCase())));
    subjectMatches = new Uint8Array(lower.length);
    for (let i = 0; i < lower.length; i++) if (lower[i]?.includes(text)) subjectMatches[i] = 1;
  }
  for (let row = 0; row < columns.length; row++) {
    if (label >= 0 && columns.label[row] !== label) continue;
    if (status >= 0 && columns.status[row] !== status) continue;
    if (subjectMatches && subjectMatches[columns.subject[row] ?? -1] !== 1) continue;
    matches[columns.file[row] ?? 0] = 1;
  }
  return matches;
}

export interface FleetCallTotals {
  labels: FleetLabelStats[];
  calls: number;
  failed: number;
}

/**
 * Calls per label over the files `shownFiles` marks (an index into `columns.files`), in one pass
 * and a selection: the Stats view's numbers (callStats: failure share, nearest-rank p50 and p95 of
 * the known durations; most calls first, then by label).
 */
export function labelStatsOver(columns: CallColumns, shownFiles: Uint8Array): FleetCallTotals {
  const labelCount = columns.labels.length;
  const calls = new Uint32Array(labelCount);
  const failed = new Uint32Array(labelCount);
  const timed = new Uint32Array(labelCount);
  for (let row = 0; row < columns.length; row++) {
    if (shownFiles[columns.file[row] ?? -1] !== 1) continue;
    const label = columns.label[row] ?? 0;
    calls[label]!++;
    if (columns.status[row] === FAILED) failed[label]!++;
    if (!Number.isNaN(columns.durationMs[row])) timed[label]!++;
  }
  const start = new Uint32Array(labelCount + 1);
  for (let label = 0; label < labelCount; label++) start[label + 1] = (start[label] ?? 0) + (timed[label] ?? 0);
  const durations = new Float64Array(start[labelCount] ?? 0);
  const next = start.slice(0, labelCount);
  for (let row = 0; row < columns.length; row++) {
    const ms = columns.durationMs[row] ?? Number.NaN;
    if (shownFiles[columns.file[row] ?? -1] !== 1 || Number.isNaN(ms)) continue;
    durations[next[columns.label[row] ?? 0]!++] = ms;
  }
  const labels: FleetLabelStats[] = [];
  let callTotal = 0;
  let failedTotal = 0;
  for (let label = 0; label < labelCount; label++) {
    const count = calls[label] ?? 0;
    if (count === 0) continue;
    const fails = failed[label] ?? 0;
    callTotal += count;
    failedTotal += fails;
    const own = durations.subarray(start[label], start[label + 1]);
    labels.push({
      label: columns.labels[label] ?? '',
      calls: count,
      failed: fails,
      failedShare: fails / count,
      p50Ms: nearestRank(own, 0.5),
      p95Ms: nearestRank(own, 0.95),
    });
  }
  labels.sort((a, b) => b.calls - a.calls || a.label.localeCompare(b.label));
  return { labels, calls: callTotal, failed: failedTotal };
}

/** The labels at least one call has, sorted. */
export function labelsInUse(columns: CallColumns): string[] {
  const used = new Uint8Array(columns.labels.length);
  for (let row = 0; row < columns.length; row++) used[columns.label[row] ?? 0] = 1;
  return columns.labels.filter((_, id) => used[id] === 1).sort((a, b) => a.localeCompare(b));
}

/**
 * The nearest-rank percentile (insights' `percentile`: the smallest value with at least `p` of the
 * values at or below it) without sorting: a selection, in place (the values are reordered).
 */
export function nearestRank(values: Float64Array, p: number): number | null {
  if (values.length === 0) return null;
  return selectNth(values, Math.max(1, Math.ceil(p * values.length)) - 1);
}

/** The value that would be at index `n` were `values` sorted ascending (Floyd–Rivest-free quickselect, median-of-three pivots); reorders `values`. */
export function selectNth(values: Float64Array, n: number): number {
  let left = 0;
  let right = values.length - 1;
  while (right > left) {
    const middle = (left + right) >>> 1;
    // Median of three as the pivot: sorted or constant runs do not go quadratic.
    if (values[middle]! < values[left]!) swap(values, middle, left);
    if (values[right]! < values[left]!) swap(values, right, left);
    if (values[right]! < values[middle]!) swap(values, right, middle);
    const pivot = values[middle]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        swap(values, i, j);
        i++;
        j--;
      }
    }
    if (n <= j) right = j;
    else if (n >= i) left = i;
    else return values[n]!;
  }
  return values[n]!;
}

function swap(values: Float64Array, a: number, b: number): void {
  const t = values[a]!;
  values[a] = values[b]!;
  values[b] = t;
}

/**
 * Several tables' columns as one (a team's partitions): each part's files named by `fileKey` (its
 * machine and path: two machines may have a file at the same path), labels and subjects interned again.
 */
export function concatCallColumns(parts: readonly { columns: CallColumns; fileKey: (file: string) => string }[]): CallColumns {
  const length = parts.reduce((sum, part) => sum + part.columns.length, 0);
  const files = new Interner();
  const labels = new Interner();
  const subjects = new Interner();
  const out = {
    file: new Int32Array(length), label: new Int32Array(length), status: new Uint8Array(length), subject: new Int32Array(length), durationMs: new Float64Array(length),
  };
  let row = 0;
  for (const { columns, fileKey } of parts) {
    const fileIds = columns.files.map((file) => files.idOf(fileKey(file)));
    const labelIds = columns.labels.map((label) => labels.idOf(label));
    const subjectIds = columns.subjects.map((subject) => subjects.idOf(subject));
    for (let i = 0; i < columns.length; i++, row++) {
      out.file[row] = fileIds[columns.file[i]!]!;
      out.label[row] = labelIds[columns.label[i]!]!;
      out.status[row] = columns.status[i]!;
      const subject = columns.subject[i]!;
      out.subject[row] = subject < 0 ? -1 : subjectIds[subject]!;
      out.durationMs[row] = columns.durationMs[i]!;
    }
  }
  return {
    length, ...out, files: files.values, labels: labels.values, subjects: subjects.values, rejected: parts.reduce((sum, part) => sum + part.columns.rejected, 0),
  };
}
