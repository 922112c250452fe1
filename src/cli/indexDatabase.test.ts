// `loupe index` over OpenCode's database (every session of the machine in one file): a warm run
// reads only the sessions whose rows changed, keeps the others' rows as they were, and drops a
// session deleted from the database. Built on the real 1.18.33 recordings (fixtures/native/).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bothRecordings, deleteSession, HELDOUT, TIDY, walModeFile, walOf, type Database } from '../analysis/testing/openCodeDatabases';
import { buildIndex } from './indexBuild';

let work: string;
let dir: string;
let out: string;
let db: Database;

beforeEach(async () => {
  work = mkdtempSync(join(tmpdir(), 'loupe-index-db-'));
  dir = join(work, 'opencode');
  out = join(work, 'index');
  db = await bothRecordings();
  // The file has to exist before the folder is walked.
  mkdirSync(dir);
  save();
});

afterEach(() => {
  db.close();
  rmSync(work, { recursive: true, force: true });
});

const DATABASE = () => join(dir, 'opencode.db');

/** The database as OpenCode left it after a checkpoint: all in the main file. */
function save(): void {
  writeFileSync(DATABASE(), db.export());
}

/** A tool call OpenCode adds to a session: its assistant message and the tool part, written at `at`. */
function addCall(sessionId: string, callId: string, at: number): void {
  const message = `msg_zz${callId}`;
  db.run('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)', [
    message, sessionId, at, at, JSON.stringify({ role: 'assistant', time: { created: at } }),
  ]);
  const state = { status: 'completed', input: { command: 'ls', description: 'list' }, output: 'a\nb\n', metadata: { exit: 0 }, time: { start: at, end: at + 5 } };
  db.run('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)', [
    `prt_zz${callId}`, message, sessionId, at, at, JSON.stringify({ type: 'tool', tool: 'bash', callID: callId, state }),
  ]);
}

async function rowsOf(table: 'sessions' | 'calls'): Promise<Record<string, unknown>[]> {
  const rows = await parquetReadObjects({ file: await asyncBufferFromFile(join(out, `${table}.parquet`)) });
  return rows.sort((a, b) => `${String(a.session)} ${String(a.call_id)}`.localeCompare(`${String(b.session)} ${String(b.call_id)}`));
}

const index = () => buildIndex({ dirs: [dir], out, jobs: 0 });
const ofSession = (rows: Record<string, unknown>[], ...ids: string[]) => rows.filter((row) => ids.includes(String(row.session)));

describe('loupe index over an OpenCode database', () => {
  test('one row per session a person started (its sub-agent read with it); a warm run reads only the session whose rows changed', async () => {
    const first = await index();
    expect(first.read).toEqual([
      { file: DATABASE(), session: TIDY.root },
      { file: DATABASE(), session: HELDOUT.root },
    ]);
    const sessions = await rowsOf('sessions');
    // Rows sorted by session id: the held-out run's id sorts first.
    expect(sessions.map((row) => [row.session, row.calls, row.failed])).toEqual([
      [HELDOUT.root, 6n, 1n],
      [TIDY.root, 9n, 1n],
    ]);
    const calls = await rowsOf('calls');
    // The sub-agent's call is in its own session, its parent the task call.
    expect(calls.filter((row) => row.session === TIDY.child).map((row) => row.parent_call_id)).toEqual(['call_main_7_9']);

    // Nothing written: nothing read.
    expect((await index()).read).toEqual([]);

    // OpenCode adds a call to the held-out session (its file's time changes as any write's would).
    addCall(HELDOUT.root, 'call_new_1', 1796999999000);
    save();
    const warm = await index();
    expect(warm.read).toEqual([{ file: DATABASE(), session: HELDOUT.root }]);
    expect({ parsed: warm.parsed, reused: warm.reused, sessions: warm.sessions, calls: warm.calls }).toEqual({ parsed: 1, reused: 1, sessions: 2, calls: calls.length + 1 });
    const sessionsAfter = await rowsOf('sessions');
    const callsAfter = await rowsOf('calls');
    expect(ofSession(sessionsAfter, TIDY.root)).toEqual(ofSession(sessions, TIDY.root));
    expect(ofSession(callsAfter, TIDY.root, TIDY.child)).toEqual(ofSession(calls, TIDY.root, TIDY.child));
    expect(ofSession(sessionsAfter, HELDOUT.root).map((row) => [row.calls, row.modified_ms])).toEqual([[7n, 1796999999000n]]);
    expect(ofSession(callsAfter, HELDOUT.root).map((row) => row.call_id)).toEqual([...ofSession(calls, HELDOUT.root).map((row) => row.call_id), 'call_new_1'].sort());

    // The file written again without a row changed (a checkpoint, a VACUUM): read, and no session read again.
    const later = new Date(Date.now() + 60_000);
    utimesSync(DATABASE(), later, later);
    expect((await index()).read).toEqual([]);
    expect(await rowsOf('calls')).toEqual(callsAfter);
  });

  test('a session deleted from the database leaves the index; a change only in the -wal is seen', async () => {
    await index();
    const calls = await rowsOf('calls');
    deleteSession(db, HELDOUT.root);
    save();
    const after = await index();
    expect(after.read).toEqual([]);
    expect((await rowsOf('sessions')).map((row) => row.session)).toEqual([TIDY.root]);
    expect(await rowsOf('calls')).toEqual(ofSession(calls, TIDY.root, TIDY.child));

    // OpenCode still has the database open: its new call is committed to the log, the main file as it was.
    writeFileSync(DATABASE(), walModeFile(db));
    await index();
    addCall(TIDY.child, 'call_sub_new', 1796999999000);
    writeFileSync(`${DATABASE()}-wal`, walOf(db.export()));
    const warm = await index();
    expect(warm.read).toEqual([{ file: DATABASE(), session: TIDY.root }]);
    expect(ofSession(await rowsOf('calls'), TIDY.child).map((row) => [row.call_id, row.parent_call_id])).toEqual([
      ['call_sub_0_10', 'call_main_7_9'],
      ['call_sub_new', 'call_main_7_9'],
    ]);
  });
});
