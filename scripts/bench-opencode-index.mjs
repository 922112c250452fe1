// `loupe index` over one OpenCode database of many sessions (the held-out recording's rows copied
// under new ids), against reading the whole database once (`loupe summarize`, the cost a warm run
// paid when the database was one unit of the index), in the same run:
//   - the first run (every session read);
//   - a run with nothing changed (the database not opened);
//   - a run after one call was added to one session (the database listed, that session read).
// Prints figures; asserts nothing. Needs the built CLI (npm run build:cli).
// Usage: node scripts/bench-opencode-index.mjs [--sessions 300]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { arg, root } from './bench-common.mjs';

const sessions = Number(arg('sessions', '300'));
const cli = join(root, 'bin/loupe.mjs');
const SQL = await initSqlJs();
const recording = () => readFileSync(join(root, 'fixtures/native/opencode-1.18.33_heldout.db'));
const source = new SQL.Database(recording());
const db = new SQL.Database(recording());
for (const table of ['part', 'message', 'session']) db.run(`DELETE FROM ${table}`);
const IDS = ['id', 'session_id', 'message_id'];
for (const table of ['session', 'message', 'part']) {
  const result = source.exec(`SELECT * FROM ${table}`)[0];
  const insert = db.prepare(`INSERT INTO ${table} (${result.columns.join(', ')}) VALUES (${result.columns.map(() => '?').join(', ')})`);
  for (let n = 0; n < sessions; n++) {
    const suffix = String(n).padStart(6, '0');
    for (const values of result.values) insert.run(values.map((value, k) => (typeof value === 'string' && IDS.includes(result.columns[k]) ? value + suffix : value)));
  }
  insert.free();
}
source.close();

const work = mkdtempSync(join(tmpdir(), 'loupe-bench-opencode-'));
try {
  const dir = join(work, 'opencode');
  mkdirSync(dir);
  const database = join(dir, 'opencode.db');
  const out = join(work, 'index');
  const save = () => writeFileSync(database, db.export());
  save();
  const index = () => JSON.parse(execFileSync(process.execPath, [cli, 'index', dir, '--out', out, '--json'], { encoding: 'utf8' }));
  const timed = (argv) => {
    const started = performance.now();
    execFileSync(process.execPath, [cli, ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
    return performance.now() - started;
  };
  // The floor: a process that reads the whole database once, less a process that only starts.
  const whole = timed(['summarize', '--json', database]) - timed(['--version']);
  const first = index();
  const unchanged = index();
  const session = `ses_dcb18ceb4ffed1jHaRz8uIqGf1${String(Math.floor(sessions / 2)).padStart(6, '0')}`;
  const at = Date.now();
  db.run('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)', ['msg_bench', session, at, at, JSON.stringify({ role: 'assistant', time: { created: at } })]);
  const state = { status: 'completed', input: { command: 'ls' }, output: '', metadata: { exit: 0 }, time: { start: at, end: at + 1 } };
  db.run('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)', ['prt_bench', 'msg_bench', session, at, at, JSON.stringify({ type: 'tool', tool: 'bash', callID: 'c_bench', state })]);
  save();
  const oneChanged = index();
  const row = (name, run) => `${name.padEnd(22)} ${String(run.ms).padStart(6)} ms  ${(run.ms / whole).toFixed(2).padStart(5)}× the whole read  read ${run.parsed}, kept ${run.reused}`;
  console.log(`${sessions} sessions, ${(statSync(database).size / 1e6).toFixed(1)} MB; reading the whole database once: ${Math.round(whole)} ms`);
  console.log(row('first run', first));
  console.log(row('nothing changed', unchanged));
  console.log(row('one session changed', oneChanged));
} finally {
  db.close();
  rmSync(work, { recursive: true, force: true });
}
