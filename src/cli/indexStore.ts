// Where `loupe index` keeps what it read: `calls.parquet` and `sessions.parquet` (and
// `manifest.json`, indexManifest.ts). Every file is written under a temporary name and renamed into
// place, so a reader never sees one half written.
import { appendFileSync, copyFileSync, truncateSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { fileWriter, ParquetWriter, type Writer } from 'hyparquet-writer';
import type { AsyncBuffer, ColumnChunk, CompressionCodec, Encoding, FileMetaData, RowGroup, SchemaElement } from 'hyparquet';
import { CALLS_TABLE, type FleetTable } from '../analysis/fleet';
import { columnValues, NumberValues, schemaElement, writeColumnChunk, type ColumnValues } from './columnChunk';
import { DEFAULT_ROW_GROUP_ROWS } from './indexOutput';

const CREATED_BY = 'loupe index';

/**
 * Columns whose encoding is known without trying: a call's id is its own (a dictionary of them
 * would be as large as they are), so it is written plain and the writer does not test it.
 */
const ENCODINGS: Record<string, Record<string, Encoding>> = {
  [CALLS_TABLE.file]: { call_id: 'PLAIN' },
};

const CODEC: CompressionCodec = 'SNAPPY';

/**
 * Rows of a table as columns: how a reader thread sends a file's calls. A message of a few arrays
 * costs a fraction of one of an object per row to copy, in the thread and again where it arrives,
 * and a string repeated down a column (a call's file, session, label) is sent once.
 */
export interface ColumnBatch {
  rows: number;
  /** In the table's column order. */
  columns: BatchColumn[];
}

/** A string column: its distinct values and each row's; an int column: NaN for null; a double column as it is. */
export type BatchColumn = { strings: (string | null)[]; at: Uint32Array<ArrayBuffer> } | { numbers: Float64Array<ArrayBuffer> } | { values: (number | null)[] };

export function columnBatch<Row extends object>(table: FleetTable<Row>, rows: readonly Row[]): ColumnBatch {
  const encodings = ENCODINGS[table.file] ?? {};
  // Every column's numbers and places in one buffer (numbers first, for their alignment): a message
  // hands over one buffer, not one per column, which cost more than the copying they save.
  const kinds = table.columns.map(({ kind }) => kind);
  const numberColumns = kinds.filter((kind) => kind === 'int').length;
  const placeColumns = kinds.filter((kind) => kind === 'string').length;
  const buffer = new ArrayBuffer(rows.length * (8 * numberColumns + 4 * placeColumns));
  let numbersAt = 0;
  let placesAt = rows.length * 8 * numberColumns;
  const numbersOf = (): Float64Array<ArrayBuffer> => {
    const numbers = new Float64Array(buffer, numbersAt, rows.length);
    numbersAt += numbers.byteLength;
    return numbers;
  };
  const placesOf = (): Uint32Array<ArrayBuffer> => {
    const places = new Uint32Array(buffer, placesAt, rows.length);
    placesAt += places.byteLength;
    return places;
  };
  const columns = table.columns.map(({ name, kind }): BatchColumn => {
    if (kind === 'string' && encodings[name] === 'PLAIN') {
      // Each value its own (a call's id), as the column is written: looking each up in a map of
      // them all (a third of a batch's time) would find almost none twice.
      const strings: (string | null)[] = [];
      const at = placesOf();
      for (let index = 0; index < rows.length; index++) {
        const field: unknown = rows[index]![name];
        at[index] = strings.push(typeof field === 'string' ? field : null) - 1;
      }
      return { strings, at };
    }
    if (kind === 'string') {
      const strings: (string | null)[] = [];
      const indexOf = new Map<string | null, number>();
      const at = placesOf();
      // Most values repeat the one above (a call's file, session, status): told apart without a look-up.
      let above: string | null | undefined;
      let aboveIndex = 0;
      for (let index = 0; index < rows.length; index++) {
        // As `add` takes it: what is not a string is null.
        const field: unknown = rows[index]![name];
        const value = typeof field === 'string' ? field : null;
        if (value !== above) {
          above = value;
          const known = indexOf.get(value);
          aboveIndex = known ?? strings.push(value) - 1;
          if (known === undefined) indexOf.set(value, aboveIndex);
        }
        at[index] = aboveIndex;
      }
      return { strings, at };
    }
    if (kind === 'int') {
      const numbers = numbersOf();
      for (let index = 0; index < rows.length; index++) numbers[index] = (rows[index]![name] as number | null | undefined) ?? Number.NaN;
      return { numbers };
    }
    return { values: rows.map((row) => (row[name] as number | null | undefined) ?? null) };
  });
  return { rows: rows.length, columns };
}

/** The buffers a batch's message can hand over rather than copy. */
export function batchTransfers(batch: ColumnBatch): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const column of batch.columns) {
    if ('at' in column) buffers.add(column.at.buffer);
    else if ('numbers' in column) buffers.add(column.numbers.buffer);
  }
  return [...buffers];
}

