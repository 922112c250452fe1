// Test support: a SQLite write-ahead log written by hand, holding one committed transaction (a
// database "still open" in its writer), for tests of readers that must apply it.

/**
 * SQLite's WAL checksum, to write a log here: the WAL reader is held to SQLite's own logs by
 * ingest/sqlite/wal.test.ts; this one only has to be a valid log.
 */
function checksum(bytes: Uint8Array, at: number, length: number, sum: [number, number]): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let [a, b] = sum;
  for (let i = at; i < at + length; i += 8) {
    a = (a + view.getUint32(i, true) + b) >>> 0;
    b = (b + view.getUint32(i + 4, true) + a) >>> 0;
  }
  return [a, b];
}

/** A log writing every page of `after` in one transaction (its last frame the commit), as a checkpoint has not yet copied it. */
export function walOf(after: Uint8Array, pageSize = 4096): Uint8Array<ArrayBuffer> {
  const pages = after.length / pageSize;
  const wal = new Uint8Array(32 + pages * (24 + pageSize));
  const view = new DataView(wal.buffer);
  view.setUint32(0, 0x377f0682);
  view.setUint32(4, 3007000);
  view.setUint32(8, pageSize);
  view.setUint32(16, 0x1234);
  view.setUint32(20, 0x5678);
  let sum = checksum(wal, 0, 24, [0, 0]);
  view.setUint32(24, sum[0]);
  view.setUint32(28, sum[1]);
  for (let page = 1; page <= pages; page++) {
    const at = 32 + (page - 1) * (24 + pageSize);
    view.setUint32(at, page);
    view.setUint32(at + 4, page === pages ? pages : 0);
    view.setUint32(at + 8, 0x1234);
    view.setUint32(at + 12, 0x5678);
    wal.set(after.subarray((page - 1) * pageSize, page * pageSize), at + 24);
    sum = checksum(wal, at, 8, sum);
    sum = checksum(wal, at + 24, pageSize, sum);
    view.setUint32(at + 16, sum[0]);
    view.setUint32(at + 20, sum[1]);
  }
  return wal;
}
