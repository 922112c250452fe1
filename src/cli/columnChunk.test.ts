// The index's own column writer (columnChunk.ts), read back by hyparquet: every kind of value each
// path takes (dictionary and plain, ASCII and not, nulls, ints past 32 bits and below zero, a
// column that takes several pages) comes back as it went in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterAll, expect, test } from 'vitest';
import { CALLS_TABLE, fleetCallOf, fleetSessionOf, SESSIONS_TABLE, type FleetCall, type FleetSession } from '../analysis/fleet';
import { columnBatch, TableWriter } from './indexStore';

const work = mkdtempSync(join(tmpdir(), 'loupe-column-chunk-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROWS = 700;

function call(n: number): FleetCall {
  return {
    file: `f${n % 3}`, format: 'claude-code', session: n % 5 === 0 ? null : `s${n % 7}`,
    call_id: n % 11 === 0 ? `ïd-${n}-✓` : `toolu_${n}`, label: n % 2 ? 'Read' : 'Bash',
    // Distinct and long (a dictionary would not pay): the plain pages split at 1 MB; some not ASCII, some null.
    subject: n % 13 === 0 ? null : `${n % 17 === 0 ? 'é😀' : ''}${n}:${'y'.repeat(4000)}`,
    status: n % 4 === 0 ? 'failed' : 'done', started_ms: n % 9 === 0 ? null : 2 ** 41 + n * 977 - (n % 2) * 2 ** 42,
    duration_ms: n % 3, permission: null, exit_code: n % 6 === 0 ? -1 : n % 6 === 1 ? null : 0,
    turn_input_tokens: n * 4_294_967_297, turn_output_tokens: null, parent_call_id: n % 10 === 0 ? `toolu_${n - 1}` : null,
  };
}

test('calls added a row at a time and as batches read back as they were added, over several row groups', async () => {
  const calls = Array.from({ length: ROWS }, (_, n) => call(n));
  const writer = new TableWriter<FleetCall>(work, CALLS_TABLE, 300);
  for (const row of calls.slice(0, 250)) writer.add(row);
  await writer.addBatch(columnBatch(CALLS_TABLE, calls.slice(250, 600)));
  for (const row of calls.slice(600)) writer.add(row);
  await writer.finish();
  const file = await asyncBufferFromFile(join(work, CALLS_TABLE.file));
  const metadata = await parquetMetadataAsync(file);
  expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([300, 300, 100]);
  const subjectPages = metadata.row_groups[0]!.columns.find((chunk) => chunk.meta_data?.path_in_schema[0] === 'subject')!;
  expect(subjectPages.offset_index_offset).toBeDefined();
  const labels = metadata.row_groups[0]!.columns.find((chunk) => chunk.meta_data?.path_in_schema[0] === 'label')!;
  expect(labels.meta_data?.encodings).toContain('RLE_DICTIONARY');
  const read = (await parquetReadObjects({ file, metadata })).map((raw) => fleetCallOf(raw));
  expect(read).toEqual(calls);
});

test('a session table (doubles, NaN among them) reads back as written, with min and max as its writer keeps them', async () => {
  const sessions: FleetSession[] = [0, 1, 2, 3].map((n) => ({
    file: `f${n}`, format: 'codex', session: `s${n}`, project: n ? '/p' : null, title: null, started_ms: 1000 * n, ended_ms: null,
    calls: n, failed: 0, input_tokens: 1 - n, output_tokens: 2 ** 50, cost: [0, 1.5, null, Number.NaN][n]!, cost_unit: 'usd', bytes: 10, bad_lines: 0, modified_ms: 7,
  }));
  const writer = new TableWriter<FleetSession>(work, SESSIONS_TABLE);
  for (const row of sessions) writer.add(row);
  await writer.finish();
  const file = await asyncBufferFromFile(join(work, SESSIONS_TABLE.file));
  const metadata = await parquetMetadataAsync(file);
  const read = await parquetReadObjects({ file, metadata });
  expect(read.slice(0, 3).map((raw) => fleetSessionOf(raw))).toEqual(sessions.slice(0, 3));
  expect(read.map((raw) => raw.cost as unknown)).toEqual([0, 1.5, null, Number.NaN]);
  const statistics = (name: string) => metadata.row_groups[0]!.columns.find((chunk) => chunk.meta_data?.path_in_schema[0] === name)!.meta_data!.statistics;
  expect(statistics('input_tokens')).toMatchObject({ min_value: -2n, max_value: 1n, null_count: 0n });
  expect(statistics('cost')).toMatchObject({ min_value: -0, max_value: 1.5, null_count: 1n });
  expect(statistics('ended_ms')).toMatchObject({ null_count: 4n });
});

test('a double column that a dictionary writes keeps the sign of zero (a Map takes -0 and 0 as one key)', async () => {
  const costs = Array.from({ length: 40 }, (_, n) => [-0, 0, 2.5][n % 3]!);
  const sessions: FleetSession[] = costs.map((cost, n) => ({
    file: `z${n}`, format: 'codex', session: null, project: null, title: null, started_ms: null, ended_ms: null,
    calls: 0, failed: 0, input_tokens: null, output_tokens: null, cost, cost_unit: 'usd', bytes: 1, bad_lines: 0, modified_ms: 0,
  }));
  const dir = mkdtempSync(join(work, 'zero-'));
  const writer = new TableWriter<FleetSession>(dir, SESSIONS_TABLE);
  for (const row of sessions) writer.add(row);
  await writer.finish();
  const file = await asyncBufferFromFile(join(dir, SESSIONS_TABLE.file));
  const metadata = await parquetMetadataAsync(file);
  const chunk = metadata.row_groups[0]!.columns.find((column) => column.meta_data?.path_in_schema[0] === 'cost')!;
  expect(chunk.meta_data?.encodings).toContain('RLE_DICTIONARY');
  const read = await parquetReadObjects({ file, metadata, columns: ['cost'] });
  expect(read.map((raw) => Object.is(raw.cost, -0))).toEqual(costs.map((cost) => Object.is(cost, -0)));
});
