// The table writer's keeping path, on a table with page indexes: the kept row groups' bytes stay
// where they were, their page indexes (written after the last group, so past what is kept) move
// after them and still describe their pages, and the table reads back whole.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, readOffsetIndex } from 'hyparquet';
import { afterAll, describe, expect, test } from 'vitest';
import { CALLS_TABLE, fleetCallOf, type FleetCall } from '../analysis/fleet';
import { TableWriter } from './indexStore';

const work = mkdtempSync(join(tmpdir(), 'loupe-index-store-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROWS_PER_FILE = 400;

/** A call whose subject is long and unlike any other: no dictionary holds them, so a group's subject column takes several pages. */
function call(file: string, n: number): FleetCall {
  const subject = `${file}/${n}/${'x'.repeat(6000)}${n.toString(36).repeat(40)}`;
  return {
    file, format: 'acp-jsonrpc', session: 's', call_id: `${file}-${n}`, label: 'Read', subject, status: 'done',
    started_ms: n, duration_ms: 5, permission: null, exit_code: null, turn_input_tokens: null, turn_output_tokens: null, parent_call_id: null,
  };
}

async function tableOf(path: string) {
  const file = await asyncBufferFromFile(path);
  return { file, metadata: await parquetMetadataAsync(file) };
}

describe('TableWriter.keeping', () => {
  test('keeps the groups before the first with a dropped file byte for byte, with their page indexes, and writes the rest again', async () => {
    const writer = new TableWriter<FleetCall>(work, CALLS_TABLE, ROWS_PER_FILE);
    for (const name of ['a', 'b', 'c']) for (let n = 0; n < ROWS_PER_FILE; n++) writer.add(call(name, n));
    await writer.finish();
    const path = join(work, CALLS_TABLE.file);
    const before = readFileSync(path);
    const first = await tableOf(path);
    expect(first.metadata.row_groups).toHaveLength(3);
    // The case this guards: a kept group whose page index lies after the last group.
    const indexed = first.metadata.row_groups[0]!.columns.filter((chunk) => chunk.offset_index_offset !== undefined);
    expect(indexed.length).toBeGreaterThan(0);

    const kept = await TableWriter.keeping(work, CALLS_TABLE, (file) => (file !== 'b' ? file : null), fleetCallOf, ROWS_PER_FILE);
    expect(kept).not.toBeNull();
    for (let n = 0; n < 10; n++) kept!.writer.add(call('d', n));
    await kept!.writer.finish();
    expect([...kept!.kept].sort()).toEqual(['a', 'c']);

    const after = await tableOf(path);
    const firstGroup = after.metadata.row_groups[0]!;
    const groupEnd = Math.max(...firstGroup.columns.map(({ meta_data: m }) => Number(m!.dictionary_page_offset ?? m!.data_page_offset) + Number(m!.total_compressed_size)));
    expect(readFileSync(path).subarray(0, groupEnd).equals(before.subarray(0, groupEnd))).toBe(true);
    // Each kept page index is read at its new place and still points at its own chunk's pages.
    for (const chunk of firstGroup.columns) {
      if (chunk.offset_index_offset === undefined || chunk.offset_index_length === undefined) continue;
      const at = Number(chunk.offset_index_offset);
      const index = readOffsetIndex({ view: new DataView(await after.file.slice(at, at + chunk.offset_index_length)), offset: 0 });
      const meta = chunk.meta_data!;
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      expect(index.page_locations.length).toBeGreaterThan(1);
      for (const page of index.page_locations) {
        expect(Number(page.offset)).toBeGreaterThanOrEqual(start);
        expect(Number(page.offset) + page.compressed_page_size).toBeLessThanOrEqual(start + Number(meta.total_compressed_size));
      }
    }
    const rows = await parquetReadObjects({ file: after.file, metadata: after.metadata, columns: ['file', 'call_id', 'subject'] });
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(String(row.file), (counts.get(String(row.file)) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ a: ROWS_PER_FILE, c: ROWS_PER_FILE, d: 10 });
    expect(rows.find((row) => row.call_id === 'c-7')?.subject).toBe(call('c', 7).subject);
  });
});
