// `loupe index`: run as the built CLI in a child process (its reader threads need the bundle), then
// the tables read by DuckDB and compared with `loupe summarize --json` over each file. Under root
// the child runs as `nobody`, so a file of mode 000 is unreadable to it as to anyone.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childUser, reachableTemp } from './testing/asUser';
import { buildCli } from './testing/buildCli';
import { main as indexMain } from './indexCommand';
import { main as summarize } from './summarize';
import type { Summary } from '../model';
import { machineNameOf, teamListingOf } from '../analysis/teamIndex';

const ROOT = join(import.meta.dirname, '../..');
const GENERATOR = join(ROOT, 'scripts/gen-session.mjs');
const user = childUser;

let work: string;
let cli: string;
let db: DuckDBConnection;

beforeAll(async () => {
  work = mkdtempSync(join(reachableTemp(), 'loupe-index-'));
  chmodSync(work, 0o777);
  cli = await buildCli(join(work, 'cli'));
  db = await (await DuckDBInstance.create(':memory:')).connect();
}, 60_000);

afterAll(() => {
  db?.closeSync();
  rmSync(work, { recursive: true, force: true });
});

/** A folder of sessions of every shape: generated ACP, Grok and ledger ones (one with bad lines), native logs, and a JSON file that is no session. */
function sessionsFolder(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'generated'), { recursive: true });
  const generated: [string, string[]][] = [
    ['acp-1.jsonl', ['--format', 'acp', '--calls', '30', '--seed', '1']],
    ['acp-2.jsonl', ['--format', 'acp', '--calls', '12', '--seed', '2', '--bad-rate', '0.05']],
    ['grok.jsonl', ['--format', 'grok', '--calls', '20', '--seed', '3']],
    ['ledger.jsonl', ['--format', 'ledger', '--calls', '15', '--seed', '4']],
  ];
  for (const [file, args] of generated) {
    const made = spawnSync(process.execPath, [GENERATOR, ...args, '--out', join(dir, 'generated', file)], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
  }
  for (const fixture of ['native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'native/codex-0.137.0_rollout.jsonl', 'native/cline-3.0.65_tidy-notes.messages.json', 'grok/esc-interrupt.updates.jsonl', 'acp/zed-1.13.2_acp-logs-export_ny-gemini-acp-0.2.2_excerpt.json']) {
    copyFileSync(join(ROOT, 'fixtures', fixture), join(dir, fixture.split('/')[1]!));
  }
  writeFileSync(join(dir, 'settings.json'), '{"theme": "dark"}\n');
  chmodSync(dir, 0o777);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o777 : 0o666);
  return dir;
}

interface IndexRun {
  code: number | null;
  err: string;
  json: { sessions: number; calls: number; parsed: number; reused: number; ms: number; skipped: number; threads: number; unreadable: { file: string; why: string }[] };
}

function index(dir: string, out: string, ...options: string[]): Promise<IndexRun> {
  return indexDirs([dir], out, ...options);
}

function indexDirs(dirs: string[], out: string, ...options: string[]): Promise<IndexRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'index', ...dirs, '--out', out, '--json', ...options], { ...user, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, err, json: JSON.parse(stdout) as IndexRun['json'] });
      } catch {
        reject(new Error(`loupe index printed no JSON (exit ${code}): ${stdout}${err}`));
      }
    });
  });
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const result = await db.runAndReadAll(sql);
  return result.getRowObjects().map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'bigint' ? Number(value) : value])));
}

async function summaryOf(file: string): Promise<Summary> {
  let out = '';
  const code = await summarize(['summarize', file, '--json'], { out: (text) => (out += text), err: () => undefined });
  expect(code).toBe(0);
  return JSON.parse(out) as Summary;
}

/** Per file: its calls, failed calls and bad lines, as `loupe summarize --json` counts them. */
async function summariesOf(files: string[]): Promise<Map<string, { calls: number; failed: number; bad: number; byStatus: Record<string, number> }>> {
  const out = new Map<string, { calls: number; failed: number; bad: number; byStatus: Record<string, number> }>();
  for (const file of files) {
    const summary = await summaryOf(file);
    const byStatus: Record<string, number> = {};
    for (const call of summary.calls) byStatus[call.status] = (byStatus[call.status] ?? 0) + 1;
    out.set(file, { calls: summary.calls.length, failed: byStatus.failed ?? 0, bad: summary.counts.bad, byStatus });
  }
  return out;
}

const sessionFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'settings.json')
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();

