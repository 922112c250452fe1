// OpenCode's sessions (`~/.local/share/opencode/opencode.db`, CONTRACTS §10 for what native calls
// stand for). OpenCode keeps every session of the machine in one SQLite database: a `session` row
// per session (a sub-agent's is a child session: `parent_id`), a `message` row per user prompt or
// model response (`data`: JSON, `role` user or assistant), and a `part` row per piece of a
// message (`data.type`: text, reasoning, tool, step-start, step-finish, patch, file, …). A tool
// part is written again, whole, as its call advances (`state.status` pending, running,
// completed, error); what is read is its last state.
//
// The database is not lines: each row read is a record, numbered from 1 in the order read
// (sessions by start; each session's row, then its messages by id, each followed by its parts by
// id: OpenCode's ids grow with time), with no byte range, like an embedder's pushed values. Its
// `raw` names the table and the row (`{table, id, …, data}`), so the raw view says where it is.
import type { SourceLocation } from '../acpTypes';
import type { IngestRecord, NativeEntry, NativeUpdate } from '../records';
import { isJsonObject, type JsonObject } from '../schemas';
import { isPlaceholderTitle } from '../harnesses/opencode';
import { applyWal } from '../sqlite/wal';
import { loadSqlJs } from '../sqlite/sqljs';
import { callUpdate, chunk, clip, planEntries, resultUpdate } from './shared';

/** A row read: a record, or a row whose `data` is not a JSON object (a bad record, CONTRACTS §2). */
export type DatabaseRow = { record: IngestRecord; sessionId?: string } | { bad: { line: number; reason: string; text: string }; sessionId?: string };

export interface DatabaseRead {
  rows: DatabaseRow[];
  /** What the reader says about the file itself (a `-wal` it could not use, frames not yet committed). */
  warnings: string[];
}

/** One session as its rows describe it: what a lister shows and what tells an index it changed. */
export interface OpenCodeSession {
  id: string;
  parentId: string | null;
  title: string | null;
  directory: string | null;
  createdMs: number | undefined;
  /** The latest `time_updated` of the session's own row, its messages and their parts: grows with every change. */
  updatedMs: number | undefined;
  /** The first thing the person asked, where the title is still OpenCode's placeholder (`New session - <time>`). */
  prompt: string | null;
}


const TABLES = ['session', 'message', 'part'];

type Db = import('sql.js').Database;

/** The database as its writer last committed it (the `-wal` applied in memory), open in sql.js. */
async function openDatabase(main: Uint8Array, wal: Uint8Array | undefined, warnings: string[]): Promise<Db> {
  const applied = applyWal(main, wal);
  if (applied.problem !== undefined) warnings.push(`${applied.problem}: read without it`);
  const SQL = await loadSqlJs();
  return new SQL.Database(applied.bytes);
}

function tablesOf(db: Db): string[] {
  return (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values ?? []).map((row) => String(row[0]));
}

function rowsOf(db: Db, sql: string, params: (string | number)[] = []): JsonObject[] {
  const statement = db.prepare(sql);
  const rows: JsonObject[] = [];
  try {
    if (params.length > 0) statement.bind(params);
    while (statement.step()) rows.push(statement.getAsObject());
  } finally {
    statement.free();
  }
  return rows;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * Every session's rows as records, in the order described above (`only`: those of these sessions
 * alone). Never throws on what the file holds: a file SQLite cannot open is one bad record, a
 * database without OpenCode's tables one unknown record.
 */
export async function readOpenCodeDatabase(main: Uint8Array, wal?: Uint8Array, only?: ReadonlySet<string>): Promise<DatabaseRead> {
  let db: OpenCodeDatabase;
  try {
    db = await openOpenCodeDatabase(main, wal);
  } catch (error) {
    return { rows: [{ bad: { line: 1, reason: `not a SQLite database SQLite can open (${message(error)})`, text: '' } }], warnings: [] };
  }
  try {
    if (db.tables !== null) {
      const reason = "a SQLite database without OpenCode's session, message and part tables";
      return { rows: [{ record: { loc: at(1), body: { kind: 'unknown', reason, value: { tables: db.tables } } } }], warnings: db.warnings };
    }
    return { rows: db.read(only), warnings: db.warnings };
  } catch (error) {
    return { rows: [{ bad: { line: 1, reason: `the database could not be read (${message(error)})`, text: '' } }], warnings: db.warnings };
  } finally {
    db.close();
  }
}

/** The sessions a database holds, by start, without reading their messages: for listers and the index. */
export async function openCodeSessions(main: Uint8Array, wal?: Uint8Array): Promise<OpenCodeSession[]> {
  const db = await openOpenCodeDatabase(main, wal);
  try {
    return db.tables === null ? db.sessions() : [];
  } finally {
    db.close();
  }
}

