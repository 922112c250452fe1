// Derivations for the views beside the transcript (stats, sessions, timeline, usage): pure functions
// over a session's calls and items, so Node, tests and the viewer compute the same numbers.
// Each takes plain iterables so it reads a `Session` and the store's immutable snapshot alike.
import { displayStatus } from '../model/status';
import { isToolCall, type CallSummary, type DisplayStatus, type ToolCall, type TranscriptItem, type Usage } from '../model/types';

// ---------------------------------------------------------------------------------------------
// Stats per label

export interface LabelStats {
  label: string;
  calls: number;
  failed: number;
  /** failed / calls, 0…1. */
  failedShare: number;
  /** Calls whose duration the input gives (the percentiles are over these). */
  timed: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  totalMs: number;
}

export interface CallRef {
  key: string;
  id: string;
  label: string;
  subject: string | null;
  sessionId: string | null;
  status: DisplayStatus;
  durationMs: number | null;
}

export interface CallStats {
  labels: LabelStats[];
  total: { calls: number; failed: number; timed: number; totalMs: number };
  /** The slowest timed calls, slowest first. */
  slowest: CallRef[];
  /** The first failed calls in input order (at most `listLimit`); `failedTotal` counts them all. */
  failed: CallRef[];
  failedTotal: number;
}

/**
 * Nearest-rank percentile of an ascending array: the smallest value with at least `p` of the
 * values at or below it (so p50 and p95 are durations some call actually took).
 */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1] ?? null;
}

export interface StatsOptions {
  ended: boolean;
  /** Only calls of these sessions (null or empty: every call). */
  sessions?: ReadonlySet<string | null> | null;
  /** How many slowest and failed calls to list. */
  listLimit?: number;
}

export function callStats(calls: Iterable<CallSummary>, opts: StatsOptions): CallStats {
  const limit = opts.listLimit ?? 10;
  const sessions = opts.sessions && opts.sessions.size > 0 ? opts.sessions : null;
  const byLabel = new Map<string, { calls: number; failed: number; durations: number[]; totalMs: number }>();
  const failedCalls: CallSummary[] = [];
  // The slowest `limit` calls, kept sorted ascending by duration; most calls are not among them.
  const slowest: { ms: number; call: CallSummary }[] = [];
  let total = 0;
  let timedTotal = 0;
  let totalMs = 0;
  for (const call of calls) {
    if (sessions && !sessions.has(call.sessionId)) continue;
    total++;
    let entry = byLabel.get(call.label);
    if (!entry) {
      entry = { calls: 0, failed: 0, durations: [], totalMs: 0 };
      byLabel.set(call.label, entry);
    }
    entry.calls++;
    if (call.status === 'failed') {
      entry.failed++;
      failedCalls.push(call);
    }
    const ms = call.durationMs;
    if (ms !== undefined && Number.isFinite(ms)) {
      entry.durations.push(ms);
      entry.totalMs += ms;
      timedTotal++;
      totalMs += ms;
      if (limit > 0 && (slowest.length < limit || ms > (slowest[0]?.ms ?? -1))) {
        if (slowest.length === limit) slowest.shift();
        let i = 0;
        while (i < slowest.length && (slowest[i]?.ms ?? 0) < ms) i++;
        slowest.splice(i, 0, { ms, call });
      }
    }
  }
  const labels: LabelStats[] = [];
  for (const [label, e] of byLabel) {
    const sorted = Float64Array.from(e.durations).sort();
    labels.push({
      label,
      calls: e.calls,
      failed: e.failed,
      failedShare: e.calls === 0 ? 0 : e.failed / e.calls,
      timed: sorted.length,
      p50Ms: percentile(sorted, 0.5),
      p95Ms: percentile(sorted, 0.95),
      maxMs: sorted.length > 0 ? (sorted[sorted.length - 1] ?? null) : null,
      totalMs: e.totalMs,
    });
  }
  labels.sort((a, b) => b.calls - a.calls || a.label.localeCompare(b.label));
  // Calls may come in any order (the store's map is not in input order): their ordinals are.
  const failed = failedCalls.sort((a, b) => a.ordinal - b.ordinal).slice(0, limit).map((call) => refOf(call, opts.ended));
  return {
    labels,
    total: { calls: total, failed: failedCalls.length, timed: timedTotal, totalMs },
    slowest: slowest.reverse().map((s) => refOf(s.call, opts.ended)),
    failed,
    failedTotal: failedCalls.length,
  };
}