describe('loupe index', () => {
  test('DuckDB reads both tables, and its counts are loupe summarize --json summed over the files', async () => {
    const dir = sessionsFolder('fleet');
    const out = join(work, 'fleet-index');
    // Threads asked for: by default, a few small files are read in the command's own thread.
    const run = await index(dir, out, '--jobs', '2');
    expect(run.code).toBe(0);
    const files = sessionFiles(dir);
    expect(run.json).toMatchObject({ sessions: files.length, parsed: files.length, reused: 0, skipped: 1, unreadable: [] });
    // The built CLI reads in worker threads (here, as installed: scripts/install-test.mjs).
    expect(run.json.threads).toBeGreaterThan(0);

    const expected = await summariesOf(files);
    const total = (key: 'calls' | 'failed' | 'bad') => [...expected.values()].reduce((sum, s) => sum + s[key], 0);
    expect(total('calls')).toBeGreaterThan(50);
    expect(total('bad')).toBeGreaterThan(0);
    expect(run.json.calls).toBe(total('calls'));

    const sessions = `'${join(out, 'sessions.parquet')}'`;
    const calls = `'${join(out, 'calls.parquet')}'`;
    expect(await rows(`select count(*) as n, sum(calls) as calls, sum(failed) as failed, sum(bad_lines) as bad from ${sessions}`)).toEqual([
      { n: files.length, calls: total('calls'), failed: total('failed'), bad: total('bad') },
    ]);
    expect(await rows(`select count(*) as n from ${calls}`)).toEqual([{ n: total('calls') }]);
    // Per file and per status, each table agrees with the summary of that file.
    const perFile = await rows(`select s.file, s.calls, s.failed, s.bad_lines, (select count(*) from ${calls} c where c.file = s.file) as rows from ${sessions} s order by s.file`);
    expect(perFile).toEqual(files.map((file) => ({ file, calls: expected.get(file)!.calls, failed: expected.get(file)!.failed, bad_lines: expected.get(file)!.bad, rows: expected.get(file)!.calls })));
    const statuses = await rows(`select file, status, count(*) as n from ${calls} group by 1, 2 order by 1, 2`);
    expect(statuses).toEqual(
      files.flatMap((file) =>
        Object.entries(expected.get(file)!.byStatus)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([status, n]) => ({ file, status, n })),
      ),
    );
    // Where the input reports tokens (the Grok fixture's turn_completed, Claude's message usage), the session and its calls' turns carry them.
    const tokens = await rows(
      `select s.format, s.input_tokens > 0 as session, (select count(turn_input_tokens) from ${calls} c where c.file = s.file) > 0 as turns ` +
        `from ${sessions} s where s.format in ('grok-updates', 'claude-code') and s.file not like '%/generated/%' order by 1`,
    );
    expect(tokens).toEqual([
      { format: 'claude-code', session: true, turns: true },
      { format: 'grok-updates', session: true, turns: true },
    ]);
  }, 60_000);

  test('a second run reads only new and changed files, keeps the rest, drops deleted ones and lists an unreadable one without stopping', async () => {
    const dir = sessionsFolder('incremental');
    const out = join(work, 'incremental-index');
    const first = await index(dir, out);
    const files = sessionFiles(dir);
    expect(first.json).toMatchObject({ sessions: files.length, parsed: files.length, reused: 0 });

    const again = await index(dir, out);
    expect(again.json).toMatchObject({ sessions: files.length, calls: first.json.calls, parsed: 0, reused: files.length });

    // Only a new file: its rows join the last run's (whose row groups are kept as written).
    const added = join(dir, 'generated', 'new.jsonl');
    spawnSync(process.execPath, [GENERATOR, '--format', 'acp', '--calls', '7', '--seed', '9', '--out', added]);
    chmodSync(added, 0o666);
    const withNew = await index(dir, out);
    expect(withNew.json).toMatchObject({ sessions: files.length + 1, calls: first.json.calls + 7, parsed: 1, reused: files.length });
    const callsNow = `'${join(out, 'calls.parquet')}'`;
    expect(await rows(`select count(*) as n, count(distinct file) as files, count(*) filter (where file = '${added}') as added from ${callsNow}`)).toEqual([
      { n: first.json.calls + 7, files: files.length + 1, added: 7 },
    ]);

    // Changed, deleted and unreadable at once.
    const changed = join(dir, 'generated', 'ledger.jsonl');
    const before = (await summaryOf(changed)).calls.length;
    appendFileSync(changed, `${readLedgerCall(before)}\n`);
    const deleted = join(dir, 'codex-0.137.0_rollout.jsonl');
    rmSync(deleted);
    const locked = join(dir, 'esc-interrupt.updates.jsonl');
    chmodSync(locked, 0o000);

    const third = await index(dir, out);
    expect(third.code).toBe(0);
    expect(third.json).toMatchObject({ parsed: 1, reused: files.length + 1 - 3, unreadable: [{ file: locked, why: `no permission to read ${locked}` }] });
    expect(third.err).toContain(`loupe index: skipped ${locked}: no permission to read ${locked}`);
    const sessions = `'${join(out, 'sessions.parquet')}'`;
    const listed = (await rows(`select file, calls from ${sessions} order by file`)).map((row) => [relative(dir, String(row.file)), row.calls]);
    const expected = await summariesOf(sessionFiles(dir).filter((file) => file !== locked));
    expect(listed).toEqual([...expected].map(([file, s]) => [relative(dir, file), s.calls]));
    expect(listed.find(([file]) => file === 'generated/new.jsonl')?.[1]).toBe(7);
    expect(listed.find(([file]) => file === 'generated/ledger.jsonl')?.[1]).toBe(before + 1);
    expect(await rows(`select count(*) as n from '${join(out, 'calls.parquet')}' where file = '${deleted}' or file = '${locked}'`)).toEqual([{ n: 0 }]);
    expect(third.json.calls).toBe([...expected.values()].reduce((sum, s) => sum + s.calls, 0));

    // Readable again, it is read again; nothing is left half written beside the tables.
    chmodSync(locked, 0o666);
    const fourth = await index(dir, out);
    expect(fourth.json).toMatchObject({ parsed: 1, unreadable: [] });
    expect(readdirSync(out).sort()).toEqual(['calls.parquet', 'manifest.json', 'sessions.parquet']);
  }, 60_000);
});

