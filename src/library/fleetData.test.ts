// The library's filters and sorts, and its reading of rows another program may have written.
import { describe, expect, test } from 'vitest';
import { fleetCallOf, fleetSessionOf, type FleetCall, type FleetSession } from '../analysis/fleet';
import { callColumnsOf } from './callColumns';
import { filterSessions, NO_FILTER, sortSessions } from './fleetData';

const DAY = 86_400_000;

function session(file: string, over: Partial<FleetSession> = {}): FleetSession {
  return {
    file, format: 'acp-jsonrpc', session: null, project: null, title: null, started_ms: null, ended_ms: null, calls: 0, failed: 0, input_tokens: null, output_tokens: null,
    cost: null, cost_unit: null, bytes: 0, bad_lines: 0, modified_ms: 0, ...over,
  };
}

function call(file: string, label: string, status: FleetCall['status'], subject: string | null = null): FleetCall {
  return {
    file, format: 'acp-jsonrpc', session: null, call_id: `${file}-${label}`, label, subject, status, started_ms: null, duration_ms: null, permission: null,
    exit_code: null, turn_input_tokens: null, turn_output_tokens: null, parent_call_id: null,
  };
}

const sessions = [
  session('/f/a.jsonl', { format: 'claude-code', project: '/work/one', started_ms: 10 * DAY, ended_ms: 10 * DAY + 5_000, calls: 3, failed: 1, input_tokens: 100, output_tokens: 5 }),
  session('/f/b.jsonl', { format: 'codex', project: '/work/two', started_ms: 12 * DAY, ended_ms: 12 * DAY + 60_000, calls: 1 }),
  session('/f/c.jsonl', { calls: 7, failed: 2 }),
];
const calls = callColumnsOf([
  call('/f/a.jsonl', 'Run Command', 'failed', 'npm test'),
  call('/f/a.jsonl', 'Read', 'done', 'src/app.ts'),
  call('/f/b.jsonl', 'Run Command', 'done', 'npm test'),
  call('/f/c.jsonl', 'Edit', 'failed', 'src/app.ts'),
]);
const files = (shown: FleetSession[]) => shown.map((s) => s.file.slice(3));

describe('filterSessions', () => {
  test('by harness, project and the day a session started (a session with no start is left out of a date range)', () => {
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, harness: 'codex' }))).toEqual(['b.jsonl']);
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, project: '/work/one' }))).toEqual(['a.jsonl']);
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, from: '1970-01-12' }))).toEqual(['b.jsonl']);
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, to: '1970-01-11' }))).toEqual(['a.jsonl']);
  });

  test('by calls: a session with one call that has the label, the status and the subject text, all at once', () => {
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, label: 'Run Command' }))).toEqual(['a.jsonl', 'b.jsonl']);
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, label: 'Run Command', status: 'failed' }))).toEqual(['a.jsonl']);
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, subject: 'APP.TS' }))).toEqual(['a.jsonl', 'c.jsonl']);
    // The failed call of a is a Run Command, not the Read of app.ts.
    expect(files(filterSessions(sessions, calls, { ...NO_FILTER, subject: 'app.ts', status: 'failed' }))).toEqual(['c.jsonl']);
  });
});

describe('sortSessions', () => {
  test('by a number either way, sessions without the value last; ties by file', () => {
    expect(files(sortSessions(sessions, { key: 'calls', descending: true }))).toEqual(['c.jsonl', 'a.jsonl', 'b.jsonl']);
    expect(files(sortSessions(sessions, { key: 'duration', descending: false }))).toEqual(['a.jsonl', 'b.jsonl', 'c.jsonl']);
    expect(files(sortSessions(sessions, { key: 'duration', descending: true }))).toEqual(['b.jsonl', 'a.jsonl', 'c.jsonl']);
    expect(files(sortSessions(sessions, { key: 'tokens', descending: true }))).toEqual(['a.jsonl', 'b.jsonl', 'c.jsonl']);
  });
});

describe('rows read back from a table', () => {
  test('INT64 values come back as numbers; a value of the wrong kind or an unknown status rejects the row', () => {
    const raw = { file: '/f/a.jsonl', format: 'codex', call_id: '1', label: 'Read', status: 'done', started_ms: 5n, duration_ms: null, exit_code: 0n };
    expect(fleetCallOf(raw)).toMatchObject({ file: '/f/a.jsonl', started_ms: 5, duration_ms: null, exit_code: 0, subject: null });
    expect(fleetCallOf({ ...raw, status: 'exploded' })).toBeNull();
    expect(fleetCallOf({ ...raw, started_ms: 'yesterday' })).toBeNull();
    expect(fleetSessionOf({ file: '/f/a.jsonl', calls: 3n, failed: 1n, cost: 0.25 })).toMatchObject({ calls: 3, failed: 1, cost: 0.25, project: null });
    expect(fleetSessionOf({ file: 7 })).toBeNull();
  });
});

describe("a team's index: two machines with a file at the same path", () => {
  test('the rows stay apart: the Machine filter, and a call filter keyed by machine and file', async () => {
    const { concatCallColumns } = await import('./callColumns');
    const { sessionKey } = await import('./fleetData');
    const mine = [session('/f/a.jsonl', { machine: 'alpha', calls: 1 }), session('/f/a.jsonl', { machine: 'beta', calls: 2 })];
    const columns = concatCallColumns([
      { columns: callColumnsOf([call('/f/a.jsonl', 'Read', 'done')]), fileKey: (file) => sessionKey({ file, machine: 'alpha' }) },
      { columns: callColumnsOf([call('/f/a.jsonl', 'Edit', 'failed'), call('/f/a.jsonl', 'Read', 'done')]), fileKey: (file) => sessionKey({ file, machine: 'beta' }) },
    ]);
    expect(columns.length).toBe(3);
    expect(columns.files).toHaveLength(2);
    expect(filterSessions(mine, columns, { ...NO_FILTER, machine: 'beta' }).map((s) => s.machine)).toEqual(['beta']);
    expect(filterSessions(mine, columns, { ...NO_FILTER, label: 'Edit' }).map((s) => s.machine)).toEqual(['beta']);
    expect(filterSessions(mine, columns, { ...NO_FILTER, label: 'Read' }).map((s) => s.machine)).toEqual(['alpha', 'beta']);
    expect(sortSessions(mine, { key: 'machine', descending: true }).map((s) => s.machine)).toEqual(['beta', 'alpha']);
  });
});
