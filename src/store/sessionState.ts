// Where the store's state changes: one value (`SessionState`) and one pure function,
// `reduceSession(state, event) → state`, as TanStack Query's query.ts `#dispatch`. The store
// (createSessionStore.ts) holds the latest value, hands out snapshots of it and tells subscribers;
// nothing else writes the state, and a new source starts again from `initialSessionState`.
//
// Every part is a persistent value (Immutable.js lists and maps, `GrowingIndices`): an event makes
// a new state that shares all but what changed with the old one, so a snapshot React is still
// rendering never sees a later delta, and applying a delta costs time in proportion to the delta,
// not to the session.
import { List, Map as PMap } from 'immutable';
import { displayStatus, statusCountsAtEnd } from '../model/status';
import { isToolCall } from '../model/types';
import type { CallSummary, DisplayStatus, IngestProgress, TerminalState, ToolCall, TranscriptItem, Usage } from '../model';
import { APPENDED_PARTS, DELTA_PARTS, partsOf, type AppendedPart, type DeltaEntry, type DeltaPart, type PartsOf, type SecretFinding, type SessionDelta } from '../model/delta';
import { isRow, NO_SESSION, normalizeFilter, type Filter } from './filter';
import { GrowingIndices } from './indexRange';

/**
 * What a session's usage reports say together: the context window and cost from the latest report
 * that gives them (ACP `usage_update`: both are the session's state, the cost cumulative), and the
 * tokens of every report added up (a native log's reports are one per model response, so their sum
 * is the session's use: CONTRACTS §10).
 */
export interface SessionUsage {
  reports: number;
  context?: { used: number; size?: number };
  cost?: { amount: number; currency: string };
  inputTokens: number;
  outputTokens: number;
}

export type LoadState = 'idle' | 'loading' | 'done' | 'error' | 'cancelled';

// How a delta is applied follows from `DELTA_PARTS` (model/delta.ts): a part is kept as its kind
// says (an append-only list as a `List` of the same name, a replaced value as it is), unless it is
// one of the parts below, which the store applies in its own way (`applyDelta`). A new list or
// value part is then kept, typed and applied with no change here; a part of another kind is a
// compile error (`EVERY_PART_APPLIED`) until it is given its own way.
const APPLIED_BY_STORE = ['items', 'grown', 'calls', 'terminals', 'findings', 'progress', 'contentHash'] as const satisfies readonly DeltaPart[];
type AppliedByStore = (typeof APPLIED_BY_STORE)[number];
const appliedByStore = (part: DeltaPart): part is AppliedByStore => (APPLIED_BY_STORE as readonly DeltaPart[]).includes(part);

/** The append-only lists the store keeps as a delta sends them. */
type KeptList = Exclude<AppendedPart, AppliedByStore>;
/** The values the store keeps as the last delta sent them. */
type KeptValue = Exclude<PartsOf<'replaced'>, AppliedByStore>;
export type KeptLists = { [P in KeptList]: List<DeltaEntry<P>> };
export type KeptValues = { [P in KeptValue]: DeltaEntry<P> };
const KEPT_LISTS = APPENDED_PARTS.filter((part): part is KeptList => !appliedByStore(part));
const KEPT_VALUES = partsOf('replaced').filter((part): part is KeptValue => !appliedByStore(part));
type Unapplied = Exclude<DeltaPart, KeptList | KeptValue | AppliedByStore>;
const EVERY_PART_APPLIED: [Unapplied] extends [never] ? true : Unapplied = true;
void EVERY_PART_APPLIED;

