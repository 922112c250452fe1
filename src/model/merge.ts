// The call merge as pure functions: `(call, update) → call`. Each returns a new call when the
// update changed something and the same call otherwise; what did not change (arrays, `meta`, the
// envelope, ledger data) is shared with the input by reference, and nothing reachable from the
// input is written. So a call handed out once (a delta, a snapshot) never changes afterwards, and
// comparing two versions by reference says whether anything changed.
//
// One opt-out, for speed: a caller that alone holds a call (nobody was handed it yet) can say so
// (`owned`), and the update is then written into that call instead of a copy, as a transient
// collection would. The builder does this between two takes, so a call is copied at most once per
// take and a reader that never takes (the CLI) copies nothing.
import type { Direction } from '../ingest/acpTypes';
import type { LedgerBody, LedgerToolCalled, ToolUpdate } from '../ingest/records';
import { isJsonObject } from '../ingest/schemas';
import { exitCodeInOutput } from './inputs';
import { COMMAND_LABEL, KIND_LABELS, labelOf } from './labels';
import { subjectOfCall } from './subject';
import { hasEnded } from './status';
import type { CallHistoryEntry, CallStatus, LedgerCallData, PermissionOutcome, PermissionRequest, SourceLocation, ToolCall } from './types';

/** Appends one entry to a call's history, giving the history the merged call keeps. */
export type AppendHistory = (history: readonly CallHistoryEntry[], entry: CallHistoryEntry) => CallHistoryEntry[];

/**
 * A new array of exactly the right length: a history is never shared with a call that has more or
 * fewer entries. The builder passes its own appender (O(1) on arrays nobody was handed yet).
 */
export const appendHistoryCopy: AppendHistory = (history, entry) => {
  // Array literals and a copy loop, not `concat` (its generic path checks each argument for
  // spreading): measured 14 times faster on the short histories most calls have.
  switch (history.length) {
    case 0:
      return [entry];
    case 1:
      return [history[0]!, entry];
    case 2:
      return [history[0]!, history[1]!, entry];
    case 3:
      return [history[0]!, history[1]!, history[2]!, entry];
    default: {
      const length = history.length;
      const next = new Array<CallHistoryEntry>(length + 1);
      for (let index = 0; index < length; index++) next[index] = history[index]!;
      next[length] = entry;
      return next;
    }
  }
};

/**
 * Keeps no history: a read for rows alone (`loupe index`), which never shows a call's updates.
 * `mergeToolUpdate` (an update of every tool line) then builds no entry either.
 */
export const NO_HISTORY: AppendHistory = (history) => history as CallHistoryEntry[];

export interface MergeContext {
  /** `light`: tool output content, raw output and ledger results stay in the source (`hydrateCall`). */
  detail: 'full' | 'light';
  loc: SourceLocation;
  ts?: number | undefined;
  dir?: Direction | undefined;
  appendHistory?: AppendHistory;
  /** The caller alone holds the call: update it in place (see above). */
  owned?: boolean;
}

/** A call with no update merged yet: every field present, so all calls share one hidden class. */
export function newCall(key: string, id: string, sessionId: string | null, ordinal: number, firstLine: number, detail: 'full' | 'light', namedById: boolean): ToolCall {
  const call: ToolCall = {
    key, id, sessionId, ordinal, firstLine,
    title: undefined, kind: undefined, status: undefined, name: undefined, rawInput: undefined, rawInputKeyOrder: undefined,
    rawOutput: undefined, content: undefined, locations: undefined, meta: EMPTY_META, tool: undefined, invalidEnvelopes: 0,
    ledger: undefined, label: 'Tool', subject: null, startMs: undefined, endMs: undefined, durationMs: undefined,
    permission: undefined, history: EMPTY_HISTORY, detail, contentBlocks: undefined, terminalIds: undefined,
    dir: undefined, inputEndMs: undefined, exitCode: undefined, parentId: undefined,
  };
  // The id alone can name the tool (CONTRACTS §5 rule 3), before any update says more.
  if (namedById) call.label = labelOf(call);
  return call;
}