/** A table written a row group at a time to a temporary file, renamed into place by `finish`. */
export class TableWriter<Row extends object> {
  private readonly temp: string;
  private readonly writer: ParquetWriter;
  /** The rows not yet written, a column at a time (in the table's column order). */
  private pending: ColumnValues[];
  private pendingRows = 0;
  count = 0;

  /**
   * A writer that starts with every row of the table the last run wrote, its row groups copied as
   * they are (not decoded and encoded again): when files were only added, that is most of a run's
   * work saved. Null when the table cannot be read or is not this version's.
   */
  static async appending<Row extends object>(out: string, table: FleetTable<Row>, rowGroupRows = DEFAULT_ROW_GROUP_ROWS): Promise<TableWriter<Row> | null> {
    const previous = await previousTable(out, table);
    if (!previous) return null;
    const { path, size, metadata } = previous;
    const writer = new TableWriter(out, table, rowGroupRows);
    // Everything before the footer (row groups, page indexes) stays where it is; the new row groups
    // follow it (after the 4 bytes the writer starts with, which no offset points to), and the new
    // footer lists the old row groups and the new.
    const footerStart = size - 8 - metadata.metadata_length;
    copyFileSync(path, writer.temp);
    truncateSync(writer.temp, footerStart);
    writer.startAfter(footerStart, metadata.row_groups);
    return writer;
  }

  /**
   * A writer that starts with the last run's row groups up to the first one that holds a row of a
   * file `keep` refuses (a file changed or gone), copied as they are, then the kept files' rows of
   * the groups after it, read again a group at a time. A session that keeps changing (one an agent
   * is writing) had its rows added last, so a run rewrites only those. Null when the table cannot
   * be read or is not this version's (the caller then reads every file). `keep` names the unit a
   * row is kept with (its file, or a session of a database), null for a row dropped; `kept`: the
   * units whose rows the writer holds.
   */
  static async keeping<Row extends { file: string; session: string | null }>(
    out: string,
    table: FleetTable<Row>,
    keep: (file: string, session: string | null) => string | null,
    rowOf: (raw: Record<string, unknown>) => Row | null,
    rowGroupRows = DEFAULT_ROW_GROUP_ROWS,
  ): Promise<{ writer: TableWriter<Row>; kept: Set<string> } | null> {
    const previous = await previousTable(out, table);
    if (!previous) return null;
    const { path, file, metadata } = previous;
    const kept = new Set<string>();
    const writer = new TableWriter(out, table, rowGroupRows);
    try {
      // The groups copied: those before the first with a row not kept (the `file` and `session` columns alone are read to tell).
      let copied = 0;
      let rowStart = 0;
      for (const group of metadata.row_groups) {
        const rowEnd = rowStart + Number(group.num_rows);
        const units = (await parquetReadObjects({ file, metadata, columns: ['file', 'session'], rowStart, rowEnd })).map(({ file: name, session }: Record<string, unknown>) =>
          typeof name === 'string' && (session === null || session === undefined || typeof session === 'string') ? keep(name, session ?? null) : null,
        );
        if (units.includes(null)) break;
        for (const unit of units) if (unit !== null) kept.add(unit);
        copied++;
        rowStart = rowEnd;
      }
      const groups = metadata.row_groups.slice(0, copied);
      const prefixEnd = groups.reduce((end, group) => Math.max(end, groupEnd(group)), 4);
      copyFileSync(path, writer.temp);
      truncateSync(writer.temp, prefixEnd);
      // A copied group's page indexes and bloom filter lie after the last group of its run: those
      // past the copied bytes are copied after them, and their offsets follow.
      let end = prefixEnd;
      for (const chunk of groups.flatMap((group) => group.columns)) end = await moveAfter(file, writer.temp, chunk, prefixEnd, end);
      writer.startAfter(end, groups);
      for (const group of metadata.row_groups.slice(copied)) {
        const rowEnd = rowStart + Number(group.num_rows);
        for (const raw of await parquetReadObjects({ file, metadata, rowStart, rowEnd })) {
          const row = rowOf(raw);
          if (row === null) throw new Error(`${table.file} holds a row this version cannot read`);
          const unit = keep(row.file, row.session);
          if (unit === null) continue;
          kept.add(unit);
          writer.add(row);
        }
        rowStart = rowEnd;
      }
      return { writer, kept };
    } catch {
      await writer.abandon();
      return null;
    }
  }

