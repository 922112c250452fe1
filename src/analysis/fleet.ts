// A fleet of sessions as two tables, one row per call and one per session file: what `loupe index`
// writes to Parquet and the library reads. Rows are the `loupe summarize --json` projection
// (model/summary.ts) flattened, so an engine's counts are the summary's counts.
import { callExitCode, permissionOf } from '../model/summary';
import { displayStatus, isDisplayStatus } from '../model/status';
import type { Session } from '../model/session';
import type { DisplayStatus } from '../model/types';

/** One call. Columns are snake_case: what a SQL engine reading the Parquet files names them. */
export interface FleetCall {
  file: string;
  format: string;
  session: string | null;
  call_id: string;
  label: string;
  subject: string | null;
  /** The viewer's words: done, failed, unfinished (pending and running once the input has ended). */
  status: DisplayStatus;
  started_ms: number | null;
  duration_ms: number | null;
  permission: string | null;
  exit_code: number | null;
  /** The tokens of the turn (or model response) the call was made in, where the input reports them. */
  turn_input_tokens: number | null;
  turn_output_tokens: number | null;
  /** The id of the call whose sub-agent made this call (`summarize --json` `parent`); null for a session's own calls. */
  parent_call_id: string | null;
}

/** One session file. */
export interface FleetSession {
  file: string;
  format: string;
  /** The first session id the file names. */
  session: string | null;
  /** The directory the agent worked in, where the file says (a Claude project folder's name else). */
  project: string | null;
  /** The first prompt a person typed, on one line, without the harness's boilerplate. */
  title: string | null;
  started_ms: number | null;
  ended_ms: number | null;
  calls: number;
  failed: number;
  input_tokens: number | null;
  output_tokens: number | null;
  /** The last cumulative cost the input reports, summed over the file's sessions. */
  cost: number | null;
  cost_unit: string | null;
  bytes: number;
  bad_lines: number;
  /** The file's modification time: a session written in the last minute is live. */
  modified_ms: number;
  /** The machine whose partition of a team's index holds the row (not a column of the file: its folder's name). */
  machine?: string;
}

/** What a column holds: Parquet writes `int` as INT64, `double` as DOUBLE, `string` as UTF-8; every column may be null. */
export type ColumnKind = 'string' | 'int' | 'double';

export interface FleetTable<Row> {
  /** The file's name in the index folder. */
  file: string;
  /** The columns in order, with their kinds. */
  columns: readonly { name: keyof Row & string; kind: ColumnKind }[];
}

export const CALLS_TABLE: FleetTable<FleetCall> = {
  file: 'calls.parquet',
  columns: [
    { name: 'file', kind: 'string' }, { name: 'format', kind: 'string' }, { name: 'session', kind: 'string' }, { name: 'call_id', kind: 'string' },
    { name: 'label', kind: 'string' }, { name: 'subject', kind: 'string' }, { name: 'status', kind: 'string' }, { name: 'started_ms', kind: 'int' },
    { name: 'duration_ms', kind: 'int' }, { name: 'permission', kind: 'string' }, { name: 'exit_code', kind: 'int' },
    { name: 'turn_input_tokens', kind: 'int' }, { name: 'turn_output_tokens', kind: 'int' }, { name: 'parent_call_id', kind: 'string' },
  ],
};

export const SESSIONS_TABLE: FleetTable<FleetSession> = {
  file: 'sessions.parquet',
  columns: [
    { name: 'file', kind: 'string' }, { name: 'format', kind: 'string' }, { name: 'session', kind: 'string' }, { name: 'project', kind: 'string' },
    { name: 'title', kind: 'string' }, { name: 'started_ms', kind: 'int' }, { name: 'ended_ms', kind: 'int' }, { name: 'calls', kind: 'int' }, { name: 'failed', kind: 'int' },
    { name: 'input_tokens', kind: 'int' }, { name: 'output_tokens', kind: 'int' }, { name: 'cost', kind: 'double' }, { name: 'cost_unit', kind: 'string' },
    { name: 'bytes', kind: 'int' }, { name: 'bad_lines', kind: 'int' }, { name: 'modified_ms', kind: 'int' },
  ],
};

/**
 * A row read back from a table (hyparquet gives INT64 as bigint) as the table's types say, or null
 * when a value is not of its column's kind: a file some other program wrote is not trusted blindly.
 */
export function fleetCallOf(raw: Record<string, unknown>): FleetCall | null {
  const row = valuesOf(raw, CALLS_TABLE);
  if (row === null || typeof row.file !== 'string' || typeof row.call_id !== 'string' || typeof row.label !== 'string') return null;
  if (!isDisplayStatus(row.status)) return null;
  return {
    file: row.file, format: str(row.format) ?? 'unknown', session: str(row.session), call_id: row.call_id, label: row.label, subject: str(row.subject),
    status: row.status, started_ms: num(row.started_ms), duration_ms: num(row.duration_ms), permission: str(row.permission),
    exit_code: num(row.exit_code), turn_input_tokens: num(row.turn_input_tokens), turn_output_tokens: num(row.turn_output_tokens),
    parent_call_id: str(row.parent_call_id),
  };
}

