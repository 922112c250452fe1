// A table's rows as Parquet, its columns of the kinds `loupe index` writes: what the library's tests
// serve in place of an index.
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { FleetTable } from '../../analysis/fleet';

/**
 * Strings go in as their UTF-8 bytes: under jsdom the writer's TextEncoder makes arrays of another
 * realm than its checks'. `rowGroupSize`: rows a row group holds (the writer's default otherwise).
 */
export function parquetOf<Row>(table: FleetTable<Row>, rows: readonly Row[], rowGroupSize?: number): ArrayBuffer {
  return parquetWriteBuffer({
    columnData: table.columns.map(({ name, kind }) => ({
      name,
      type: kind === 'string' ? 'STRING' : kind === 'int' ? 'INT64' : 'DOUBLE',
      data: rows.map((row) => {
        const value = row[name as keyof Row] as unknown;
        if (typeof value === 'string') return new Uint8Array(Buffer.from(value, 'utf8'));
        return kind === 'int' && typeof value === 'number' ? BigInt(value) : value;
      }),
    })),
    ...(rowGroupSize === undefined ? {} : { rowGroupSize }),
  });
}