export interface SessionState extends KeptLists, KeptValues {
  load: { state: LoadState; error?: string; progress: IngestProgress };
  items: List<TranscriptItem>;
  /** The items that are rows (all but usage reports), in order: the view when no filter is active. */
  rows: GrowingIndices;
  /** Rows: a light read's are summaries; a full read's, and calls read again when opened, are whole (`isToolCall`). */
  calls: PMap<string, CallSummary>;
  terminals: PMap<string, TerminalState>;
  /**
   * When this viewer first saw each call (ms since the epoch; a live call's clock when the input
   * has no times), as runs: from each call ordinal on, the time of the delta that brought it. A
   * delta's new calls have the ordinals after the last delta's, so one entry a delta (not one a
   * call: per call, a persistent map's writes were a fifth of the store's time on a large file).
   */
  arrivals: List<readonly [fromOrdinal: number, at: number]>;
  /** The input's call id → the viewer's call key (the newest call with that id). */
  idToKey: PMap<string, string>;
  /** Calls by label, and by display status, for the filter's facets. */
  labelCounts: PMap<string, number>;
  statusCounts: Readonly<Record<DisplayStatus, number>>;
  /** Each session's usage as its reports add up, by session id (`NO_SESSION` for none), the one that reported last last. */
  usage: ReadonlyMap<string, SessionUsage>;
  filter: Filter;
  /** The focused row as an item index (as `expanded` holds them): a position in the view would point at another row once a live filter drops rows above it. */
  focus: number | null;
  /** Item indices of rows drawn open. */
  expanded: ReadonlySet<number>;
  /** Calls whose full state could not be read back from the file, with why. */
  detailErrors: ReadonlyMap<string, string>;
  /** Calls found holding `text` where the page cannot look (what a light read left in the file). */
  searchHits: { text: string; keys: ReadonlySet<string> };
  /** Set when the source was read redacted: every secret replaced, and where. */
  redaction: { findings: List<SecretFinding> } | null;
  /** The input's content hash once it has been read whole (notes are kept under it); null before. */
  contentHash: string | null;
  /** The items that are the harness's bookkeeping, in order (the view folds runs of them: store/bookkeepingFold.ts). */
  bookkeeping: GrowingIndices;
  /**
   * Whether any call read was made by a sub-agent: until then the view has no call to fold
   * (store/subagentFold.ts) and does not walk its rows to find out on every redraw while a file
   * is read. Unset only by a reset.
   */
  subagentCallsRead: boolean;
}

/** Everything that changes the store's state. */
export type SessionEvent =
  /** A new source: everything read goes; the filter, the viewer's choice, stays. */
  | { type: 'reset' }
  | { type: 'loadState'; state: LoadState; error?: string }
  /** What the parser read since its last delta; `now` is when it arrived (a live call's clock starts then). */
  | { type: 'delta'; delta: SessionDelta; now: number }
  /** A call read whole again, asked for when its row was `basedOn`: ignored if a delta has changed it since (a delta makes a new row object). */
  | { type: 'callRead'; call: ToolCall; basedOn: CallSummary }
  | { type: 'detailError'; key: string; message: string }
  | { type: 'searchHits'; text: string; keys: readonly string[] }
  | { type: 'filter'; filter: Partial<Filter> }
  | { type: 'focus'; item: number | null }
  | { type: 'expand'; item: number; open: boolean };

const EMPTY_STATUS_COUNTS: Readonly<Record<DisplayStatus, number>> = { pending: 0, running: 0, done: 0, failed: 0, unfinished: 0 };

export function initialSessionState(filter?: Partial<Filter>): SessionState {
  return {
    load: { state: 'idle', progress: DELTA_PARTS.progress.initial },
    items: List(),
    rows: new GrowingIndices(),
    calls: PMap(),
    terminals: PMap(),
    ...initialKeptParts(),
    arrivals: List(),
    idToKey: PMap(),
    labelCounts: PMap(),
    statusCounts: EMPTY_STATUS_COUNTS,
    usage: new Map(),
    filter: normalizeFilter(filter),
    focus: null,
    expanded: new Set(),
    detailErrors: new Map(),
    searchHits: { text: '', keys: new Set() },
    redaction: null,
    contentHash: null,
    bookkeeping: new GrowingIndices(),
    subagentCallsRead: false,
  };
}

/** The state after `event`; the same object when the event changes nothing. */
export function reduceSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'reset':
      return initialSessionState(state.filter);
    case 'loadState':
      return { ...state, load: { state: event.state, progress: state.load.progress, ...(event.error !== undefined ? { error: event.error } : {}) } };
    case 'delta':
      return applyDelta(state, event.delta, event.now);
    case 'callRead': {
      const { call, basedOn } = event;
      if (state.calls.get(call.key) !== basedOn) return state;
      return { ...state, calls: state.calls.set(call.key, call), subagentCallsRead: state.subagentCallsRead || call.parentId !== undefined };
    }
    case 'detailError':
      return { ...state, detailErrors: new Map(state.detailErrors).set(event.key, event.message) };
    case 'searchHits':
      return { ...state, searchHits: { text: event.text, keys: new Set(event.keys) } };
    case 'filter': {
      const filter = normalizeFilter({ ...state.filter, ...event.filter });
      if (JSON.stringify(filter) === JSON.stringify(state.filter)) return state;
      return { ...state, filter, focus: null };
    }
    case 'focus':
      return event.item === state.focus ? state : { ...state, focus: event.item };
    case 'expand': {
      if (state.expanded.has(event.item) === event.open) return state;
      const expanded = new Set(state.expanded);
      if (event.open) expanded.add(event.item);
      else expanded.delete(event.item);
      return { ...state, expanded };
    }
  }
}

