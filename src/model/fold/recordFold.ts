// Records → session: each record counted, the format noted, and the record handed to the reducer of
// its kind (an exhaustive switch: a new kind is a compile error here). ACP session updates are
// folded here; requests and responses in rpcJoins.ts, ledger lines in ledgerFold.ts, agents' own
// logs in nativeFold.ts.
import type { ByteRange } from '../../ingest/reader';
import type { IngestRecord, RecordBody, Shape } from '../../ingest/records';
import { isJsonObject } from '../../ingest/schemas';
import type { InputFormat } from '../types';
import { withInputEnd } from '../merge';
import { hasEnded } from '../status';
import { readUsage } from '../usage';
import { summarizeOther } from './eventText';
import type { FoldState } from './foldState';
import { foldLedger } from './ledgerFold';
import { foldNative } from './nativeFold';
import { foldRequest, foldResponse } from './rpcJoins';

const EXCERPT_CHARS = 200;

export function foldRecord(state: FoldState, record: IngestRecord, bytes: ByteRange | null): void {
  const session = state.session;
  const body = record.body;
  if (body.kind === 'unknown') {
    session.counts.unknown++;
    // Lines were read but none had a known shape: say so, not that the input was empty.
    if (state.shapes.size === 0) session.format = 'unknown';
    state.transcript.add({ type: 'unknown', loc: record.loc, reason: body.reason, raw: body.value });
    return;
  }
  session.counts.events++;
  if (record.shape && !state.shapes.has(record.shape)) {
    state.shapes.add(record.shape);
    session.format = formatOf(state.shapes);
  }
  if (record.ts !== undefined && record.ts > (state.lastTs ?? -Infinity) && Number.isFinite(record.ts)) state.lastTs = record.ts;
  foldEvent(state, record, body, bytes);
}

/** The input ended: every unfinished call now displays differently, and says how long the input went on after it started. */
export function endInput(state: FoldState): void {
  state.session.ended = true;
  const { lastTs, changes } = state;
  for (const [key, call] of state.session.calls) {
    if (!hasEnded(call)) {
      if (call.startMs !== undefined && lastTs !== undefined) withInputEnd(call, lastTs, true);
      changes.callChanged(key);
    }
  }
}

/** A line that is no record: counted, and kept (an excerpt) in the diagnostics. */
export function foldBad(state: FoldState, line: number, offset: number, reason: string, text: string): void {
  const session = state.session;
  session.counts.bad++;
  if (state.shapes.size === 0) session.format = 'unknown';
  session.diagnostics.bad.push({ line, offset, reason: ownString(reason), excerpt: ownString(excerpt(text)) });
}

function foldEvent(state: FoldState, record: IngestRecord, body: Exclude<RecordBody, { kind: 'unknown' }>, bytes: ByteRange | null): void {
  switch (body.kind) {
    case 'update':
      return foldUpdate(state, record, body);
    case 'request':
      return foldRequest(state, record, body);
    case 'notification':
      return state.transcript.add({ type: 'event', loc: record.loc, name: body.method, raw: body.params });
    case 'response':
      return foldResponse(state, record, body);
    case 'ledger':
      return foldLedger(state, record, body, bytes);
    case 'stderr':
      return state.transcript.add({ type: 'event', loc: record.loc, name: 'stderr', summary: body.text, raw: body.text });
    case 'native':
      return foldNative(state, record, body);
    case 'frame':
      state.warn(record.loc.line, `${record.dir ?? 'a'} frame that is not JSON`);
      return state.transcript.add({ type: 'event', loc: record.loc, name: 'frame (not JSON)', summary: body.text, raw: body.text });
    default: {
      const exhaustive: never = body;
      return exhaustive;
    }
  }
}

/** An ACP `session/update`. */
function foldUpdate(state: FoldState, record: IngestRecord, body: Extract<RecordBody, { kind: 'update' }>): void {
  const update = body.update;
  const sessionId = state.ids.canonical(body.sessionId);
  state.ids.note(sessionId);
  const loc = record.loc;
  const transcript = state.transcript;
  switch (update.type) {
    case 'chunk': {
      const role = update.tag === 'user_message_chunk' ? 'user' : update.tag === 'agent_message_chunk' ? 'agent' : 'thought';
      return transcript.appendChunk(sessionId, role, update.content, update.messageId, loc, record.ts);
    }
    case 'tool':
      // The tag as a literal: the parsed one is a string of its own on every line, and each call's
      // history keeps it (29,000 strings in a 40 MB session read light).
      state.calls.toolUpdate(sessionId, update, record, update.tag === 'tool_call' ? 'tool_call' : 'tool_call_update');
      return;
    case 'plan':
      return transcript.add({ type: 'plan', loc, sessionId, entries: update.entries });
    case 'mode':
      return transcript.add({ type: 'mode', loc, sessionId, modeId: update.modeId });
    case 'usage':
      return transcript.add({ type: 'usage', loc, sessionId, usage: { used: update.used, size: update.size, cost: update.cost } });
    case 'notice':
      return transcript.add({ type: 'notice', loc, sessionId, title: update.title, detail: update.description, severity: update.severity });
    case 'turn_completed':
      transcript.turnEnded(sessionId);
      return transcript.add({
        type: 'turn_end', loc, sessionId, stopReason: update.stopReason ?? 'unknown', usage: readUsage(update.usage),
        elapsedMs: update.elapsedMs, ts: record.ts,
      });
    case 'other': {
      const child = update.tag === 'subagent_update' || update.tag === 'subagent_spawned' ? spawnedSession(update.raw) : undefined;
      if (child) state.calls.linkSubagent(state.ids.canonical(child.sessionId), child.parentId);
      return transcript.add({ type: 'event', loc, name: update.tag, summary: summarizeOther(update.raw), raw: update.raw, sessionId });
    }
    default: {
      const exhaustive: never = update;
      return exhaustive;
    }
  }
}

/**
 * The child session an ACP sub-agent update announces and the call that spawned it, where it names
 * one (`toolCallId`, `parentToolCallId`, or `_meta.claudeCode.parentToolUseId`).
 */
function spawnedSession(raw: Record<string, unknown>): { sessionId: string; parentId: string } | undefined {
  const sessionId = raw.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '') return undefined;
  const meta = isJsonObject(raw._meta) && isJsonObject(raw._meta.claudeCode) ? raw._meta.claudeCode : undefined;
  for (const parentId of [raw.toolCallId, raw.parentToolCallId, raw.parentToolUseId, meta?.parentToolUseId]) {
    if (typeof parentId === 'string' && parentId !== '') return { sessionId, parentId };
  }
  return undefined;
}

function formatOf(shapes: ReadonlySet<Shape>): InputFormat {
  if (shapes.size === 0) return 'unknown';
  if (shapes.size > 1) return 'mixed';
  return [...shapes][0]!;
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text;
}

/**
 * The same characters in a string of their own. A line's text is a slice of its whole chunk's
 * text, and so are a slice of it and a JSON.parse error message quoting it: kept in the
 * diagnostics, either would keep that megabyte alive (with a bad line in every chunk, the whole
 * input). A string read back from its JSON is a fresh copy.
 */
function ownString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
