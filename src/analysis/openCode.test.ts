// OpenCode's database (ingest/formats/opencode.ts): the real 1.18.33 recording in fixtures/native/
// (scripts/record/opencode.sh, provenance in fixtures/README.md), read as what the run really did.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readOpenCodeDatabase, openCodeSessions } from '../ingest/formats/opencode';
import { loadSqlJs } from '../ingest/sqlite/sqljs';
import { walOf } from '../ingest/sqlite/testing/walOf';
import { displayStatus, ingest, summarize, type Session } from '../model/index';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const TIDY = 'native/opencode-1.18.33_tidy-notes.db';
const MAIN = 'ses_dcb195a86ffePtpFwkbooH24Z8';
const CHILD = 'ses_dcb190e73ffe7jLBycjZ0fkN5g';
const WS = '/tmp/oc-scratch/out/main/ws';

const bytesOf = (path: string) => readFileSync(join(FIXTURES, path));

async function load(path: string, options: { chunkSize?: number; detail?: 'full' | 'light'; wal?: Uint8Array } = {}): Promise<Session> {
  return ingest(bytesOf(path), { chunkSize: 4096, ...options });
}

const calls = (session: Session) => [...session.calls.values()].map((call) => [call.id, call.label, call.subject, displayStatus(call, session.ended), call.sessionId]);
const messages = (session: Session) => session.items.flatMap((item) => (item.type === 'message' ? [`${item.sessionId === CHILD ? 'sub ' : ''}${item.role}: ${item.text}`] : []));

