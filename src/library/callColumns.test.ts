// The calls as columns: read from Parquet without row objects, filtered and summed in passes,
// with the same numbers the Stats view's callStats gives over row objects.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import type { FleetCall } from '../analysis/fleet';
import { fleetLabelStats } from '../analysis/testing/fleetLabelStats';
import { percentile } from '../analysis/insights';
import { DISPLAY_STATUSES } from '../model/status';
import { callColumnsOf, filesWithCall, labelStatsOver, labelsInUse, nearestRank, readCallColumns, selectNth, type CallColumns } from './callColumns';

const LABELS = ['Read', 'Edit', 'Run Command', 'Grep', 'Task'];
const STATUSES: FleetCall['status'][] = ['done', 'done', 'done', 'failed', 'unfinished', 'running'];

/** Numbers below n from a seed (xorshift: every bit varies, unlike a power-of-two LCG's low bits). */
function numbers(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

/** Calls over `files` files with repeating subjects and durations (some unknown), from a seed. */
function someCalls(count: number, files: number, seed = 7): FleetCall[] {
  const next = numbers(seed);
  return Array.from({ length: count }, (_, i) => ({
    file: `/f/s-${next(files)}.jsonl`, format: 'codex', session: null, call_id: String(i), label: LABELS[next(LABELS.length)] ?? 'Read',
    subject: next(5) === 0 ? null : `src/file-${next(40)}.ts`, status: STATUSES[next(STATUSES.length)] ?? 'done', started_ms: null,
    duration_ms: next(4) === 0 ? null : next(3) === 0 ? 1000 : next(100_000), permission: null, exit_code: null, turn_input_tokens: null, turn_output_tokens: null, parent_call_id: null,
  }));
}

/** The columns back as rows, to compare with what was written. */
function rowsOf(columns: CallColumns) {
  return Array.from({ length: columns.length }, (_, i) => ({
    file: columns.files[columns.file[i] ?? -1],
    label: columns.labels[columns.label[i] ?? -1],
    status: DISPLAY_STATUSES[columns.status[i] ?? -1],
    subject: (columns.subject[i] ?? -1) < 0 ? null : columns.subjects[columns.subject[i] ?? -1],
    duration_ms: Number.isNaN(columns.durationMs[i]) ? null : columns.durationMs[i],
  }));
}

describe('readCallColumns', () => {
  test('reads every row group of calls.parquet into columns, rows in order; a row not of the shape is dropped and counted', async () => {
    const calls = someCalls(2_500, 30);
    const statuses: unknown[] = calls.map((c) => c.status);
    statuses[1_234] = 'exploded';
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'file', data: calls.map((c) => c.file), type: 'STRING' },
        { name: 'call_id', data: calls.map((c) => c.call_id), type: 'STRING' },
        { name: 'label', data: calls.map((c) => c.label), type: 'STRING' },
        { name: 'subject', data: calls.map((c) => c.subject), type: 'STRING' },
        { name: 'status', data: statuses, type: 'STRING' },
        { name: 'duration_ms', data: calls.map((c) => (c.duration_ms === null ? null : BigInt(c.duration_ms))), type: 'INT64' },
      ],
      rowGroupSize: 1_000,
      pageSize: 4_096,
    });
    const columns = await readCallColumns(buffer);
    expect(columns.rejected).toBe(1);
    const expected = calls.filter((_, i) => i !== 1_234).map(({ file, label, status, subject, duration_ms }) => ({ file, label, status, subject, duration_ms }));
    expect(rowsOf(columns)).toEqual(expected);
  });
});

describe('labelStatsOver', () => {
  test('calls, failures and p50/p95 per label over the files shown: callStats over the same calls as rows', () => {
    const calls = someCalls(5_000, 12);
    const columns = callColumnsOf(calls);
    const shownFiles = new Set(['/f/s-1.jsonl', '/f/s-4.jsonl', '/f/s-5.jsonl', '/f/s-11.jsonl']);
    const shown = new Uint8Array(columns.files.length);
    columns.files.forEach((file, id) => (shown[id] = shownFiles.has(file) ? 1 : 0));
    const mine = labelStatsOver(columns, shown);
    const theirs = fleetLabelStats(calls.filter((c) => shownFiles.has(c.file)));
    expect(mine.labels).toEqual(theirs);
    expect(mine.calls).toBe(calls.filter((c) => shownFiles.has(c.file)).length);
    expect(mine.failed).toBe(calls.filter((c) => shownFiles.has(c.file) && c.status === 'failed').length);
    expect(labelStatsOver(columns, new Uint8Array(columns.files.length))).toEqual({ labels: [], calls: 0, failed: 0 });
  });
});

describe('filesWithCall and labelsInUse', () => {
  test('a file matches when one call has the label, the status and the subject text at once', () => {
    const columns = callColumnsOf(someCalls(3_000, 20));
    const calls = rowsOf(columns);
    const filesMatching = (label: string, status: string, subject: string) =>
      new Set(calls.filter((c) => (!label || c.label === label) && (!status || c.status === status) && (!subject || (c.subject ?? '').toLowerCase().includes(subject))).map((c) => c.file));
    for (const [label, status, subject] of [['Edit', '', ''], ['Grep', 'failed', ''], ['', 'failed', 'file-3'], ['Task', 'unfinished', 'FILE-1'], ['Nope', '', ''], ['', '', '']] as const) {
      const matches = filesWithCall(columns, { label, status, subject });
      expect(new Set(columns.files.filter((_, id) => matches[id] === 1)), `${label}/${status}/${subject}`).toEqual(filesMatching(label, status, subject.toLowerCase()));
    }
    expect(labelsInUse(columns)).toEqual([...LABELS].sort((a, b) => a.localeCompare(b)));
  });
});

describe('nearestRank', () => {
  test('is the nearest-rank percentile of the sorted values, without sorting them', () => {
    const next = numbers(3);
    const cases = [
      Array.from({ length: 1 }, () => 5),
      Array.from({ length: 2 }, (_, i) => i),
      Array.from({ length: 1_000 }, () => next(50)),
      Array.from({ length: 999 }, (_, i) => i),
      Array.from({ length: 500 }, (_, i) => 500 - i),
      Array.from({ length: 300 }, () => 7),
      Array.from({ length: 4_321 }, () => next(1_000_000)),
    ];
    for (const values of cases) {
      const sorted = Float64Array.from(values).sort();
      for (const p of [0.5, 0.95, 0.01, 1]) expect(nearestRank(Float64Array.from(values), p)).toBe(percentile(sorted, p));
      expect(selectNth(Float64Array.from(values), values.length - 1)).toBe(sorted[values.length - 1]);
    }
    expect(nearestRank(new Float64Array(0), 0.5)).toBeNull();
  });
});