/**
 * CONTRACTS §4: one ACP `tool_call`, `tool_call_update` or permission request's `toolCall` merged
 * into `call`: last write wins per field; absent, null and placeholder values keep the earlier one.
 */
export function mergeToolUpdate(call: ToolCall, update: ToolUpdate, source: 'tool_call' | 'tool_call_update' | 'permission', context: MergeContext): ToolCall {
  const fields = update.fields;
  const next = context.owned === true ? call : copyCall(call);
  next.dir ??= context.dir;
  let set = 0;
  if (fields.title) {
    next.title = fields.title;
    set |= F_TITLE;
  }
  if (fields.kind !== undefined) {
    next.kind = KNOWN_KINDS.get(fields.kind) ?? fields.kind;
    set |= F_KIND;
  }
  if (fields.status !== undefined) {
    next.status = KNOWN_STATUSES.get(fields.status) ?? fields.status;
    set |= F_STATUS;
  }
  if (fields.name !== undefined) {
    next.name = fields.name;
    set |= F_NAME;
  }
  if (fields.rawInput !== undefined && fields.rawInput !== null && !isEmptyObject(fields.rawInput)) {
    next.rawInput = fields.rawInput;
    next.rawInputKeyOrder = update.rawInputKeyOrder;
    set |= F_RAW_INPUT;
  }
  const full = context.detail === 'full';
  if (fields.rawOutput !== undefined && fields.rawOutput !== null) {
    if (full) next.rawOutput = fields.rawOutput;
    set |= F_RAW_OUTPUT;
  }
  if (fields.content) {
    if (full) next.content = fields.content;
    else next.contentBlocks = fields.content.length;
    for (const block of fields.content) {
      // Kept even when light: the terminal's output lives in `session.terminals`, not in the content.
      if (block.type === 'terminal' && !next.terminalIds?.includes(block.terminalId)) next.terminalIds = [...(next.terminalIds ?? []), block.terminalId];
    }
    set |= F_CONTENT;
  }
  if (fields.locations) {
    next.locations = fields.locations;
    set |= F_LOCATIONS;
  }
  if (fields._meta) {
    next.meta = withMeta(call.meta, fields._meta);
    set |= F_META;
  }
  let invalidEnvelope: string | undefined;
  const envelope = update.envelope;
  if (envelope.state === 'valid') {
    // Per field (CONTRACTS §3): an `input` given once survives a later envelope without one.
    const read = envelope.envelope;
    const before = call.tool;
    next.tool = {
      version: 1,
      label: read.label,
      name: read.name,
      kind: read.kind ?? before?.kind,
      namespace: read.namespace ?? before?.namespace,
      read_only: read.read_only ?? before?.read_only,
      input: read.input ?? before?.input,
      inputKeyOrder: read.input !== undefined ? envelope.inputKeyOrder : before?.inputKeyOrder,
    };
    set |= F_TOOL;
  } else if (envelope.state === 'invalid') {
    next.invalidEnvelopes++;
    invalidEnvelope = envelope.reason;
  }
  const ts = context.ts;
  if (ts !== undefined) {
    next.startMs ??= ts;
    if (hasEnded(fields)) next.endMs = ts;
    if (next.endMs !== undefined) next.durationMs = Math.max(0, next.endMs - next.startMs);
  }
  // Only the keys that have a value: an `undefined` one still takes a slot in each of a light
  // read's tens of thousands of entries (most inputs have no times, most envelopes are valid).
  if (context.appendHistory !== NO_HISTORY) {
    const entry = historyEntry(context.loc, source, fieldList(set), ts);
    if (invalidEnvelope !== undefined) entry.invalidEnvelope = invalidEnvelope;
    next.history = (context.appendHistory ?? appendHistoryCopy)(call.history, entry);
  }
  // Derived fields are read again only when an update set what they are derived from: most
  // updates set a status, content or output, which change neither.
  if (set & LABEL_INPUTS) next.label = labelOf(next);
  if (set & SUBJECT_INPUTS) next.subject = subjectOfCall(next);
  if (set & F_RAW_OUTPUT) {
    // Read here, light or full: a light call keeps its exit code, not its output (CONTRACTS §11).
    const exitCode = exitCodeInOutput(fields.rawOutput, next.label === COMMAND_LABEL);
    if (exitCode !== undefined) next.exitCode = exitCode;
  }
  if (set & F_META) {
    const parent = parentToolUseId(fields._meta);
    if (parent !== undefined) next.parentId = parent;
  }
  return next;
}