/** A full read's patch with the history sent before it put back in front of its own entries. */
const withHistory = (call: ToolCall, history: ToolCall['history']): ToolCall => ({ ...call, history });

/**
 * The state after a delta: every list and value part kept by the table (`keptParts`), and the parts
 * the store applies its own way (`APPLIED_BY_STORE`), each with what follows from it.
 */
function applyDelta(state: SessionState, d: SessionDelta, now: number): SessionState {
  let subagentCallsRead = state.subagentCallsRead;
  for (const { call } of d.calls) if (call.parentId !== undefined) subagentCallsRead = true;
  return {
    ...state,
    ...keptParts(state, d),
    // `grown` and `items`: the rows, and the usage the items report.
    ...applyItems(state, d),
    // `calls`: the facets' counts, when each call arrived, which call an id names.
    ...applyCalls(state, d, now),
    terminals: applyTerminals(state.terminals, d),
    redaction: applyFindings(state.redaction, d),
    load: { ...state.load, progress: d.progress },
    contentHash: d.contentHash !== undefined ? d.contentHash : state.contentHash,
    subagentCallsRead,
  };
}

function applyItems(state: SessionState, d: SessionDelta): Pick<SessionState, 'items' | 'rows' | 'bookkeeping' | 'usage'> {
  const rowsAdded: number[] = [];
  const bookkeepingAdded: number[] = [];
  let reported: Map<string, SessionUsage> | null = null;
  const items = state.items.withMutations((list) => {
    const grown = d.grown;
    const before = grown ? list.get(grown.index) : undefined;
    if (grown && before?.type === 'message') {
      // A new object: the state holding the old one keeps it as it was.
      list.set(grown.index, {
        ...before,
        text: before.text.slice(0, grown.textFrom) + grown.text,
        blocks: grown.blocks.length > 0 || before.blocks.length !== grown.blocksFrom ? before.blocks.slice(0, grown.blocksFrom).concat(grown.blocks) : before.blocks,
      });
    }
    // The last item may have been replaced (a message that grew, a native log's usage report
    // superseded by a later entry of its message); everything before it stays.
    for (let i = d.itemsFrom; i < list.size; i++) {
      const old = list.get(i);
      if (old?.type === 'usage') addUsage((reported ??= new Map(state.usage)), old.sessionId, old.usage, -1);
    }
    if (list.size !== d.itemsFrom) list.setSize(d.itemsFrom);
    for (const it of d.items) {
      if (it.type === 'event' && it.bookkeeping === true) bookkeepingAdded.push(list.size);
      if (isRow(it)) rowsAdded.push(list.size);
      else if (it.type === 'usage') addUsage((reported ??= new Map(state.usage)), it.sessionId, it.usage, 1);
      list.push(it);
    }
  });
  return { items, rows: state.rows.withRows(d.itemsFrom, rowsAdded), bookkeeping: state.bookkeeping.withRows(d.itemsFrom, bookkeepingAdded), usage: reported ?? state.usage };
}

function applyCalls(state: SessionState, d: SessionDelta, now: number): Pick<SessionState, 'calls' | 'arrivals' | 'idToKey' | 'labelCounts' | 'statusCounts'> {
  const { idToKey, labelCounts } = state;
  let { calls, arrivals, statusCounts } = state;
  if (d.ended !== state.ended) {
    // Not recounted when the input ends: that walked every call in one task as the last rows of a large file came in.
    statusCounts = d.ended ? statusCountsAtEnd(statusCounts) : recountStatuses(calls, d.ended);
  }
  if (d.calls.length === 0) return { calls, arrivals, idToKey, labelCounts, statusCounts };
  const byStatus = { ...statusCounts };
  const mutableLabels = labelCounts.asMutable();
  let firstNew = Infinity;
  const mutableIds = idToKey.asMutable();
  calls = calls.withMutations((map) => {
    for (const { call: patch, historyFrom } of d.calls) {
      const old = map.get(patch.key);
      const call: CallSummary =
        historyFrom > 0 && old && isToolCall(old) && isToolCall(patch) ? withHistory(patch, old.history.slice(0, historyFrom).concat(patch.history)) : patch;
      if (old) {
        if (old.label !== call.label) {
          countLabel(mutableLabels, old.label, -1);
          countLabel(mutableLabels, call.label, 1);
        }
        byStatus[displayStatus(old, d.ended)]--;
      } else {
        countLabel(mutableLabels, call.label, 1);
        firstNew = Math.min(firstNew, call.ordinal);
        // A new call takes its id (an id can come back: later updates go to the newest call, CONTRACTS §4).
        mutableIds.set(call.id, call.key);
      }
      byStatus[displayStatus(call, d.ended)]++;
      map.set(call.key, call);
    }
  });
  if (firstNew !== Infinity) arrivals = arrivals.push([firstNew, now]);
  return { calls, arrivals, idToKey: mutableIds.asImmutable(), labelCounts: mutableLabels.asImmutable(), statusCounts: byStatus };
}

