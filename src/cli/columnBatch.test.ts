// A reader thread's batch of calls (columnBatch) holds each row's value of each column: a column
// written with a dictionary sends each distinct string once, one written plain (a call's id) each
// row's own, repeated ids too; its columns' numbers and places are one buffer, handed over whole
// to the thread that writes.
import { MessageChannel } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { CALLS_TABLE, type FleetCall } from '../analysis/fleet';
import { batchTransfers, columnBatch, type ColumnBatch } from './indexStore';

function call(n: number): FleetCall {
  return {
    file: 'f', format: 'claude-code', session: n % 5 === 0 ? null : `s${n % 3}`, call_id: `toolu_${n % 7}`, label: n % 2 ? 'Read' : 'Bash',
    subject: n % 4 === 0 ? null : `cmd ${n % 6}`, status: 'done', started_ms: n % 9 === 0 ? null : n * 1000, duration_ms: n, permission: null,
    exit_code: n % 3 === 0 ? null : 0, turn_input_tokens: null, turn_output_tokens: n, parent_call_id: n % 10 === 0 ? 'toolu_1' : null,
  };
}

function expectRows(batch: ColumnBatch, rows: readonly FleetCall[]): void {
  expect(batch.rows).toBe(rows.length);
  CALLS_TABLE.columns.forEach(({ name }, index) => {
    const column = batch.columns[index]!;
    const values = rows.map((_, row) => ('strings' in column ? column.strings[column.at[row]!] : 'numbers' in column ? column.numbers[row] : column.values[row]));
    expect(values, name).toEqual(rows.map((row) => row[name] ?? (CALLS_TABLE.columns[index]!.kind === 'int' ? Number.NaN : null)));
    if ('strings' in column && name !== 'call_id') expect(new Set(column.strings).size, name).toBe(column.strings.length);
  });
  expect(batch.columns[CALLS_TABLE.columns.findIndex(({ name }) => name === 'call_id')]).toMatchObject({ strings: rows.map((row) => row.call_id) });
}

test('a batch gives back every row, column by column; a dictionary column holds each string once', () => {
  const rows = Array.from({ length: 50 }, (_, n) => call(n));
  expectRows(columnBatch(CALLS_TABLE, rows), rows);
  expectRows(columnBatch(CALLS_TABLE, []), []);
});

test('a batch handed over in a message, its one buffer transferred, arrives with every row', async () => {
  const rows = Array.from({ length: 30 }, (_, n) => call(n));
  const batch = columnBatch(CALLS_TABLE, rows);
  const transfers = batchTransfers(batch);
  expect(transfers).toHaveLength(1);
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise<ColumnBatch>((resolve) => port2.once('message', resolve));
  port1.postMessage(batch, transfers);
  const received = await arrived;
  port1.close();
  // Handed over, not copied: the sender's views are empty now.
  expect(transfers[0]!.byteLength).toBe(0);
  expectRows(received, rows);
});
