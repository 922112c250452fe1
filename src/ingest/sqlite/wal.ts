// A SQLite database as its writer last committed it, from the bytes of its main file and its
// write-ahead log (`-wal`), without opening either for writing: the agent that writes them keeps
// working. Frames are applied onto the main file's pages in memory, as a reader of the database
// would see them (https://www.sqlite.org/fileformat2.html#walformat): the WAL's 32-byte header
// gives the page size, the checksum byte order and two salts; each frame is a 24-byte header (page
// number, the database's size in pages for a commit frame, the salts, a running checksum) and a
// page. Frames count up to the last commit frame whose salts match the header and whose checksums
// hold; later frames (a transaction still being written, or a log a checkpoint restarted over) are
// not the database yet.

/** `SQLite format 3\0`: the first 16 bytes of every SQLite database file. */
export const SQLITE_MAGIC = new Uint8Array([0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00]);

export function isSqlite(bytes: Uint8Array): boolean {
  if (bytes.length < SQLITE_MAGIC.length) return false;
  for (let i = 0; i < SQLITE_MAGIC.length; i++) if (bytes[i] !== SQLITE_MAGIC[i]) return false;
  return true;
}

export interface WalApplied {
  /** The database with its committed WAL frames applied, in rollback-journal mode (bytes 18/19 = 1). */
  bytes: Uint8Array;
  /** Frames applied (those up to the last valid commit). */
  frames: number;
  /** Frames in the log after the last valid commit: not the database yet. */
  ignoredFrames: number;
  /** Why the log was not used, when it was not (bad magic, page size that differs). */
  problem?: string;
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/**
 * `main` with the committed frames of `wal` applied. Neither input is changed. Without a log (or
 * with an empty one) the result is `main` itself, switched to rollback-journal mode so that an
 * in-memory SQLite opens it without looking for a `-wal`.
 */
export function applyWal(main: Uint8Array, wal: Uint8Array | undefined): WalApplied {
  const pageSizeOfMain = main.length >= 18 ? pageSizeField((main[16]! << 8) | main[17]!) : 0;
  const none = (problem?: string): WalApplied => ({ bytes: journalMode(new Uint8Array(main)), frames: 0, ignoredFrames: 0, problem });
  if (wal === undefined || wal.length < WAL_HEADER) return none();
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return none('the -wal file is not a SQLite write-ahead log');
  const bigEndian = (magic & 1) === 1;
  const pageSize = pageSizeField(view.getUint32(8));
  if (pageSize === 0) return none('the -wal file names no valid page size');
  if (pageSizeOfMain !== 0 && pageSizeOfMain !== pageSize) return none(`the -wal file's page size (${pageSize}) is not the database's (${pageSizeOfMain})`);
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);
  let sum: [number, number] = checksum(wal, 0, 24, bigEndian, [0, 0]);
  if (sum[0] !== view.getUint32(24) || sum[1] !== view.getUint32(28)) return none('the -wal header checksum does not hold');

  // The frames of the committed transactions: page number → offset of its newest committed copy.
  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let sizeInPages = 0;
  let frames = 0;
  let pendingFrames = 0;
  const frameSize = FRAME_HEADER + pageSize;
  for (let at = WAL_HEADER; at + frameSize <= wal.length; at += frameSize) {
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    sum = checksum(wal, at, 8, bigEndian, sum);
    sum = checksum(wal, at + FRAME_HEADER, pageSize, bigEndian, sum);
    if (sum[0] !== view.getUint32(at + 16) || sum[1] !== view.getUint32(at + 20)) break;
    const page = view.getUint32(at);
    if (page === 0) break;
    pending.set(page, at + FRAME_HEADER);
    pendingFrames++;
    const commitSize = view.getUint32(at + 4);
    if (commitSize !== 0) {
      for (const [p, offset] of pending) committed.set(p, offset);
      pending.clear();
      frames += pendingFrames;
      pendingFrames = 0;
      sizeInPages = commitSize;
    }
  }
  const totalFrames = Math.floor((wal.length - WAL_HEADER) / frameSize);
  if (frames === 0) return { ...none(), ignoredFrames: totalFrames };

  const bytes = new Uint8Array(sizeInPages * pageSize);
  bytes.set(main.subarray(0, Math.min(main.length, bytes.length)));
  for (const [page, offset] of committed) {
    if (page > sizeInPages) continue;
    bytes.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
  }
  return { bytes: journalMode(bytes), frames, ignoredFrames: totalFrames - frames };
}

/** The header's page size field: 1 means 65536; anything not a power of two from 512 is invalid (0). */
function pageSizeField(value: number): number {
  const size = value === 1 ? 65536 : value;
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0 ? size : 0;
}

/** Bytes 18 and 19 (write and read format versions) set to 1: legacy rollback journal, no WAL. */
function journalMode(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 20) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return bytes;
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8) from `at`, continuing `[s0, s1]`. */
function checksum(bytes: Uint8Array, at: number, length: number, bigEndian: boolean, [s0, s1]: [number, number]): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let a = s0 >>> 0;
  let b = s1 >>> 0;
  for (let i = at; i < at + length; i += 8) {
    a = (a + view.getUint32(i, !bigEndian) + b) >>> 0;
    b = (b + view.getUint32(i + 4, !bigEndian) + a) >>> 0;
  }
  return [a, b];
}
