// Reading a database its writer still has open: the committed frames of its write-ahead log
// applied in memory, the rest left out. The fixture was made with the sqlite3 CLI (3.40.1, see
// fixtures/README.md): one row checkpointed into the main file, two committed transactions in the
// WAL, then a transaction still open whose pages spilled into the WAL (38 frames, no commit frame).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSqlJs } from './sqljs';
import { applyWal, isSqlite } from './wal';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/sqlite');
const main = readFileSync(join(FIXTURES, 'wal-with-uncommitted-tail.db'));
const wal = readFileSync(join(FIXTURES, 'wal-with-uncommitted-tail.db-wal'));

async function notes(bytes: Uint8Array): Promise<string[]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(bytes);
  try {
    return (db.exec('SELECT note FROM t ORDER BY id')[0]?.values ?? []).map((row) => String(row[0]));
  } finally {
    db.close();
  }
}

describe('a database with its write-ahead log', () => {
  test('is told by its magic', () => {
    expect(isSqlite(main)).toBe(true);
    expect(isSqlite(new TextEncoder().encode('{"jsonrpc":"2.0"}\n'))).toBe(false);
    expect(isSqlite(main.subarray(0, 15))).toBe(false);
  });

  test('the main file alone holds what was checkpointed; with its WAL, every committed transaction and not the open one', async () => {
    expect(await notes(applyWal(main, undefined).bytes)).toEqual(['in the main file']);
    const applied = applyWal(main, wal);
    expect({ frames: applied.frames, ignoredFrames: applied.ignoredFrames, problem: applied.problem }).toEqual({ frames: 2, ignoredFrames: 38, problem: undefined });
    expect(await notes(applied.bytes)).toEqual(['in the main file', 'committed in the WAL, first transaction', 'committed in the WAL, second transaction']);
    // Opened without WAL: bytes 18 and 19 say rollback journal. The inputs are not changed (a Buffer's slice would share them).
    expect([applied.bytes[18], applied.bytes[19], main[18], main[19]]).toEqual([1, 1, 2, 2]);
  });

  test('a log cut in the middle of a frame, or whose frame no longer matches its checksum, counts up to the last good commit', async () => {
    // The second frame is the second commit: cut inside it, only the first commit holds.
    const cut = wal.subarray(0, 32 + 1048 + 500);
    expect(await notes(applyWal(main, cut).bytes)).toEqual(['in the main file', 'committed in the WAL, first transaction']);
    const flipped = new Uint8Array(wal);
    flipped[32 + 1048 + 24 + 100]! ^= 0xff;
    expect(applyWal(main, flipped).frames).toBe(1);
  });

  test("frames of an earlier log (other salts) are not the database's; a log that is not one is said and left out", async () => {
    const salted = new Uint8Array(wal);
    salted[32 + 8] = salted[32 + 8]! ^ 1;
    expect(applyWal(main, salted)).toMatchObject({ frames: 0, ignoredFrames: 40 });
    expect(await notes(applyWal(main, salted).bytes)).toEqual(['in the main file']);
    expect(applyWal(main, new Uint8Array(64)).problem).toBe('the -wal file is not a SQLite write-ahead log');
    expect(applyWal(main, new Uint8Array(0)).frames).toBe(0);
  });
});