function refOf(call: CallSummary, ended: boolean): CallRef {
  return {
    key: call.key,
    id: call.id,
    label: call.label,
    subject: call.subject,
    sessionId: call.sessionId,
    status: displayStatus(call, ended),
    durationMs: call.durationMs ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Sessions in the input

export interface SessionSummary {
  /** null: records that name no session (ledgers, bare updates). */
  sessionId: string | null;
  /** Input line of the session's first row. */
  firstLine: number | null;
  /** Earliest time the input gives for it (ms), if any. */
  startMs: number | null;
  /** Latest time the input gives for it (ms), if any. */
  endMs: number | null;
  calls: number;
  failed: number;
  /** Calls still pending or running (or unfinished, once the input has ended). */
  open: number;
  messages: number;
  turns: number;
}

/** The session an item belongs to (a call's is its call's); null for records that name none. */
export function sessionOfItem(item: TranscriptItem, calls: { get(key: string): CallSummary | undefined }): string | null {
  switch (item.type) {
    case 'call':
      return calls.get(item.callKey)?.sessionId ?? null;
    case 'event':
      return item.sessionId ?? null;
    case 'unknown':
      return null;
    default:
      return item.sessionId;
  }
}

/**
 * One entry per session the input names (in order of appearance), plus one for rows that name no
 * session when there are any.
 */
export function sessionSummaries(
  sessionIds: Iterable<string>,
  items: Iterable<TranscriptItem>,
  calls: { get(key: string): CallSummary | undefined },
  ended: boolean,
): SessionSummary[] {
  const byId = new Map<string | null, SessionSummary>();
  const entry = (id: string | null): SessionSummary => {
    let s = byId.get(id);
    if (!s) {
      s = { sessionId: id, firstLine: null, startMs: null, endMs: null, calls: 0, failed: 0, open: 0, messages: 0, turns: 0 };
      byId.set(id, s);
    }
    return s;
  };
  for (const id of sessionIds) entry(id);
  const prompts = new Map<SessionSummary, number>();
  const noteTime = (s: SessionSummary, ms: number | undefined): void => {
    if (ms === undefined || !Number.isFinite(ms)) return;
    if (s.startMs === null || ms < s.startMs) s.startMs = ms;
    if (s.endMs === null || ms > s.endMs) s.endMs = ms;
  };
  for (const item of items) {
    if (item.type === 'event' || item.type === 'unknown') {
      // Counted nowhere, but a session whose records are all of kinds rows do not show is still found at its line.
      if (item.type === 'event' && item.sessionId != null) entry(item.sessionId).firstLine ??= item.loc.line;
      continue;
    }
    const call = item.type === 'call' ? calls.get(item.callKey) : undefined;
    if (item.type === 'call' && !call) continue;
    const s = entry(call ? call.sessionId : item.type === 'call' ? null : item.sessionId);
    s.firstLine ??= item.loc.line;
    if (call) {
      s.calls++;
      const status = displayStatus(call, ended);
      if (status === 'failed') s.failed++;
      else if (status !== 'done') s.open++;
      noteTime(s, call.startMs);
      noteTime(s, call.endMs ?? call.inputEndMs);
    } else if (item.type === 'message') {
      s.messages++;
      noteTime(s, item.ts);
      if (item.role === 'user' && isPrompt(item.text)) prompts.set(s, (prompts.get(s) ?? 0) + 1);
    } else if (item.type === 'turn_end') {
      s.turns++;
      noteTime(s, item.ts);
    }
  }
  // An agent's own log marks no turn's end (CONTRACTS §10): there each prompt starts one.
  for (const [s, count] of prompts) if (s.turns === 0) s.turns = count;
  return [...byId.values()];
}

/**
 * A user message that starts a turn: not what Claude Code writes as the user's for a slash command
 * (`<command-name>/model</command-name>`, `<local-command-stdout>…`) or an interruption.
 */
function isPrompt(text: string): boolean {
  const start = text.trimStart();
  return start !== '' && !/^<(command-name|command-message|command-args|local-command-[a-z-]+)>/.test(start) && !start.startsWith('[Request interrupted by user');
}

// ---------------------------------------------------------------------------------------------
// Usage per turn

export interface UsagePoint {
  /** Input line of the record that reported it. */
  line: number;
  sessionId: string | null;
  /** Turn number within its session (1-based) for turn ends; null for a context-window report. */
  turn: number | null;
  ts: number | null;
  stopReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedReadTokens: number | null;
  reasoningTokens: number | null;
  totalTokens: number | null;
  /** Context window in use and its size (ACP `usage_update`). */
  contextUsed: number | null;
  contextSize: number | null;
  cost: { amount: number; currency: string } | null;
}

/** Every report of usage in input order: turn ends (with their token counts) and context-window updates. */
export function usageSeries(items: Iterable<TranscriptItem>): UsagePoint[] {
  const out: UsagePoint[] = [];
  const turns = new Map<string | null, number>();
  for (const item of items) {
    if (item.type === 'turn_end') {
      const turn = (turns.get(item.sessionId) ?? 0) + 1;
      turns.set(item.sessionId, turn);
      if (!item.usage) continue;
      out.push(pointOf(item.loc.line, item.sessionId, turn, item.ts ?? null, item.stopReason, item.usage));
    } else if (item.type === 'usage') {
      out.push(pointOf(item.loc.line, item.sessionId, null, null, null, item.usage));
    }
  }
  return out;
}

function pointOf(line: number, sessionId: string | null, turn: number | null, ts: number | null, stopReason: string | null, u: Usage): UsagePoint {
  const n = (v: number | undefined): number | null => (v === undefined || !Number.isFinite(v) ? null : v);
  return {
    line, sessionId, turn, ts, stopReason,
    inputTokens: n(u.inputTokens),
    outputTokens: n(u.outputTokens),
    cachedReadTokens: n(u.cachedReadTokens),
    reasoningTokens: n(u.reasoningTokens),
    totalTokens: n(u.totalTokens),
    contextUsed: n(u.used),
    contextSize: n(u.size),
    cost: u.cost ?? null,
  };
}

/** Input lines where the context was compacted (Grok `compaction_update` / `compaction_summary_chunk`), one per run of them. */
export function compactionLines(items: Iterable<TranscriptItem>): number[] {
  const out: number[] = [];
  let previousWasCompaction = false;
  for (const item of items) {
    const isCompaction = item.type === 'event' && item.name.startsWith('compaction');
    if (isCompaction && !previousWasCompaction) out.push(item.loc.line);
    previousWasCompaction = isCompaction;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sub-agents: the sessions in the input as a tree

export interface SessionNode {
  summary: SessionSummary;
  /** The parent's title for it (ACP `subagent_update` title), if any. */
  title: string | null;
  /** `subagent_finished` was seen, or the last `subagent_update` state said it stopped. */
  finished: boolean;
  /** The parent's Subagent call that spawned it, where the input links them. */
  viaCall: { key: string; id: string } | null;
  children: SessionNode[];
}

const CHILD_ID_KEYS = ['sessionId', 'session_id', 'childSessionId', 'child_session_id', 'subagentSessionId', 'subagent_session_id'];

function childIdOf(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  for (const key of CHILD_ID_KEYS) if (typeof r[key] === 'string' && r[key]) return r[key];
  return null;
}

/** Session ids named anywhere in a value (strings equal to a known id), at most `depth` levels down. */
function namedSessions(value: unknown, known: ReadonlySet<string>, out: Set<string>, depth = 4): void {
  if (typeof value === 'string') {
    if (known.has(value)) out.add(value);
  } else if (value && typeof value === 'object' && depth > 0) {
    for (const v of Array.isArray(value) ? value : Object.values(value)) namedSessions(v, known, out, depth - 1);
  }
}

/** The known sessions a Subagent call names in its input, output or `_meta`: the ones it spawned. */
export function sessionsNamedBy(call: Pick<ToolCall, 'rawInput' | 'rawOutput' | 'meta' | 'sessionId'>, known: ReadonlySet<string>): string[] {
  const named = new Set<string>();
  namedSessions(call.rawInput, known, named);
  namedSessions(call.rawOutput, known, named);
  namedSessions(call.meta, known, named);
  if (call.sessionId !== null) named.delete(call.sessionId);
  return [...named];
}

/**
 * The sessions as a forest: a child under the session that announced it (`subagent_update` /
 * `subagent_finished`, sent in the parent's stream) or under the session whose Subagent call names
 * it (in its input, output or `_meta`). Sessions nothing links stay roots, in input order.
 */
export function sessionTree(
  summaries: readonly SessionSummary[],
  items: Iterable<TranscriptItem>,
  calls: { get(key: string): CallSummary | undefined },
): { roots: SessionNode[]; linked: number } {
  const nodes = new Map<string | null, SessionNode>();
  for (const summary of summaries) nodes.set(summary.sessionId, { summary, title: null, finished: false, viaCall: null, children: [] });
  const known = new Set(summaries.flatMap((s) => (s.sessionId === null ? [] : [s.sessionId])));
  const parentOf = new Map<string, string>();
  const link = (parent: string | null, child: string): void => {
    if (parent === null || parent === child || parentOf.has(child) || !nodes.has(child)) return;
    // Never a cycle: the parent must not descend from the child.
    for (let p: string | undefined = parent; p !== undefined; p = parentOf.get(p)) if (p === child) return;
    parentOf.set(child, parent);
  };
  const callsById = new Map<string, CallSummary>();
  const madeBySubagents: CallSummary[] = [];
  // The stream an update came in is the session of the row before it (event rows name none).
  let lastSession: string | null = null;
  for (const item of items) {
    if (item.type === 'event') {
      if (item.name !== 'subagent_update' && item.name !== 'subagent_finished') continue;
      const child = childIdOf(item.raw);
      const node = child === null ? undefined : nodes.get(child);
      if (child === null || !node) continue;
      link(lastSession, child);
      const raw = item.raw as Record<string, unknown>;
      if (typeof raw.title === 'string') node.title = raw.title;
      if (item.name === 'subagent_finished') node.finished = true;
      else if (raw.state && typeof raw.state === 'object' && typeof (raw.state as Record<string, unknown>).stopReason === 'string') node.finished = true;
      continue;
    }
    if (item.type === 'unknown') continue;
    const call = item.type === 'call' ? calls.get(item.callKey) : undefined;
    const session = call ? call.sessionId : item.type === 'call' ? null : item.sessionId;
    if (session !== null) lastSession = session;
    if (call) {
      if (!callsById.has(call.id)) callsById.set(call.id, call);
      if (call.parentId !== undefined) madeBySubagents.push(call);
    }
    if (call?.label !== 'Subagent' || call.sessionId === null) continue;
    // What a Subagent call names is in its input and output: a light read's row has neither.
    if (!isToolCall(call)) continue;
    for (const child of sessionsNamedBy(call, known)) {
      link(call.sessionId, child);
      const node = nodes.get(child);
      if (node && parentOf.get(child) === call.sessionId) node.viaCall ??= { key: call.key, id: call.id };
    }
  }
  // A sub-agent's calls name the call that started it (CONTRACTS §11), light rows too: a sub-agent in a
  // session of its own (Claude Code's sub-agent files) hangs under that call's session.
  for (const call of madeBySubagents) {
    const parent = callsById.get(call.parentId!);
    if (!parent || parent.sessionId === null || call.sessionId === null || parent.sessionId === call.sessionId) continue;
    link(parent.sessionId, call.sessionId);
    const node = nodes.get(call.sessionId);
    if (node && parentOf.get(call.sessionId) === parent.sessionId) node.viaCall ??= { key: parent.key, id: parent.id };
  }
  const roots: SessionNode[] = [];
  for (const [id, node] of nodes) {
    const parent = id === null ? undefined : parentOf.get(id);
    const parentNode = parent === undefined ? undefined : nodes.get(parent);
    if (parentNode) parentNode.children.push(node);
    else roots.push(node);
  }
  return { roots, linked: parentOf.size };
}
