// Test support: OpenCode databases made from the real 1.18.33 recordings (fixtures/native/), for
// the readers that index them (cli/indexDatabase.ts, library/folderFile.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSqlJs } from '../../ingest/sqlite/sqljs';

export { walOf } from '../../ingest/sqlite/testing/walOf';

const NATIVE = join(import.meta.dirname, '../../../fixtures/native');

/** A session with a sub-agent's child session: one tree, one row of the index. */
export const TIDY = { file: 'opencode-1.18.33_tidy-notes.db', root: 'ses_dcb195a86ffePtpFwkbooH24Z8', child: 'ses_dcb190e73ffe7jLBycjZ0fkN5g', project: '/tmp/oc-scratch/out/main/ws' };
export const HELDOUT = { file: 'opencode-1.18.33_heldout.db', root: 'ses_dcb18ceb4ffed1jHaRz8uIqGf1', project: '/tmp/oc-scratch/out/heldout/ws' };

export type Database = import('sql.js').Database;

/** Both recordings' sessions in one database, as OpenCode keeps every session of a machine; open for a test to change. */
export async function bothRecordings(): Promise<Database> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(join(NATIVE, TIDY.file)));
  const heldout = new SQL.Database(readFileSync(join(NATIVE, HELDOUT.file)));
  try {
    for (const table of ['session', 'message', 'part']) {
      const result = heldout.exec(`SELECT * FROM ${table}`)[0];
      if (!result) continue;
      for (const values of result.values) db.run(`INSERT INTO ${table} (${result.columns.join(', ')}) VALUES (${result.columns.map(() => '?').join(', ')})`, values);
    }
  } finally {
    heldout.close();
  }
  return db;
}

/** Deletes a session and its rows, as OpenCode does. */
export function deleteSession(db: Database, id: string): void {
  for (const table of ['part', 'message']) db.run(`DELETE FROM ${table} WHERE session_id = ?`, [id]);
  db.run('DELETE FROM session WHERE id = ?', [id]);
}

/** The database's bytes as OpenCode's main file holds them while it writes in WAL mode (header bytes 18/19 = 2). */
export function walModeFile(db: Database): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(db.export());
  bytes[18] = 2;
  bytes[19] = 2;
  return bytes;
}