export function fleetSessionOf(raw: Record<string, unknown>): FleetSession | null {
  const row = valuesOf(raw, SESSIONS_TABLE);
  if (row === null || typeof row.file !== 'string') return null;
  return {
    file: row.file, format: str(row.format) ?? 'unknown', session: str(row.session), project: str(row.project), title: str(row.title), started_ms: num(row.started_ms),
    ended_ms: num(row.ended_ms), calls: num(row.calls) ?? 0, failed: num(row.failed) ?? 0, input_tokens: num(row.input_tokens),
    output_tokens: num(row.output_tokens), cost: num(row.cost), cost_unit: str(row.cost_unit), bytes: num(row.bytes) ?? 0,
    bad_lines: num(row.bad_lines) ?? 0, modified_ms: num(row.modified_ms) ?? 0,
  };
}

function valuesOf<Row>(raw: Record<string, unknown>, table: FleetTable<Row>): Record<string, string | number | null> | null {
  const row: Record<string, string | number | null> = {};
  for (const { name, kind } of table.columns) {
    const value = raw[name];
    if (value === null || value === undefined) row[name] = null;
    else if (kind === 'string' && typeof value === 'string') row[name] = value;
    else if (kind === 'int' && typeof value === 'bigint') row[name] = Number(value);
    else if ((kind === 'int' || kind === 'double') && typeof value === 'number' && Number.isFinite(value)) row[name] = value;
    else return null;
  }
  return row;
}

const str = (value: string | number | null | undefined): string | null => (typeof value === 'string' ? value : null);
const num = (value: string | number | null | undefined): number | null => (typeof value === 'number' ? value : null);

/** What the file says outside its records: found by the walk (size, time) and its first lines (project, start). */
export interface FleetFileFacts {
  file: string;
  bytes: number;
  modifiedMs: number;
  /** The family the first lines name (`claude-code`, `codex`, …): the format when records of several shapes mix. */
  headFormat: string;
  project: string | null;
  startedMs: number | null;
  sessionId: string | null;
  title: string | null;
}

export interface FleetRows {
  session: FleetSession;
  calls: FleetCall[];
}

/**
 * A session read to its end, as rows: the calls as `summarize` gives them (model/summary.ts), the
 * session's times as `sessionSummaries` spans them and its tokens and cost as `usageSeries` reports
 * them (analysis/insights.ts), each taken in one pass over the calls and one over the items, with
 * none of what else those say (a reader thread of `loupe index` builds this for every file).
 * fleetRows.test.ts holds it to them.
 */
export function fleetRows(session: Session, facts: FleetFileFacts): FleetRows {
  const format = session.format === 'mixed' || session.format === 'unknown' ? facts.headFormat : session.format;
  const calls: FleetCall[] = [];
  const callOfKey = new Map<string, FleetCall>();
  let failed = 0;
  for (const call of session.calls.values()) {
    const terminalId = call.terminalIds?.at(-1);
    const terminal = terminalId === undefined ? undefined : session.terminals.get(terminalId);
    const status = displayStatus(call, session.ended);
    if (status === 'failed') failed++;
    const row: FleetCall = {
      file: facts.file,
      format,
      session: call.sessionId,
      call_id: call.id,
      label: call.label,
      subject: call.subject,
      status,
      started_ms: finite(call.startMs),
      duration_ms: call.durationMs ?? null,
      permission: permissionOf(call),
      exit_code: callExitCode(call, terminal) ?? null,
      turn_input_tokens: null,
      turn_output_tokens: null,
      parent_call_id: call.parentId ?? null,
    };
    calls.push(row);
    callOfKey.set(call.key, row);
  }
  const { startedMs, endedMs, inputTokens, outputTokens, cost } = itemFacts(session, callOfKey, facts.startedMs);
  return {
    session: {
      file: facts.file,
      format,
      session: session.sessionIds[0] ?? facts.sessionId,
      project: facts.project,
      title: facts.title,
      started_ms: startedMs,
      ended_ms: endedMs ?? startedMs,
      calls: calls.length,
      failed,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost: cost?.amount ?? null,
      cost_unit: cost?.unit ?? null,
      bytes: facts.bytes,
      bad_lines: session.counts.bad,
      modified_ms: facts.modifiedMs,
    },
    calls,
  };
}

interface ItemFacts {
  startedMs: number | null;
  endedMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: { amount: number; unit: string } | null;
}

