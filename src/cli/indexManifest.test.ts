// The manifest's own check (indexManifest.ts reads it without zod): what a run wrote reads back as
// it was, and a manifest with any value of the wrong type is refused whole, so the next run reads
// every file again rather than trusting a stamp it cannot read. The tables' row counts come from
// their footers alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CALLS_TABLE, SESSIONS_TABLE, type FleetCall } from '../analysis/fleet';
import { manifestOf, readManifest, tableRows, writeManifest, type CodexThreadStamp, type FileStamp } from './indexManifest';
import { INDEX_TABLE_FILES, MANIFEST_FILE } from './indexOutput';
import { TableWriter } from './indexStore';

const work = mkdtempSync(join(tmpdir(), 'loupe-index-manifest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FILES: Record<string, FileStamp> = {
  '/logs/a.jsonl': { size: 10, mtimeMs: 1.5, ctimeMs: 2.25, ino: 7, state: 'indexed' },
  '/logs/live.jsonl': { size: 11, mtimeMs: 3, ctimeMs: 3, ino: 8, head: 'abc', state: 'indexed' },
  '/logs/notes.json': { size: 12, mtimeMs: 4, ctimeMs: 4, ino: 9, state: 'not-a-session' },
  '/home/.local/share/opencode/opencode.db': {
    size: 4096, mtimeMs: 5, ctimeMs: 5, ino: 10, state: 'indexed', database: true, wal: { size: 32, mtimeMs: 6, head: 'def' },
    sessions: { ses_1: { updatedMs: 99, members: ['ses_1', 'ses_2'] }, ses_3: { updatedMs: null, members: [] } },
  },
  '/home/.local/share/opencode/other.db': { size: 4096, mtimeMs: 5, ctimeMs: 5, ino: 11, state: 'indexed', database: true, wal: null },
  // A file may be named anything: a name that is also a property of every object stays a name.
  '/logs/__proto__': { size: 1, mtimeMs: 1, ctimeMs: 1, ino: 12, state: 'indexed' },
};
const THREADS: Record<string, CodexThreadStamp> = {
  '/codex/rollout-1.jsonl': { size: 1, mtimeMs: 2, ino: 3, id: 't1', parent: null },
  '/codex/rollout-2.jsonl': { size: 4, mtimeMs: 5, ino: 6, id: 't2', parent: 't1' },
};
const UNREADABLE = [{ file: '/logs/bad.jsonl', why: 'no permission to read /logs/bad.jsonl' }];

/** Stands for a key removed, in withValueAt. */
const DROPPED = Symbol('dropped');

/** A copy of `value` with the value at `path` replaced (or removed, DROPPED). */
function withValueAt(value: Record<string, unknown>, path: readonly (string | number)[], replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement === DROPPED) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

async function written(): Promise<Record<string, unknown>> {
  await writeManifest(work, new Map(Object.entries(FILES)), UNREADABLE, THREADS);
  return JSON.parse(readFileSync(join(work, MANIFEST_FILE), 'utf8')) as Record<string, unknown>;
}

test('a manifest reads back as it was written: every stamp, database, log, session tree, thread and unreadable file', async () => {
  await written();
  const read = await readManifest(work);
  expect(read?.files).toEqual(FILES);
  expect(Object.keys(read?.files ?? {})).toContain('/logs/__proto__');
  expect(read?.threads).toEqual(THREADS);
  expect(read?.unreadable).toEqual(UNREADABLE);
});

test('keys it does not know are dropped; a manifest without threads has none', async () => {
  const raw = await written();
  delete raw.threads;
  (raw.files as Record<string, Record<string, unknown>>)['/logs/a.jsonl']!.extra = 'kept out';
  const read = manifestOf({ ...raw, extra: 1 });
  expect(read?.files['/logs/a.jsonl']).toEqual(FILES['/logs/a.jsonl']);
  expect(read).not.toHaveProperty('extra');
  expect(read).not.toHaveProperty('threads');
});

test('any value of the wrong type refuses the whole manifest (the next run reads every file again)', async () => {
  const raw = await written();
  const DB = '/home/.local/share/opencode/opencode.db';
  const broken: [string, (string | number)[], unknown][] = [
    ['another version', ['version'], 3],
    ['files not an object', ['files'], []],
    ['a size as text', ['files', '/logs/a.jsonl', 'size'], '10'],
    ['an inode missing', ['files', '/logs/a.jsonl', 'ino'], DROPPED],
    ['a state it does not know', ['files', '/logs/a.jsonl', 'state'], 'read'],
    ['a head as a number', ['files', '/logs/live.jsonl', 'head'], 1],
    ['database false', ['files', '/logs/a.jsonl', 'database'], false],
    ['a log without its head', ['files', DB, 'wal', 'head'], DROPPED],
    ['a session tree whose members are not names', ['files', DB, 'sessions', 'ses_1', 'members'], [1]],
    ['a tree updated at a text', ['files', DB, 'sessions', 'ses_1', 'updatedMs'], 'now'],
    ['unreadable not a list', ['unreadable'], {}],
    ['an unreadable file without why', ['unreadable', 0, 'why'], DROPPED],
    ['a thread without its id', ['threads', '/codex/rollout-1.jsonl', 'id'], DROPPED],
    ['a thread whose parent is a number', ['threads', '/codex/rollout-2.jsonl', 'parent'], 1],
  ];
  expect(manifestOf(raw)).not.toBeNull();
  for (const [what, path, value] of broken) expect(manifestOf(withValueAt(raw, path, value)), what).toBeNull();
  for (const value of [null, [], 'manifest', 2]) expect(manifestOf(value)).toBeNull();
  writeFileSync(join(work, MANIFEST_FILE), '{"version": 2, "files": ');
  expect(await readManifest(work)).toBeNull();
});

test("the tables' row counts are their footers'; a table missing or cut short counts as none", async () => {
  expect(INDEX_TABLE_FILES).toEqual([CALLS_TABLE.file, SESSIONS_TABLE.file]);
  const calls = new TableWriter<FleetCall>(work, CALLS_TABLE, 7);
  for (let n = 0; n < 23; n++) {
    calls.add({
      file: 'f', format: 'claude-code', session: 's', call_id: `c${n}`, label: 'Read', subject: 'a.ts', status: 'done', started_ms: n, duration_ms: 1,
      permission: null, exit_code: null, turn_input_tokens: null, turn_output_tokens: null, parent_call_id: null,
    });
  }
  await calls.finish();
  expect(await tableRows(work)).toBeNull();
  const sessions = new TableWriter(work, SESSIONS_TABLE);
  await sessions.finish();
  expect(await tableRows(work)).toEqual({ calls: 23, sessions: 0 });
  const table = readFileSync(join(work, CALLS_TABLE.file));
  writeFileSync(join(work, CALLS_TABLE.file), table.subarray(0, table.length - 3));
  expect(await tableRows(work)).toBeNull();
});