/** `_meta.claudeCode.parentToolUseId`: claude-agent-acp names the Task call a sub-agent's call belongs to (CONTRACTS §11). */
function parentToolUseId(meta: Record<string, unknown> | undefined): string | undefined {
  const claudeCode = meta?.claudeCode;
  if (!isJsonObject(claudeCode)) return undefined;
  const parent = claudeCode.parentToolUseId;
  return typeof parent === 'string' && parent !== '' ? parent : undefined;
}

/** The call's exit code, as an update of its own said it (Codex's `exec_command_end`). `owned`: see `MergeContext`. */
export function withExitCode(call: ToolCall, exitCode: number | null, owned = false): ToolCall {
  if (call.exitCode === exitCode) return call;
  const next = owned ? call : copyCall(call);
  next.exitCode = exitCode;
  return next;
}

/** The call as made by the sub-agent the call `parentId` started. `owned`: see `MergeContext`. */
export function withParent(call: ToolCall, parentId: string, owned = false): ToolCall {
  if (call.parentId === parentId) return call;
  const next = owned ? call : copyCall(call);
  next.parentId = parentId;
  return next;
}

/** A ledger `tool_called` (CONTRACTS §4, §6): what the call was asked to do. */
export function mergeLedgerCalled(call: ToolCall, data: LedgerToolCalled, context: MergeContext): ToolCall {
  const next = context.owned === true ? call : copyCall(call);
  next.ledger = ledgerWithCall(call.ledger, data);
  next.status ??= 'pending';
  next.history = (context.appendHistory ?? appendHistoryCopy)(call.history, historyEntry(context.loc, 'tool_called', data.subject !== undefined ? CALLED_FIELDS_SUBJECT : CALLED_FIELDS, undefined));
  next.label = labelOf(next);
  next.subject = subjectOfCall(next);
  return next;
}

/** A ledger `tool_result`: what the call returned (its result only when read full) and how long it took. */
export function mergeLedgerResult(call: ToolCall, result: Extract<LedgerBody, { type: 'tool_result' }>, context: MergeContext): ToolCall {
  const next = context.owned === true ? call : copyCall(call);
  next.ledger = ledgerWithResult(call.ledger, result.name, context.detail === 'full' ? result.result : undefined, result.error, result.tookUs);
  next.status = result.hasError ? 'failed' : 'completed';
  const exitCode = exitCodeInOutput(result.result, false) ?? exitCodeInOutput(result.error, false);
  if (exitCode !== undefined) next.exitCode = exitCode;
  if (result.tookUs !== undefined) next.durationMs = result.tookUs / 1000;
  next.history = (context.appendHistory ?? appendHistoryCopy)(call.history, historyEntry(context.loc, 'tool_result', result.hasError ? ERROR_FIELDS : RESULT_FIELDS, undefined));
  next.label = labelOf(next);
  next.subject = subjectOfCall(next);
  return next;
}

/** The permission request that asked about this call (its outcome comes with the response). `owned`: see `MergeContext`. */
export function withPermission(call: ToolCall, permission: PermissionRequest, owned = false): ToolCall {
  if (call.permission === permission) return call;
  const next = owned ? call : copyCall(call);
  next.permission = permission;
  return next;
}