/**
 * What the items say, in one pass: the earliest and latest time of a call, message or turn's end
 * (as sessionSummaries notes them, over all its sessions), the tokens every report gives (summed
 * as usageSeries reports them), the last cost of each session, and each call's turn tokens, set on
 * its row (`callOfKey`): the calls of each session up to a report of tokens (a turn's end, a model
 * response's usage) belong to that report, a call's turn being the first report after it in its session.
 */
function itemFacts(session: Session, callOfKey: ReadonlyMap<string, FleetCall>, startedMs: number | null): ItemFacts {
  let started = startedMs;
  let ended: number | null = null;
  const noteTime = (ms: number | undefined): void => {
    if (ms === undefined || !Number.isFinite(ms)) return;
    if (started === null || ms < started) started = ms;
    if (ended === null || ms > ended) ended = ms;
  };
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  const lastCost = new Map<string | null, { amount: number; currency: string }>();
  const waiting = new Map<string | null, string[]>();
  for (const item of session.items) {
    if (item.type === 'call') {
      const call = session.calls.get(item.callKey);
      if (call) {
        noteTime(call.startMs);
        noteTime(call.endMs ?? call.inputEndMs);
      }
      const sessionId = call?.sessionId ?? null;
      const keys = waiting.get(sessionId);
      if (keys) keys.push(item.callKey);
      else waiting.set(sessionId, [item.callKey]);
    } else if (item.type === 'message') {
      noteTime(item.ts);
    } else if (item.type === 'turn_end' || item.type === 'usage') {
      if (item.type === 'turn_end') noteTime(item.ts);
      const usage = item.usage;
      if (!usage) continue;
      const input = finite(usage.inputTokens);
      const output = finite(usage.outputTokens);
      if (input !== null) inputTokens = (inputTokens ?? 0) + input;
      if (output !== null) outputTokens = (outputTokens ?? 0) + output;
      if (usage.cost && Number.isFinite(usage.cost.amount)) lastCost.set(item.sessionId, usage.cost);
      // A context-window update reports no tokens of a turn: the calls wait for the next report.
      if (input === null && output === null) continue;
      for (const key of waiting.get(item.sessionId) ?? []) {
        const row = callOfKey.get(key);
        if (!row) continue;
        row.turn_input_tokens = input;
        row.turn_output_tokens = output;
      }
      waiting.delete(item.sessionId);
    }
  }
  return { startedMs: started, endedMs: ended, inputTokens, outputTokens, cost: costOf(lastCost) };
}

/** ACP reports a session's cost as a running total: the last report of each session counts. */
function costOf(last: ReadonlyMap<string | null, { amount: number; currency: string }>): { amount: number; unit: string } | null {
  if (last.size === 0) return null;
  const units = new Set([...last.values()].map((cost) => cost.currency));
  // Dollars and credits do not add up: a file in several units reports none.
  if (units.size > 1) return null;
  let amount = 0;
  for (const cost of last.values()) amount += cost.amount;
  return { amount, unit: [...units][0] ?? '' };
}

function finite(value: number | undefined | null): number | null {
  return value === undefined || value === null || !Number.isFinite(value) ? null : value;
}

// ---------------------------------------------------------------------------------------------
// Fleet stats: what the library shows over the sessions a person filtered to

/** Calls per label with their failure rate and p50/p95 duration: the Stats view's numbers (callStats), over many sessions. */
export interface FleetLabelStats {
  label: string;
  calls: number;
  failed: number;
  failedShare: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface TokensOnDay {
  /** UTC, YYYY-MM-DD: the day the sessions started. */
  day: string;
  sessions: number;
  inputTokens: number;
  outputTokens: number;
}

/** Tokens per day, by the day each session started (sessions with no start time or no tokens are left out). */
export function tokensPerDay(sessions: Iterable<FleetSession>): TokensOnDay[] {
  const days = new Map<string, TokensOnDay>();
  for (const s of sessions) {
    if (s.started_ms === null || (s.input_tokens === null && s.output_tokens === null)) continue;
    const day = new Date(s.started_ms).toISOString().slice(0, 10);
    let entry = days.get(day);
    if (!entry) days.set(day, (entry = { day, sessions: 0, inputTokens: 0, outputTokens: 0 }));
    entry.sessions++;
    entry.inputTokens += s.input_tokens ?? 0;
    entry.outputTokens += s.output_tokens ?? 0;
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

/** The sessions with the most failed calls, most first (none with no failure). */
export function mostFailures(sessions: Iterable<FleetSession>, limit: number): FleetSession[] {
  return [...sessions].filter((s) => s.failed > 0).sort((a, b) => b.failed - a.failed || a.file.localeCompare(b.file) || (a.machine ?? '').localeCompare(b.machine ?? '')).slice(0, limit);
}