  /** The file holds `groups` up to `offset`: the writer's row groups follow them. */
  private startAfter(offset: number, groups: RowGroup[]): void {
    // The writer's own 4 bytes are still in its buffer: they land at `offset` when it flushes.
    this.bytes.offset = offset + 4;
    this.writer.row_groups = [...groups];
    const rows = groups.reduce((sum, group) => sum + group.num_rows, 0n);
    this.writer.num_rows = rows;
    this.count = Number(rows);
  }

  private readonly bytes: Writer;

  constructor(
    private readonly out: string,
    private readonly table: FleetTable<Row>,
    private readonly rowGroupRows = DEFAULT_ROW_GROUP_ROWS,
  ) {
    this.temp = join(out, `.${table.file}.${process.pid}.tmp`);
    this.pending = this.emptyColumns();
    const schema: SchemaElement[] = [{ name: 'root', num_children: table.columns.length }, ...table.columns.map(({ name, kind }) => schemaElement(name, kind))];
    this.bytes = fileWriter(this.temp);
    this.writer = new ParquetWriter({ writer: this.bytes, schema, createdBy: CREATED_BY });
  }

  private emptyColumns(): ColumnValues[] {
    const encodings = ENCODINGS[this.table.file] ?? {};
    return this.table.columns.map(({ name, kind }) => columnValues(kind, encodings[name], this.rowGroupRows));
  }

  add(row: Row): void {
    // Kept as columns, not rows: a row group's values are what stays in memory until it is written,
    // and an object per row (with the copies a thread's message made) was most of the index's peak.
    // A string column keeps each distinct value once (each thread's message makes its own copy of every string).
    const columns = this.table.columns;
    for (let index = 0; index < columns.length; index++) {
      const values = this.pending[index]!;
      const value = row[columns[index]!.name] as unknown;
      if (values instanceof NumberValues) values.add(typeof value === 'number' ? value : null);
      else values.add(typeof value === 'string' ? value : null);
    }
    this.pendingRows++;
    this.count++;
    if (this.pendingRows >= this.rowGroupRows) this.flush();
  }

  /**
   * The rows of a batch (columnBatch), in order: as `add` of each row. A row group it fills is
   * written a column at a time, with the event loop let run between them: a group takes up to a
   * fifth of a second while the writing code is cold, and reader threads handed no file meanwhile
   * ran dry and waited.
   */
  async addBatch(batch: ColumnBatch): Promise<void> {
    let from = 0;
    while (from < batch.rows) {
      const count = Math.min(batch.rows - from, this.rowGroupRows - this.pendingRows);
      for (let index = 0; index < batch.columns.length; index++) {
        const values = this.pending[index]!;
        const column = batch.columns[index]!;
        if ('strings' in column) {
          if (values instanceof NumberValues) throw new Error(`${this.table.file}: a batch's strings for a number column`);
          values.addCoded(column.strings, column.at, from, count);
        } else {
          if (!(values instanceof NumberValues)) throw new Error(`${this.table.file}: a batch's numbers for a string column`);
          if ('numbers' in column) values.addNumbers(column.numbers, from, count);
          else for (let row = from; row < from + count; row++) values.add(column.values[row]!);
        }
      }
      this.pendingRows += count;
      this.count += count;
      from += count;
      if (this.pendingRows >= this.rowGroupRows) for (const _column of this.flushing()) await new Promise((next) => setImmediate(next));
    }
  }