/**
 * A database open in memory, for a reader that lists its sessions and then reads some of them
 * (the index reads only those whose rows changed). Throws when SQLite cannot open the bytes.
 */
export interface OpenCodeDatabase {
  /** What the reader says about the file itself (a `-wal` it could not use). */
  warnings: string[];
  /** Null for OpenCode's database; else the tables this other database has. */
  tables: string[] | null;
  /** Its sessions by start, each with when it last changed (no messages read but a title's prompt). */
  sessions(): OpenCodeSession[];
  /** The rows of these sessions (all, without `only`) as records. */
  read(only?: ReadonlySet<string>): DatabaseRow[];
  /** How many bytes each of these sessions' rows' `data` take, by session id. */
  dataBytes(only: ReadonlySet<string>): Map<string, number>;
  close(): void;
}

export async function openOpenCodeDatabase(main: Uint8Array, wal?: Uint8Array): Promise<OpenCodeDatabase> {
  const warnings: string[] = [];
  const db = await openDatabase(main, wal, warnings);
  let tables: string[];
  try {
    tables = tablesOf(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    warnings,
    tables: TABLES.every((table) => tables.includes(table)) ? null : tables,
    sessions: () => sessionsOf(db),
    read: (only) => new Reader().read(db, only),
    dataBytes: (only) => {
      const bytes = new Map<string, number>();
      for (const table of ['message', 'part']) {
        for (const row of rowsOf(db, `SELECT session_id, SUM(LENGTH(CAST(data AS BLOB))) AS n FROM ${table} WHERE session_id IN ${SELECTED} GROUP BY session_id`, [idsParam(only)])) {
          const id = String(row.session_id);
          bytes.set(id, (bytes.get(id) ?? 0) + (num(row.n) ?? 0));
        }
      }
      return bytes;
    },
    close: () => db.close(),
  };
}

/** A statement's `IN` over the ids bound as one JSON array (no limit on how many). */
const SELECTED = '(SELECT value FROM json_each(?))';
const idsParam = (ids: ReadonlySet<string>): string => JSON.stringify([...ids]);

function sessionsOf(db: Db): OpenCodeSession[] {
  const updated = new Map<string, number>();
  for (const table of ['message', 'part']) {
    for (const row of rowsOf(db, `SELECT session_id, MAX(time_updated) AS t FROM ${table} GROUP BY session_id`)) {
      const id = String(row.session_id);
      const t = num(row.t);
      if (t !== undefined) updated.set(id, Math.max(updated.get(id) ?? t, t));
    }
  }
  return rowsOf(db, 'SELECT * FROM session ORDER BY time_created, id').map((row) => {
    const id = String(row.id);
    const own = num(row.time_updated);
    const rows = updated.get(id);
    const title = str(row.title);
    return {
      id,
      parentId: str(row.parent_id),
      title,
      directory: str(row.directory),
      createdMs: num(row.time_created),
      updatedMs: own === undefined ? rows : rows === undefined ? own : Math.max(own, rows),
      prompt: title === null || isPlaceholderTitle(title) ? firstPrompt(db, id) : null,
    };
  });
}

/** The text of a session's first user message (its first part that is text OpenCode did not add itself). */
function firstPrompt(db: Db, sessionId: string): string | null {
  const statement = db.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY id');
  try {
    statement.bind([sessionId]);
    while (statement.step()) {
      const [id, data] = statement.get();
      const message = parse(data);
      if (!isJsonObject(message) || message.role !== 'user') continue;
      for (const part of rowsOfMessage(db, String(id))) {
        const value = parse(part.data);
        if (isJsonObject(value) && value.type === 'text' && typeof value.text === 'string' && value.synthetic !== true && value.text.trim() !== '') return value.text;
      }
    }
    return null;
  } finally {
    statement.free();
  }
}

function rowsOfMessage(db: Db, messageId: string): JsonObject[] {
  const statement = db.prepare('SELECT data FROM part WHERE message_id = ? ORDER BY id');
  const rows: JsonObject[] = [];
  try {
    statement.bind([messageId]);
    while (statement.step()) rows.push(statement.getAsObject());
  } finally {
    statement.free();
  }
  return rows;
}

function parse(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function at(line: number): SourceLocation {
  return { line, offset: 0, length: 0 };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class Reader {
  private readonly rows: DatabaseRow[] = [];
  /** Each message's role, for its text parts. */
  private readonly roles = new Map<string, string>();

  read(db: Db, only?: ReadonlySet<string>): DatabaseRow[] {
    const params = only === undefined ? [] : [idsParam(only)];
    const where = (key: string) => (only === undefined ? '' : `WHERE ${key} IN ${SELECTED}`);
    const sessions = rowsOf(db, `SELECT * FROM session ${where('id')} ORDER BY time_created, id`, params);
    const ofSessions = where('session_id');
    const messages = groupBy(rowsOf(db, `SELECT * FROM message ${ofSessions} ORDER BY session_id, id`, params), 'session_id');
    const parts = groupBy(rowsOf(db, `SELECT * FROM part ${ofSessions} ORDER BY message_id, id`, params), 'message_id');
    const sessionIds = new Set<string>();
    for (const session of sessions) {
      const id = String(session.id);
      sessionIds.add(id);
      this.session(session);
      for (const row of messages.get(id) ?? []) this.messageWithParts(row, parts);
    }
    // Messages of a session whose row is gone (OpenCode deletes in cascade; a copy taken mid-way may not have).
    for (const [id, rows] of messages) if (!sessionIds.has(id)) for (const row of rows) this.messageWithParts(row, parts);
    return this.rows;
  }

  private get next(): SourceLocation {
    return at(this.rows.length + 1);
  }

  private session(row: JsonObject): void {
    const id = String(row.id);
    const parent = str(row.parent_id);
    const title = str(row.title);
    const summary = [title ?? id, parent === null ? null : `sub-agent of ${parent}`].filter((s) => s !== null).join(' · ');
    const raw: JsonObject = { table: 'session', ...row };
    const entry: NativeEntry = { kind: 'native', name: 'session', summary, sessionId: id, opens: id, updates: [], raw };
    this.rows.push({ record: { loc: this.next, shape: 'opencode', ts: num(row.time_created), dir: undefined, body: entry }, sessionId: id });
  }

  private messageWithParts(row: JsonObject, parts: Map<string, JsonObject[]>): void {
    const id = String(row.id);
    this.row('message', row, (data) => this.message(id, row, data));
    for (const part of parts.get(id) ?? []) this.row('part', part, (data, text) => this.part(part, data, text));
  }

  /** A row whose `data` is read as JSON: a record, or a bad record naming the row. */
  private row(table: string, row: JsonObject, read: (data: JsonObject, text: string) => { entry: NativeEntry; ts: number | undefined }): void {
    const loc = this.next;
    const text = typeof row.data === 'string' ? row.data : '';
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (!isJsonObject(data)) {
      this.rows.push({ bad: { line: loc.line, reason: `${table} ${String(row.id)}: data is not a JSON object`, text }, sessionId: String(row.session_id) });
      return;
    }
    const { entry, ts } = read(data, text);
    entry.raw = { table, id: row.id ?? null, session_id: row.session_id ?? null, ...(table === 'part' ? { message_id: row.message_id ?? null } : {}), time_created: row.time_created ?? null, time_updated: row.time_updated ?? null, data };
    this.rows.push({ record: { loc, shape: 'opencode', ts: ts ?? num(row.time_created), dir: undefined, body: entry }, sessionId: String(row.session_id) });
  }

  private message(id: string, row: JsonObject, data: JsonObject): { entry: NativeEntry; ts: number | undefined } {
    const role = typeof data.role === 'string' ? data.role : 'message';
    this.roles.set(id, role);
    const entry: NativeEntry = { kind: 'native', name: `message/${role}`, sessionId: String(row.session_id), updates: [], raw: data };
    const error = isJsonObject(data.error) ? data.error : undefined;
    if (error !== undefined) {
      // A response that failed (the provider's error, an abort): said where it happened.
      const detail = isJsonObject(error.data) && typeof error.data.message === 'string' ? error.data.message : undefined;
      entry.summary = [typeof error.name === 'string' ? error.name : 'error', detail].filter((s) => s !== undefined).join(': ');
    } else {
      // What a message says is in its parts: its own row is counted, not shown again.
      entry.repeat = true;
    }
    const time = isJsonObject(data.time) ? data.time : undefined;
    return { entry, ts: num(time?.created) };
  }

  private part(row: JsonObject, data: JsonObject, text: string): { entry: NativeEntry; ts: number | undefined } {
    const type = typeof data.type === 'string' ? data.type : 'part';
    const sessionId = String(row.session_id);
    const partId = String(row.id);
    const entry: NativeEntry = { kind: 'native', name: type, sessionId, updates: [], raw: data };
    const time = isJsonObject(data.time) ? data.time : undefined;
    let ts = num(time?.start);
    switch (type) {
      case 'text': {
        const said = typeof data.text === 'string' ? data.text : '';
        const role = this.roles.get(String(row.message_id));
        // OpenCode's own additions to a prompt (a file it read for an @-mention) are marked synthetic.
        if (data.synthetic === true || data.ignored === true || said === '') entry.summary = clip(said);
        else entry.updates.push(chunk(role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', said, partId));
        break;
      }
      case 'reasoning': {
        const said = typeof data.text === 'string' ? data.text : '';
        if (said !== '') entry.updates.push(chunk('agent_thought_chunk', said, partId));
        break;
      }
      case 'tool':
        ts = this.tool(data, text, entry) ?? ts;
        break;
      case 'step-start':
        // A model request begins: bookkeeping (a snapshot hash), counted and not shown.
        entry.repeat = true;
        break;
      case 'step-finish': {
        const counts = tokenCounts(data.tokens, data.cost);
        if (counts !== undefined) entry.usage = { counts };
        entry.summary = typeof data.reason === 'string' ? data.reason : undefined;
        break;
      }
      case 'patch':
        entry.summary = Array.isArray(data.files) ? data.files.filter((f) => typeof f === 'string').join(' ') : undefined;
        break;
      case 'file':
        entry.summary = str(data.filename) ?? str(data.url) ?? undefined;
        break;
      case 'compaction':
        entry.compaction = true;
        break;
      default:
        break;
    }
    return { entry, ts: ts ?? num(row.time_created) };
  }

  /**
   * A tool part: its call, and its result once it has one. Returns the time its result came, where
   * it did. `state.metadata.exit` is a command's exit code: OpenCode marks a command that ran
   * `completed` whatever it returned, so one that exited non-zero failed (CONTRACTS §11).
   */
  private tool(data: JsonObject, text: string, entry: NativeEntry): number | undefined {
    const id = str(data.callID);
    const name = str(data.tool);
    if (id === null || name === null) return undefined;
    const state = isJsonObject(data.state) ? data.state : {};
    const status = typeof state.status === 'string' ? state.status : 'pending';
    const time = isJsonObject(state.time) ? state.time : undefined;
    const input = isJsonObject(state.input) ? state.input : undefined;
    const call = callUpdate(id, name, input, text, ['state', 'input']);
    if (status === 'running') call.fields.status = 'in_progress';
    const title = str(state.title);
    if (title !== null) call.fields.title = title;
    const update: Extract<NativeUpdate, { type: 'call' }> = { type: 'call', update: call, ts: num(time?.start) };
    if (name === 'todowrite') update.plan = planEntries(input?.todos) ?? [];
    entry.updates.push(update);
    entry.summary = `${name} ${status}`;
    const metadata = isJsonObject(state.metadata) ? state.metadata : undefined;
    if (status === 'completed') {
      const exit = num(metadata?.exit);
      const output = typeof state.output === 'string' ? state.output : undefined;
      entry.updates.push({ type: 'result', update: resultUpdate(id, exit !== undefined && exit !== 0, output, { output: state.output ?? null, metadata: metadata ?? null }) });
      if (exit !== undefined) entry.updates.push({ type: 'exit', toolCallId: id, exitCode: exit });
      this.noteSubagent(name, id, metadata, entry);
      return num(time?.end);
    }
    if (status === 'error') {
      const error = typeof state.error === 'string' ? state.error : undefined;
      entry.updates.push({ type: 'result', update: resultUpdate(id, true, error, { error: state.error ?? null, metadata: metadata ?? null }) });
      this.noteSubagent(name, id, metadata, entry);
      return num(time?.end);
    }
    this.noteSubagent(name, id, metadata, entry);
    return undefined;
  }

  /** A `task` part names its sub-agent's child session (`state.metadata.sessionId`): that session's calls have the task as parent (CONTRACTS §11). */
  private noteSubagent(name: string, id: string, metadata: JsonObject | undefined, entry: NativeEntry): void {
    const child = str(metadata?.sessionId);
    if (name === 'task' && child !== null) entry.subagent = { sessionId: child, parentId: id };
  }
}

/** OpenCode's `{total, input, output, reasoning, cache: {read, write}}` (and the cost) in the names usage reads. */
function tokenCounts(tokens: unknown, cost: unknown): JsonObject | undefined {
  if (!isJsonObject(tokens)) return undefined;
  const cache = isJsonObject(tokens.cache) ? tokens.cache : {};
  const counts: JsonObject = {};
  const put = (key: string, value: unknown) => {
    if (typeof value === 'number') counts[key] = value;
  };
  put('input', tokens.input);
  put('output', tokens.output);
  put('total_tokens', tokens.total);
  put('reasoning_tokens', tokens.reasoning);
  put('cached_read_tokens', cache.read);
  put('cache_write_tokens', cache.write);
  put('cost', cost);
  return Object.keys(counts).length > 0 ? counts : undefined;
}

function groupBy(rows: JsonObject[], key: string): Map<string, JsonObject[]> {
  const groups = new Map<string, JsonObject[]>();
  for (const row of rows) {
    const value = String(row[key]);
    let group = groups.get(value);
    if (!group) groups.set(value, (group = []));
    group.push(row);
  }
  return groups;
}