describe('loupe index, a Claude Code session with its sub-agents\' files', () => {
  // The recorded run of fixtures/subagent/: 19 calls, 9 of them by three sub-agents in files of their own.
  const RECORDED = join(ROOT, 'fixtures/subagent/claude-code-2.1.83_three-subagents');
  const RUN = '869c696e-f778-4f73-81d7-92fbc13f60b4';

  test('reads the session with them: one session, every call with its parent_call_id as loupe summarize says; a changed sub-agent file reads the session again', async () => {
    const dir = join(work, 'subagents', 'projects', '-tmp-ws');
    mkdirSync(join(dir, RUN, 'subagents'), { recursive: true });
    copyFileSync(join(RECORDED, `${RUN}.jsonl`), join(dir, `${RUN}.jsonl`));
    for (const name of readdirSync(join(RECORDED, RUN, 'subagents'))) copyFileSync(join(RECORDED, RUN, 'subagents', name), join(dir, RUN, 'subagents', name));
    for (const entry of readdirSync(join(work, 'subagents'), { recursive: true, withFileTypes: true })) chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o777 : 0o666);
    chmodSync(join(work, 'subagents'), 0o777);
    const out = join(work, 'subagents-index');
    const run = await index(join(work, 'subagents'), out);
    expect(run.json).toMatchObject({ sessions: 1, calls: 19, parsed: 1, unreadable: [] });
    const session = join(dir, `${RUN}.jsonl`);
    const expected = (await summaryOf(session)).calls.map((call) => ({ call_id: call.id, parent_call_id: call.parent }));
    expect(expected.filter((call) => call.parent_call_id !== null)).toHaveLength(9);
    const calls = `'${join(out, 'calls.parquet')}'`;
    expect(await rows(`select call_id, parent_call_id from ${calls} order by call_id`)).toEqual(expected.sort((a, b) => a.call_id.localeCompare(b.call_id)));
    expect(await rows(`select distinct file from ${calls}`)).toEqual([{ file: session }]);

    // A sub-agent's file that changes is part of its session: the session is read again.
    appendFileSync(join(dir, RUN, 'subagents', 'agent-aab1cfe8219976e47.jsonl'), '\n');
    expect((await index(join(work, 'subagents'), out)).json).toMatchObject({ sessions: 1, calls: 19, parsed: 1, reused: 0 });
    expect((await index(join(work, 'subagents'), out)).json).toMatchObject({ sessions: 1, parsed: 0, reused: 1 });
  }, 60_000);
});