/** The answer to the call's permission request; the same call when it has no request. `owned`: see `MergeContext`. */
export function withPermissionOutcome(call: ToolCall, outcome: PermissionOutcome, owned = false): ToolCall {
  const permission = call.permission;
  if (!permission) return call;
  const ended = hasEnded(call);
  const next = owned ? call : copyCall(call);
  const selected = outcome.outcome === 'selected' ? permission.options.find((o) => o.optionId === outcome.optionId) : undefined;
  next.permission = outcome.outcome === 'selected'
    ? { ...permission, outcome: { outcome: 'selected', optionId: outcome.optionId, optionName: selected?.name } }
    : { ...permission, outcome: { outcome: 'cancelled' } };
  // A call refused at its permission request never ran: failed, unless a later update says
  // otherwise (CONTRACTS §7; codex-acp sends nothing more for a refused call).
  if (selected && REJECT_KINDS.has(selected.kind) && !ended) next.status = 'failed';
  return next;
}

/** The call with another history (a take hands out the entries not taken before). */
export function withHistory(call: ToolCall, history: readonly CallHistoryEntry[]): ToolCall {
  const next = copyCall(call);
  next.history = history;
  return next;
}

/** For a call the input left open: the last time the input gave (how long it went on without a completion). `owned`: see `MergeContext`. */
export function withInputEnd(call: ToolCall, inputEndMs: number, owned = false): ToolCall {
  if (call.inputEndMs === inputEndMs) return call;
  const next = owned ? call : copyCall(call);
  next.inputEndMs = inputEndMs;
  return next;
}

// ---------------------------------------------------------------------------------------------

/**
 * ACP's kinds and statuses as one string each: a parsed one is a string of its own on every line,
 * and a call keeps the last (a light read of a 40 MB session kept 15,000 of each).
 */
const KNOWN_KINDS: ReadonlyMap<string, string> = new Map(Object.keys(KIND_LABELS).map((kind) => [kind, kind]));
const KNOWN_STATUSES: ReadonlyMap<string, CallStatus> = new Map((['pending', 'in_progress', 'completed', 'failed'] as const).map((status) => [status, status]));

/**
 * A history entry at `loc`: the entry is its own place (no location object beside it), and has a
 * `ts` slot only where there is a time (Node runs without pointer compression: every slot is 8 bytes).
 */
function historyEntry(loc: SourceLocation, source: CallHistoryEntry['source'], fields: readonly string[], ts: number | undefined): CallHistoryEntry {
  return ts === undefined
    ? { line: loc.line, offset: loc.offset, length: loc.length, source, fields }
    : { line: loc.line, offset: loc.offset, length: loc.length, ts, source, fields };
}

const EMPTY_META: Record<string, unknown> = Object.freeze({});
const EMPTY_HISTORY: readonly CallHistoryEntry[] = Object.freeze([]);

/**
 * A shallow copy with every field in one order (an object literal, not a spread: V8 copies an
 * existing object through a slow path, and a literal keeps one hidden class for every call).
 */
const REJECT_KINDS: ReadonlySet<string> = new Set(['reject_once', 'reject_always']);

function copyCall(c: ToolCall): ToolCall {
  return {
    key: c.key, id: c.id, sessionId: c.sessionId, ordinal: c.ordinal, firstLine: c.firstLine,
    title: c.title, kind: c.kind, status: c.status, name: c.name, rawInput: c.rawInput, rawInputKeyOrder: c.rawInputKeyOrder,
    rawOutput: c.rawOutput, content: c.content, locations: c.locations, meta: c.meta, tool: c.tool, invalidEnvelopes: c.invalidEnvelopes,
    ledger: c.ledger, label: c.label, subject: c.subject, startMs: c.startMs, endMs: c.endMs, durationMs: c.durationMs,
    permission: c.permission, history: c.history, detail: c.detail, contentBlocks: c.contentBlocks, terminalIds: c.terminalIds,
    dir: c.dir, inputEndMs: c.inputEndMs, exitCode: c.exitCode, parentId: c.parentId,
  };
}