describe('OpenCode 1.18.33 database (real recording)', () => {
  test('read as OpenCode: every row an event, the session and its sub-agent as two sessions of one input', async () => {
    const session = await load(TIDY);
    expect(session.format).toBe('opencode');
    // 2 session rows, 14 message rows, 41 part rows.
    expect(session.counts).toEqual({ lines: 57, events: 57, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual([MAIN, CHILD]);
    expect(session.diagnostics.bad).toEqual([]);
  });

  test('the calls the run made: a cat that exited 1 failed (OpenCode says completed, metadata.exit 1); the sub-agent read in its own session', async () => {
    const session = await load(TIDY);
    expect(calls(session)).toEqual([
      ['call_main_1_2', 'Read', `${WS}/notes.txt`, 'done', MAIN],
      ['call_main_2_3', 'Run Command', 'cat missing-file.txt', 'failed', MAIN],
      ['call_main_3_4', 'Run Command', 'ls -la', 'done', MAIN],
      ['call_main_4_5', 'Edit', `${WS}/notes.txt`, 'done', MAIN],
      ['call_main_5_6', 'Write', `${WS}/out/result.txt`, 'done', MAIN],
      ['call_main_6_7', 'List Files', '**/*.js', 'done', MAIN],
      ['call_main_6_8', 'Search', 'TODO', 'done', MAIN],
      ['call_main_7_9', 'Subagent', 'Summarise the README', 'done', MAIN],
      ['call_sub_0_10', 'Read', `${WS}/README.md`, 'done', CHILD],
    ]);
    const cat = session.calls.get([...session.calls.keys()][1]!)!;
    const output = cat.content?.[0];
    expect(output?.type === 'content' && output.content.type === 'text' ? output.content.text : '').toBe('cat: missing-file.txt: No such file or directory\n');
    expect(cat.rawOutput).toMatchObject({ metadata: { exit: 1 } });
    // Times are the tool's own start and end (state.time), not its row's.
    expect(cat.startMs).toBe(1796183872357);
    expect(cat.endMs).toBe(1796183872600);
    // One call and one result from the one row a tool part is.
    expect(cat.history.map((entry) => entry.source)).toEqual(['tool_call', 'tool_call_update']);
  });

  test("exit codes and parents as summarize gives them: the commands' metadata.exit, the sub-agent's read under its task call", async () => {
    const { calls: summary } = summarize(await load(TIDY));
    expect(summary.map((call) => [call.id, call.exitCode, call.parent])).toEqual([
      ['call_main_1_2', null, null],
      ['call_main_2_3', 1, null],
      ['call_main_3_4', 0, null],
      ['call_main_4_5', null, null],
      ['call_main_5_6', null, null],
      ['call_main_6_7', null, null],
      ['call_main_6_8', null, null],
      ['call_main_7_9', null, null],
      ['call_sub_0_10', null, 'call_main_7_9'],
    ]);
  });

  test('the todowrite is the plan it sets, not a call', async () => {
    const session = await load(TIDY);
    const plans = session.items.flatMap((item) => (item.type === 'plan' ? [item.entries.map((entry) => `${entry.status} ${entry.content}`)] : []));
    expect(plans).toEqual([['in_progress Read notes.txt', 'pending Fix the greeting', 'pending Write out/result.txt']]);
    expect([...session.calls.values()].some((call) => call.id === 'call_main_0_1')).toBe(false);
  });

  test('the messages in order, the thought, and the sub-agent its prompt', async () => {
    const session = await load(TIDY);
    expect(messages(session)).toEqual([
      // `opencode run` quotes a message holding spaces: this is the prompt as OpenCode kept it.
      'user: "Please tidy up notes.txt and report on the workspace."',
      'thought: The user wants the notes tidied. I will plan, then read the file first.',
      'agent: Reading the notes first.',
      'agent: Two searches at once.',
      'agent: Done: planned, read notes.txt, failed to cat a missing file, listed files, fixed the greeting, wrote out/result.txt, searched, and asked a sub-agent about the README.',
      'sub user: [sub-agent] Read README.md and say what it is about.',
      'sub agent: Reading the README.',
      'sub agent: The README describes a tiny demo app.',
    ]);
  });

  test('usage: one per model request (step-finish), as the session rows total it', async () => {
    const session = await load(TIDY);
    const usage = session.items.flatMap((item) => (item.type === 'usage' ? [[item.sessionId, item.usage.inputTokens, item.usage.outputTokens]] : []));
    // The session table says tokens_input 900 / output 180 for the main session, 200 / 40 for the sub-agent.
    expect(usage.filter(([id]) => id === MAIN)).toHaveLength(9);
    expect(usage.filter(([id]) => id === CHILD)).toHaveLength(2);
    expect(usage.every(([, input, output]) => input === 100 && output === 20)).toBe(true);
  });

  test('session rows are shown with their titles; a row names its table and id', async () => {
    const session = await load(TIDY);
    const events = session.items.flatMap((item) => (item.type === 'event' && item.name === 'session' ? [item.summary] : []));
    expect(events).toEqual(['Tidy the notes', `Summarise the README (@general subagent) · sub-agent of ${MAIN}`]);
    const read = await readOpenCodeDatabase(bytesOf(TIDY));
    const first = read.rows[2];
    expect(first && 'record' in first ? first.record.body : null).toMatchObject({ kind: 'native', raw: { table: 'part', id: 'prt_234e6a6bc001yNekTQThZl06Nd', session_id: MAIN } });
  });

  test('read in any chunking and light: the same, and its calls whole (no line to read them again from)', async () => {
    const whole = await load(TIDY);
    const tiny = await load(TIDY, { chunkSize: 7 });
    const light = await load(TIDY, { detail: 'light' });
    expect(calls(tiny)).toEqual(calls(whole));
    expect(calls(light)).toEqual(calls(whole));
    expect([...light.calls.values()].every((call) => call.detail === 'full')).toBe(true);
    expect(summarize(light).calls.map((call) => call.status)).toEqual(summarize(whole).calls.map((call) => call.status));
  });

  test('the sessions a lister shows, and when each last changed (the latest time_updated of its own row, its messages and parts; checked with the sqlite3 CLI)', async () => {
    expect(await openCodeSessions(bytesOf(TIDY))).toEqual([
      { id: MAIN, parentId: null, title: 'Tidy the notes', directory: WS, createdMs: 1796183860601, updatedMs: 1796183884347, prompt: null },
      { id: CHILD, parentId: MAIN, title: 'Summarise the README (@general subagent)', directory: WS, createdMs: 1796183880076, updatedMs: 1796183883391, prompt: null },
    ]);
  });
});

describe('an OpenCode database OpenCode still has open', () => {
  test("the sub-agent's session, committed to the WAL and not yet to the main file, is read; a log cut before its commit is not", async () => {
    const full = new Uint8Array(bytesOf(TIDY));
    // The main file as it was before the sub-agent ran: its session and rows not there yet.
    const SQL = await loadSqlJs();
    const db = new SQL.Database(full);
    db.run(`DELETE FROM part WHERE session_id = '${CHILD}'; DELETE FROM message WHERE session_id = '${CHILD}'; DELETE FROM session WHERE id = '${CHILD}'`);
    const before = db.export();
    db.close();
    expect(before.length).toBeLessThanOrEqual(full.length);
    // OpenCode's main file says WAL (bytes 18/19 = 2), as the recording's did.
    before[18] = 2;
    before[19] = 2;

    expect((await ingest(before)).sessionIds).toEqual([MAIN]);
    const wal = walOf(full);
    const session = await ingest(before, { wal });
    expect(session.sessionIds).toEqual([MAIN, CHILD]);
    expect(calls(session).at(-1)).toEqual(['call_sub_0_10', 'Read', `${WS}/README.md`, 'done', CHILD]);
    const cut = wal.subarray(0, wal.length - 100);
    expect((await ingest(before, { wal: cut })).sessionIds).toEqual([MAIN]);
    // A -wal that is no log is said, and the database read without it.
    const garbage = await ingest(before, { wal: new Uint8Array(64) });
    expect(garbage.sessionIds).toEqual([MAIN]);
    expect(garbage.diagnostics.warnings).toEqual([{ line: 0, message: 'the -wal file is not a SQLite write-ahead log: read without it' }]);
  });
});

describe('what is not an OpenCode database', () => {
  test('another SQLite database is one unknown record; bytes that only start like one are one bad record', async () => {
    const other = await load('sqlite/wal-with-uncommitted-tail.db');
    expect(other.counts).toEqual({ lines: 1, events: 0, unknown: 1, bad: 0 });
    const magic = new TextEncoder().encode('SQLite format 3\0 and then nothing a database holds');
    const broken = await ingest(magic);
    expect(broken.counts).toEqual({ lines: 1, events: 0, unknown: 0, bad: 1 });
    expect(broken.diagnostics.bad[0]?.reason).toMatch(/^not a SQLite database SQLite can open|^the database could not be read/);
  });
});

describe('the held-out recording (another script, read only once the reader was written)', () => {
  test('six calls: the command that echoed and then ran `false` (exit 1) failed, the rest done; one session of 30 rows', async () => {
    const session = await load('native/opencode-1.18.33_heldout.db');
    const id = 'ses_dcb18ceb4ffed1jHaRz8uIqGf1';
    const ws = '/tmp/oc-scratch/out/heldout/ws';
    expect(session.counts).toEqual({ lines: 30, events: 30, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual([id]);
    expect(calls(session)).toEqual([
      ['call_heldout_0_1', 'Run Command', 'echo start && false', 'failed', id],
      ['call_heldout_1_2', 'Read', `${ws}/src/app.js`, 'done', id],
      ['call_heldout_1_3', 'Search', 'hello', 'done', id],
      ['call_heldout_2_4', 'Write', `${ws}/src/extra.js`, 'done', id],
      ['call_heldout_3_5', 'Edit', `${ws}/src/app.js`, 'done', id],
      ['call_heldout_4_6', 'Run Command', 'wc -l src/*.js', 'done', id],
    ]);
  });
});

describe('rows the recordings do not have (written from OpenCode 1.18.33 schema)', () => {
  /** A database with OpenCode's own tables (their SQL from the recording) and the rows given. */
  async function databaseOf(rows: { table: 'session' | 'message' | 'part'; values: Record<string, string | number | null> }[]): Promise<Uint8Array> {
    const SQL = await loadSqlJs();
    const recorded = new SQL.Database(bytesOf(TIDY));
    const schema = (recorded.exec("SELECT sql FROM sqlite_master WHERE type = 'table' AND name IN ('session', 'message', 'part')")[0]?.values ?? []).map((row) => String(row[0]));
    recorded.close();
    const db = new SQL.Database();
    for (const sql of schema) db.run(sql);
    for (const { table, values } of rows) {
      const keys = Object.keys(values);
      db.run(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`, keys.map((key) => values[key] ?? null));
    }
    const bytes = db.export();
    db.close();
    return bytes;
  }
  const session = (id: string, title: string) => ({ table: 'session' as const, values: { id, project_id: 'p', slug: 's', directory: '/w', title, version: '1.18.33', time_created: 1, time_updated: 1 } });
  const message = (id: string, data: object) => ({ table: 'message' as const, values: { id, session_id: 'ses_1', time_created: 2, time_updated: 2, data: JSON.stringify(data) } });
  const part = (id: string, messageId: string, data: object | string) => ({
    table: 'part' as const,
    values: { id, message_id: messageId, session_id: 'ses_1', time_created: 3, time_updated: 3, data: typeof data === 'string' ? data : JSON.stringify(data) },
  });

  test('a call still running is unfinished, one that errored is failed with its error; a failed response and a synthetic part are events; a part that is not JSON is a bad record naming its row', async () => {
    const bytes = await databaseOf([
      session('ses_1', 'Edge cases'),
      message('msg_1', { role: 'user', time: { created: 2 } }),
      part('prt_1', 'msg_1', { type: 'text', text: 'Do it.' }),
      part('prt_2', 'msg_1', { type: 'text', text: 'Called the Read tool with …', synthetic: true }),
      message('msg_2', { role: 'assistant', time: { created: 4 }, error: { name: 'APIError', data: { message: 'rate limited' } } }),
      part('prt_3', 'msg_2', { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'running', input: { command: 'sleep 100', description: 'wait' }, time: { start: 5 } } }),
      part('prt_4', 'msg_2', { type: 'tool', tool: 'read', callID: 'c2', state: { status: 'error', input: { filePath: '/w/gone' }, error: 'File not found: /w/gone', time: { start: 6, end: 7 } } }),
      part('prt_5', 'msg_2', '{"type": "text", "text": '),
      part('prt_6', 'msg_2', { type: 'compaction', auto: true }),
    ]);
    const read = await ingest(bytes);
    expect(read.counts).toEqual({ lines: 9, events: 8, unknown: 0, bad: 1 });
    expect(read.diagnostics.bad.map(({ line, reason }) => [line, reason])).toEqual([[8, 'part prt_5: data is not a JSON object']]);
    expect(calls(read)).toEqual([
      ['c1', 'Run Command', 'sleep 100', 'unfinished', 'ses_1'],
      ['c2', 'Read', '/w/gone', 'failed', 'ses_1'],
    ]);
    const failed = [...read.calls.values()][1]!.content?.[0];
    expect(failed?.type === 'content' && failed.content.type === 'text' ? failed.content.text : '').toBe('File not found: /w/gone');
    expect(messages(read)).toEqual(['user: Do it.']);
    const events = read.items.flatMap((item) => (item.type === 'event' ? [`${item.name}: ${item.summary ?? ''}`] : []));
    expect(events).toEqual(['session: Edge cases', 'text: Called the Read tool with …', 'message/assistant: APIError: rate limited', 'compaction (compaction): ']);
  });
});