describe('loupe index, a Codex run whose sub-agents have rollouts of their own', () => {
  const RECORDED = join(ROOT, 'fixtures/subagent/codex-0.137.0_two-subagents');

  test('reads the main rollout with its helpers\' rollouts: one session, their calls with parent_call_id as loupe summarize says', async () => {
    const root = join(work, 'codex-subagents');
    const dir = join(root, 'sessions', '2026', '12', '02');
    mkdirSync(dir, { recursive: true });
    const rollouts = readdirSync(RECORDED).filter((name) => name.startsWith('rollout-')).sort();
    for (const name of rollouts) copyFileSync(join(RECORDED, name), join(dir, name));
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o777 : 0o666);
    chmodSync(root, 0o777);
    const out = join(work, 'codex-subagents-index');
    const run = await index(root, out);
    expect(run.json).toMatchObject({ sessions: 1, calls: 9, parsed: 1, unreadable: [] });
    const main = join(dir, rollouts[0]!);
    const expected = (await summaryOf(main)).calls.map((call) => ({ call_id: call.id, parent_call_id: call.parent }));
    expect(expected.filter((call) => call.parent_call_id !== null)).toHaveLength(3);
    expect(await rows(`select call_id, parent_call_id from '${join(out, 'calls.parquet')}' order by call_id`)).toEqual(expected.sort((a, b) => a.call_id.localeCompare(b.call_id)));
  }, 60_000);
});

describe('loupe index, a file that keeps changing (a session an agent is writing)', () => {
  test('a changed file rewrites only the row groups from the first that holds its rows: the last run\'s groups before it stay as they were written', async () => {
    const dir = join(work, 'growing');
    mkdirSync(dir);
    const generate = (name: string, calls: number, seed: number) => {
      const file = join(dir, name);
      spawnSync(process.execPath, [GENERATOR, '--format', 'acp', '--calls', String(calls), '--seed', String(seed), '--out', file]);
      chmodSync(file, 0o666);
      return file;
    };
    for (const [name, seed] of [['a.jsonl', 1], ['b.jsonl', 2], ['c.jsonl', 3]] as const) generate(name, 6, seed);
    chmodSync(dir, 0o777);
    const out = join(work, 'growing-index');
    const callsTable = join(out, 'calls.parquet');
    const counts = async () => rows(`select regexp_extract(file, '[a-z]+\\.jsonl$') as name, count(*) as n from '${callsTable}' group by 1 order by 1`);

    // Groups of 5 rows: the first run's 18 calls end in a group of 3.
    expect((await index(dir, out, '--row-group', '5')).json).toMatchObject({ calls: 18, parsed: 3 });
    const firstRun = readFileSync(callsTable);
    const firstGroups = (await parquetMetadataAsync(await asyncBufferFromFile(callsTable))).row_groups;
    expect(firstGroups.map((group) => Number(group.num_rows))).toEqual([5, 5, 5, 3]);
    const firstGroupsEnd = Math.max(...firstGroups.flatMap((group) => group.columns.map(({ meta_data: m }) => Number(m!.dictionary_page_offset ?? m!.data_page_offset) + Number(m!.total_compressed_size))));

    // The session being written: added, then changed twice.
    generate('live.jsonl', 6, 4);
    expect((await index(dir, out, '--row-group', '5')).json).toMatchObject({ calls: 24, parsed: 1, reused: 3 });
    for (const [calls, seed] of [[8, 5], [11, 6]] as const) {
      generate('live.jsonl', calls, seed);
      expect((await index(dir, out, '--row-group', '5')).json).toMatchObject({ calls: 18 + calls, parsed: 1, reused: 3 });
      // The first run's groups (and its 3-row group) are still its bytes: only the live session's rows were written again.
      expect(readFileSync(callsTable).subarray(0, firstGroupsEnd).equals(firstRun.subarray(0, firstGroupsEnd))).toBe(true);
      expect(await counts()).toEqual([{ name: 'a.jsonl', n: 6 }, { name: 'b.jsonl', n: 6 }, { name: 'c.jsonl', n: 6 }, { name: 'live.jsonl', n: calls }]);
    }

    // A change to the first file rewrites every group after it, and the tables are still right.
    generate('a.jsonl', 2, 7);
    rmSync(join(dir, 'b.jsonl'));
    expect((await index(dir, out, '--row-group', '5')).json).toMatchObject({ calls: 2 + 6 + 11, parsed: 1, reused: 2 });
    expect(await counts()).toEqual([{ name: 'a.jsonl', n: 2 }, { name: 'c.jsonl', n: 6 }, { name: 'live.jsonl', n: 11 }]);
    expect(await rows(`select count(*) as n from '${join(out, 'sessions.parquet')}'`)).toEqual([{ n: 3 }]);
  }, 60_000);

  test('an index folder that is a symbolic link is not written through: exit 1, one line, nothing written where it points', async () => {
    const target = join(work, 'link-target');
    mkdirSync(target, { recursive: true });
    symlinkSync(target, join(work, 'index-link'));
    let err = '';
    const code = await indexMain([work, '--out', join(work, 'index-link')], { out: () => undefined, err: (text) => void (err += text) });
    expect(code).toBe(1);
    expect(err).toMatch(/index-link is a symbolic link/);
    expect(readdirSync(target)).toEqual([]);
  });

  test('--row-group takes a whole number of rows', async () => {
    let err = '';
    const code = await indexMain([work, '--row-group', 'lots'], { out: () => undefined, err: (text) => void (err += text) });
    expect(code).toBe(2);
    expect(err).toMatch(/--row-group must be a whole number of rows, 1 or more, not lots/);
  });
});