/** `meta` with an update's `_meta` written over it (its `x.ai/tool` is read as the envelope instead). */
function withMeta(before: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  // Most `_meta` holds only the envelope: the call keeps the object it had (no copy per update).
  let adds = false;
  for (const key in meta) {
    if (key !== 'x.ai/tool') {
      adds = true;
      break;
    }
  }
  if (!adds) return before;
  const next: Record<string, unknown> = {};
  for (const key of Object.keys(before)) setOwn(next, key, before[key]);
  for (const key of Object.keys(meta)) {
    if (key !== 'x.ai/tool') setOwn(next, key, meta[key]);
  }
  return next;
}

/**
 * `target[key] = value`, except that a `__proto__` key (JSON.parse makes it an own property) stays
 * a property instead of replacing the object's prototype.
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function isEmptyObject(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

// A call's ledger data is replaced, never changed in place (a copy taken earlier keeps its view).
// These build what `{ ...before, ...fields }` would, with the same keys in the same order, without
// the object spread. A call has one of four key layouts: its `tool_called` fields (A), its
// `tool_result` fields (B), A then B (C), or B then A (D, a result that came first).

const RESULT_KEYS_FIRST = (data: LedgerCallData) => {
  let index = 0;
  for (const key in data) {
    if (index++ === 1) return key === 'result';
  }
  return false;
};

function ledgerWithCall(before: LedgerCallData | undefined, data: LedgerToolCalled): LedgerCallData {
  const { name, args, argsKeyOrder, subject, effect, render } = data;
  if (before === undefined || !('result' in before)) return { name, args, argsKeyOrder, subject, effect, render };
  const { result, error, tookUs } = before;
  if ('args' in before && !RESULT_KEYS_FIRST(before)) return { name, args, argsKeyOrder, subject, effect, render, result, error, tookUs };
  return { name, result, error, tookUs, args, argsKeyOrder, subject, effect, render };
}

function ledgerWithResult(before: LedgerCallData | undefined, newName: string | undefined, result: unknown, error: unknown, tookUs: number | undefined): LedgerCallData {
  const name = before?.name ?? newName;
  if (before === undefined || !('args' in before)) return { name, result, error, tookUs };
  const { args, argsKeyOrder, subject, effect, render } = before;
  if ('result' in before && RESULT_KEYS_FIRST(before)) return { name, result, error, tookUs, args, argsKeyOrder, subject, effect, render };
  return { name, args, argsKeyOrder, subject, effect, render, result, error, tookUs };
}

// The fields an update set, as a bit set; each combination's list is built once and shared (frozen).
const UPDATE_FIELDS = ['title', 'kind', 'status', 'name', 'rawInput', 'rawOutput', 'content', 'locations', '_meta', 'x.ai/tool'] as const;
const [F_TITLE, F_KIND, F_STATUS, F_NAME, F_RAW_INPUT, F_RAW_OUTPUT, F_CONTENT, F_LOCATIONS, F_META, F_TOOL] = UPDATE_FIELDS.map((_, bit) => 1 << bit) as [
  number, number, number, number, number, number, number, number, number, number,
];
const fieldLists: (readonly string[] | undefined)[] = [];
/** What `labelOf` reads of an ACP call (its envelope, `_meta.claudeCode`, `name`, `kind`) and what `subjectOfCall` reads. */
const LABEL_INPUTS = F_TOOL | F_META | F_NAME | F_KIND;
const SUBJECT_INPUTS = F_TOOL | F_RAW_INPUT | F_LOCATIONS;

function fieldList(set: number): readonly string[] {
  let list = fieldLists[set];
  if (!list) {
    list = UPDATE_FIELDS.filter((_, bit) => set & (1 << bit));
    Object.freeze(list);
    fieldLists[set] = list;
  }
  return list;
}

const CALLED_FIELDS: readonly string[] = Object.freeze(['name', 'args']);
const CALLED_FIELDS_SUBJECT: readonly string[] = Object.freeze(['name', 'args', 'subject']);
const RESULT_FIELDS: readonly string[] = Object.freeze(['status', 'result']);
const ERROR_FIELDS: readonly string[] = Object.freeze(['status', 'error']);