  private flush(): void {
    for (const _column of this.flushing());
  }

  /** Writes the pending rows as a row group, a column chunk a step. */
  private *flushing(): Generator<void> {
    if (this.pendingRows === 0) return;
    const rows = this.pendingRows;
    const pending = this.pending;
    this.pending = this.emptyColumns();
    this.pendingRows = 0;
    // The writer's row group, its chunks written here (columnChunk.ts): what ParquetWriter.write does, less its testing of each value.
    const groupStart = this.bytes.offset;
    const columns: ColumnChunk[] = [];
    for (const [index, { name, kind }] of this.table.columns.entries()) {
      const written = writeColumnChunk(this.bytes, name, pending[index]!, { codec: CODEC, statistics: kind !== 'string' });
      // Its offset index is written after the last group, by the writer's `finish`.
      this.writer.pendingIndexes.push(written);
      columns.push(written.chunk);
      yield;
    }
    const uncompressed = columns.reduce((sum, chunk) => sum + (chunk.meta_data?.total_uncompressed_size ?? 0n), 0n);
    this.writer.row_groups.push({ columns, total_byte_size: uncompressed, num_rows: BigInt(rows), total_compressed_size: BigInt(this.bytes.offset - groupStart) });
    this.writer.num_rows += BigInt(rows);
  }

  /** Writes the footer and moves the file into place. */
  async finish(): Promise<void> {
    this.flush();
    await this.writer.finish();
    await rename(this.temp, join(this.out, this.table.file));
  }

  async abandon(): Promise<void> {
    await rm(this.temp, { force: true });
  }
}

/** The table the last run wrote, when it is there and has this version's columns. */
async function previousTable<Row extends object>(out: string, table: FleetTable<Row>): Promise<{ path: string; file: AsyncBuffer; size: number; metadata: FileMetaData } | null> {
  const path = join(out, table.file);
  try {
    const file = await asyncBufferFromFile(path);
    const metadata = await parquetMetadataAsync(file);
    const names = metadata.schema.slice(1).map((element) => element.name);
    if (names.length !== table.columns.length || names.some((name, index) => name !== table.columns[index]?.name)) return null;
    return { path, file, size: file.byteLength, metadata };
  } catch {
    return null;
  }
}

/** Where a row group's column chunks end. */
function groupEnd(group: RowGroup): number {
  let end = 0;
  for (const { meta_data: meta } of group.columns) {
    if (!meta) continue;
    const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    end = Math.max(end, start + Number(meta.total_compressed_size));
  }
  return end;
}

/**
 * The chunk's page indexes and bloom filter, where they lie at or past `copiedEnd` in `from`,
 * appended to `to` (which ends at `end`) and pointed at there; the new end.
 */
async function moveAfter(from: AsyncBuffer, to: string, chunk: ColumnChunk, copiedEnd: number, end: number): Promise<number> {
  const move = async (offset: bigint | undefined, length: number | undefined, set: (offset: bigint) => void): Promise<void> => {
    if (offset === undefined || length === undefined || Number(offset) + length <= copiedEnd) return;
    appendFileSync(to, new Uint8Array(await from.slice(Number(offset), Number(offset) + length)));
    set(BigInt(end));
    end += length;
  };
  await move(chunk.column_index_offset, chunk.column_index_length, (offset) => void (chunk.column_index_offset = offset));
  await move(chunk.offset_index_offset, chunk.offset_index_length, (offset) => void (chunk.offset_index_offset = offset));
  const meta = chunk.meta_data;
  if (meta) await move(meta.bloom_filter_offset, meta.bloom_filter_length, (offset) => void (meta.bloom_filter_offset = offset));
  return end;
}