/** A legacy ledger `tool_called` line (no id, keyed by its line): one more call, whatever the chain says. */
function readLedgerCall(n: number): string {
  return JSON.stringify({ v: 1, seq: 100_000 + n, kind: 'tool_called', data: { tool: 'read_file', args: { path: `/added/${n}.ts` } } });
}

/** A machine's sessions: a few generated files of its own. */
function machineFolder(name: string, specs: [string, string[]][]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, args] of specs) {
    const made = spawnSync(process.execPath, [GENERATOR, ...args, '--out', join(dir, file)], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
    chmodSync(join(dir, file), 0o666);
  }
  chmodSync(dir, 0o777);
  return dir;
}

describe("loupe index --machine: a team's index, one folder every machine writes its partition into", () => {
  test('three machines\' partitions read in DuckDB as one table with a machine column, each machine\'s counts those of loupe summarize --json over its files', async () => {
    const base = join(work, 'team');
    const here = machineNameOf(hostname());
    const machines: [string, string][] = [
      ['alpha', machineFolder('team-alpha', [['a1.jsonl', ['--format', 'acp', '--calls', '11', '--seed', '21']], ['a2.jsonl', ['--format', 'grok', '--calls', '6', '--seed', '22']]])],
      ['beta', machineFolder('team-beta', [['b1.jsonl', ['--format', 'ledger', '--calls', '9', '--seed', '23']]])],
      [here, machineFolder('team-here', [['h1.jsonl', ['--format', 'acp', '--calls', '4', '--seed', '24', '--bad-rate', '0.1']], ['h2.jsonl', ['--format', 'acp', '--calls', '13', '--seed', '25']], ['h3.jsonl', ['--format', 'grok', '--calls', '5', '--seed', '26']]])],
    ];
    // The first two name their machine; the third, into a folder that is already a team's, is the host's.
    for (const [machine, dir] of machines) {
      const run = await index(dir, base, ...(machine === here ? [] : ['--machine', machine]));
      expect(run.code).toBe(0);
      expect(run.json).toMatchObject({ machine, out: join(base, `machine=${machine}`) });
    }
    expect(readdirSync(base).sort()).toEqual(['index.json', ...machines.map(([m]) => `machine=${m}`)].sort());

    const expected = new Map<string, { sessions: number; calls: number; failed: number }>();
    for (const [machine, dir] of machines) {
      const summaries = [...(await summariesOf(sessionFiles(dir))).values()];
      expected.set(machine, { sessions: summaries.length, calls: summaries.reduce((n, s) => n + s.calls, 0), failed: summaries.reduce((n, s) => n + s.failed, 0) });
    }
    const byMachine = [...expected].sort(([a], [b]) => a.localeCompare(b));
    const calls = `read_parquet('${base}/*/calls.parquet', hive_partitioning = true)`;
    const sessions = `read_parquet('${base}/*/sessions.parquet', hive_partitioning = true)`;
    expect(await rows(`select machine, count(*) as calls, count(*) filter (where status = 'failed') as failed from ${calls} group by 1 order by 1`)).toEqual(
      byMachine.map(([machine, e]) => ({ machine, calls: e.calls, failed: e.failed })),
    );
    expect(await rows(`select machine, count(*) as sessions, sum(calls) as calls from ${sessions} group by 1 order by 1`)).toEqual(
      byMachine.map(([machine, e]) => ({ machine, sessions: e.sessions, calls: e.calls })),
    );
    // Each machine's rows are its own files.
    for (const [machine, dir] of machines) {
      expect((await rows(`select file from ${sessions} where machine = '${machine}' order by 1`)).map((r) => r.file)).toEqual(sessionFiles(dir));
    }

    // index.json lists the three, with their tables' rows and bytes.
    const listing = teamListingOf(JSON.parse(readFileSync(join(base, 'index.json'), 'utf8')));
    expect(listing?.partitions.map((p) => [p.machine, p.sessions, p.calls])).toEqual(byMachine.map(([machine, e]) => [machine, e.sessions, e.calls]));
    for (const p of listing!.partitions) {
      expect(p.tables.map((t) => [t.file, t.bytes])).toEqual(['sessions.parquet', 'calls.parquet'].map((file) => [file, readFileSync(join(base, p.dir, file)).byteLength]));
    }

    // Run again, nothing changed: the same tables, the listing still whole; a lock a stopped writer left is taken over.
    writeFileSync(join(base, '.index.json.lock'), '1\n');
    utimesSync(join(base, '.index.json.lock'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect((await index(machines[1]![1], base, '--machine', 'beta')).json).toMatchObject({ parsed: 0, reused: 1 });
    expect(teamListingOf(JSON.parse(readFileSync(join(base, 'index.json'), 'utf8')))?.partitions.map((p) => p.machine)).toEqual(byMachine.map(([m]) => m));
    expect(existsSync(join(base, '.index.json.lock'))).toBe(false);
  }, 90_000);

  test('two machines writing into one folder at once: both partitions whole, both listed', async () => {
    const base = join(work, 'team-race');
    const one = machineFolder('race-one', [['r1.jsonl', ['--format', 'acp', '--calls', '40', '--seed', '31']], ['r2.jsonl', ['--format', 'acp', '--calls', '30', '--seed', '32']]]);
    const two = machineFolder('race-two', [['s1.jsonl', ['--format', 'grok', '--calls', '35', '--seed', '33']], ['s2.jsonl', ['--format', 'ledger', '--calls', '25', '--seed', '34']]]);
    for (let round = 0; round < 2; round++) {
      const [a, b] = await Promise.all([index(one, base, '--machine', 'one'), index(two, base, '--machine', 'two')]);
      expect([a.code, b.code]).toEqual([0, 0]);
    }
    expect(await rows(`select machine, count(*) as calls from read_parquet('${base}/*/calls.parquet', hive_partitioning = true) group by 1 order by 1`)).toEqual([
      { machine: 'one', calls: 70 },
      { machine: 'two', calls: 60 },
    ]);
    expect(await rows(`select machine, count(*) as n from read_parquet('${base}/*/sessions.parquet', hive_partitioning = true) group by 1 order by 1`)).toEqual([
      { machine: 'one', n: 2 },
      { machine: 'two', n: 2 },
    ]);
    const listing = teamListingOf(JSON.parse(readFileSync(join(base, 'index.json'), 'utf8')));
    expect(listing?.partitions.map((p) => [p.machine, p.sessions, p.calls])).toEqual([['one', 2, 70], ['two', 2, 60]]);
    // Nothing left half written: no temp files, no lock.
    expect(readdirSync(base).sort()).toEqual(['index.json', 'machine=one', 'machine=two']);
    for (const machine of ['one', 'two']) expect(readdirSync(join(base, `machine=${machine}`)).sort()).toEqual(['calls.parquet', 'manifest.json', 'sessions.parquet']);
  }, 90_000);

  test('--machine takes a folder-safe name; without it, --out DIR still writes DIR itself', async () => {
    let err = '';
    const code = await indexMain([work, '--out', join(work, 'bad-team'), '--machine', '../x'], { out: () => undefined, err: (text) => void (err += text) });
    expect(code).toBe(2);
    expect(err).toMatch(/--machine takes a name of letters, digits/);
    expect(existsSync(join(work, 'bad-team'))).toBe(false);
    const dir = machineFolder('plain', [['p.jsonl', ['--format', 'acp', '--calls', '3', '--seed', '41']]]);
    const run = await index(dir, join(work, 'plain-index'));
    expect(run.json).not.toHaveProperty('machine');
    expect(readdirSync(join(work, 'plain-index')).sort()).toEqual(['calls.parquet', 'manifest.json', 'sessions.parquet']);
  });
});