/** Each terminal sent replaces the one with its id. */
function applyTerminals(terminals: SessionState['terminals'], d: SessionDelta): SessionState['terminals'] {
  if (d.terminals.length === 0) return terminals;
  return terminals.withMutations((map) => {
    for (const t of d.terminals) map.set(t.terminalId, t);
  });
}

/** A redacted read's findings, appended; the same object when the delta sends none. */
function applyFindings(redaction: SessionState['redaction'], d: SessionDelta): SessionState['redaction'] {
  if (!d.findings) return redaction;
  const findings = redaction?.findings ?? List<SecretFinding>();
  const next = appendFrom(findings, d.findingsFrom ?? findings.size, d.findings);
  return !redaction || next !== findings ? { findings: next } : redaction;
}

/** When the viewer first saw `call` (see `SessionState.arrivals`). */
export function arrivalOf(arrivals: SessionState['arrivals'], call: Pick<CallSummary, 'ordinal'>): number | undefined {
  let lo = 0;
  let hi = arrivals.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((arrivals.get(mid)?.[0] ?? Infinity) <= call.ordinal) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : arrivals.get(lo - 1)?.[1];
}

function countLabel(labels: PMap<string, number>, label: string, sign: 1 | -1): void {
  const n = labels.get(label, 0) + sign;
  if (n === 0) labels.delete(label);
  else labels.set(label, n);
}

function recountStatuses(calls: PMap<string, CallSummary>, ended: boolean): Record<DisplayStatus, number> {
  const counts = { ...EMPTY_STATUS_COUNTS };
  for (const c of calls.values()) counts[displayStatus(c, ended)]++;
  return counts;
}

type KeptParts = KeptLists & KeptValues;

// Built part by part from the table: TypeScript cannot follow a loop's key to its value's type, so
// each part's value is typed by the part (`KeptParts`) where it is made, and the whole once built.
function initialKeptParts(): KeptParts {
  const initial: Partial<Record<keyof KeptParts, unknown>> = {};
  for (const part of KEPT_LISTS) initial[part] = List();
  for (const part of KEPT_VALUES) initial[part] = DELTA_PARTS[part].initial;
  return initial as KeptParts;
}

/** Every list kept with the delta's entries appended, every value kept as the delta sends it. */
function keptParts(state: KeptParts, d: SessionDelta): KeptParts {
  const next: Partial<Record<keyof KeptParts, unknown>> = {};
  for (const part of KEPT_LISTS) next[part] = appendFrom<unknown>(state[part], d[`${part}From`], d[part]);
  for (const part of KEPT_VALUES) next[part] = d[part];
  return next as KeptParts;
}

/** `list` with everything from `from` on replaced by `added` (a no-op, and the same list, when nothing was added). */
function appendFrom<T>(list: List<T>, from: number, added: readonly T[]): List<T> {
  if (added.length === 0) return list;
  return list.withMutations((l) => {
    if (l.size !== from) l.setSize(from);
    for (const x of added) l.push(x);
  });
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Adds a usage report to its session's summary (`sign` -1 takes back one that was replaced); the session moves last. */
function addUsage(into: Map<string, SessionUsage>, sessionId: string | null, u: Usage, sign: 1 | -1): void {
  const key = sessionId ?? NO_SESSION;
  const was = into.get(key);
  const next: SessionUsage = {
    ...(was ?? { reports: 0, inputTokens: 0, outputTokens: 0 }),
    reports: (was?.reports ?? 0) + sign,
    inputTokens: (was?.inputTokens ?? 0) + sign * (finite(u.inputTokens) ? u.inputTokens : 0),
    outputTokens: (was?.outputTokens ?? 0) + sign * (finite(u.outputTokens) ? u.outputTokens : 0),
  };
  if (sign === 1 && finite(u.used)) next.context = finite(u.size) ? { used: u.used, size: u.size } : { used: u.used };
  if (sign === 1 && u.cost && finite(u.cost.amount) && typeof u.cost.currency === 'string') next.cost = { amount: u.cost.amount, currency: u.cost.currency };
  into.delete(key);
  if (next.reports > 0) into.set(key, next);
}
