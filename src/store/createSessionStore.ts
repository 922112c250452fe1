// One store per viewer instance: the session read so far, the load state, the filter and the
// selection. Framework-free (subscribe / getSnapshot) so React reads it with useSyncExternalStore
// and tests drive it directly.
//
// The state is one value, changed only by `reduceSession` (sessionState.ts): each method here is
// an event dispatched to it. The store adds what is worked out from the state (the rows the filter
// keeps, the facets, the cursor's position), snapshots, and when to tell subscribers.
import type { List, Map as PMap } from 'immutable';
import type { BadLine, CallSummary, ChainState, Counts, IngestProgress, InputFormat, TerminalState, ToolCall, TranscriptItem } from '../model';
import type { SecretFinding, SessionDelta } from '../worker/protocol';
import { createRowFilter, EMPTY_FILTER, facetsFrom, isFilterActive, type Facets, type Filter } from './filter';
import { foldSubagentCalls, type FoldedRows } from './subagentFold';
import { foldBookkeeping, type BookkeepingRows } from './bookkeepingFold';
import { runOf } from './indexRange';
import { arrivalOf, initialSessionState, reduceSession, type LoadState, type SessionEvent, type SessionState, type SessionUsage } from './sessionState';

export type { LoadState, SecretFinding, SessionUsage };

export interface SessionSnapshot {
  /** Bumped on every change; cheap to compare. */
  version: number;
  load: { state: LoadState; error?: string; progress: IngestProgress };
  items: List<TranscriptItem>;
  /** Rows: a light read's are summaries; a full read's, and calls read again when opened, are whole (`isToolCall`). */
  calls: PMap<string, CallSummary>;
  terminals: PMap<string, TerminalState>;
  counts: Counts;
  format: InputFormat;
  chain: ChainState | null;
  bad: List<BadLine>;
  warnings: List<{ line: number; message: string }>;
  sessionIds: List<string>;
  ended: boolean;
  /** When this viewer first saw a call (ms since the epoch): a live call's clock when the input has no times. */
  arrivedAt: (call: CallSummary) => number | undefined;
  filter: Filter;
  /**
   * Item indices shown under the filter, in order; every row when no filter is active. Usage
   * reports (`usage` items, ACP `usage_update`) are not rows: `usage` holds them for the header's
   * meter, and the Usage view reads them from `items`.
   */
  shownRows: readonly number[];
  /**
   * The calls each sub-agent made, by the id of the call that started it (CONTRACTS §11): with no
   * filter on they are folded under that call's row, not rows of their own (subagentFold.ts).
   */
  subagentCalls: ReadonlyMap<string, readonly CallSummary[]>;
  /**
   * Runs of the harness's bookkeeping events (bookkeepingFold.ts), by the item index of the row that
   * stands for each run: with no filter on, a run is that one row.
   */
  bookkeeping: ReadonlyMap<number, readonly number[]>;
  /** Each session's usage as its reports add up (`SessionUsage`), by session id (`NO_SESSION` for none), the one that reported last last. */
  usage: ReadonlyMap<string, SessionUsage>;
  facets: Facets;
  /** Position in `shownRows` of the focused row (kept as an item, so rows a live filter drops above it do not move the focus; when the filter hides the row itself, the row after it). */
  cursor: number | null;
  /** Item indices of rows drawn open. */
  expanded: ReadonlySet<number>;
  /** Calls whose full state could not be read back from the file, with why. */
  detailErrors: ReadonlyMap<string, string>;
  /** Set when the source was read redacted: every secret replaced, and where. */
  redaction: { findings: List<SecretFinding> } | null;
  /** The input's content hash once it has been read whole (notes are kept under it); null before. */
  contentHash: string | null;
}

export interface SessionStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => SessionSnapshot;
  /** Start over for a new source. */
  reset: () => void;
  setLoadState: (state: LoadState, error?: string) => void;
  applyDelta: (delta: SessionDelta) => void;
  /** A number for the call as the store now holds it (another once a delta changes it; 0 for none): stamps requests for its full state. */
  revisionOf: (key: string) => number;
  /** A call completed after the fact (its full state, asked for at `revision`); ignored if it has changed since. */
  replaceCall: (call: ToolCall, revision: number) => void;
  setDetailError: (key: string, message: string) => void;
  /** Calls found holding `text` where the page cannot look (what a light read left in the file); merged into the view while the search text is `text`. */
  setSearchHits: (text: string, keys: readonly string[]) => void;
  setFilter: (filter: Partial<Filter>) => void;
  setCursor: (viewPos: number | null) => void;
  setExpanded: (itemIndex: number, open: boolean) => void;
  toggleExpanded: (itemIndex: number) => void;
  /** Item index of the call with this id (the input's id, not the internal key), if read yet. */
  itemOfCallId: (id: string) => number | null;
  /** Item index of the call with this key (the viewer's own key), if read yet. */
  itemOfCallKey: (key: string) => number | null;
  /** Item index of the row for input line `line`, or the nearest row after (else before) it. */
  itemNearLine: (line: number) => number | null;
  /** Position in the current view of an item, clearing the filter if it hides the item. */
  revealItem: (itemIndex: number) => number;
  /** The item's position in the current view; -1 when the filter hides it (the filter is left as it is). */
  positionOfItem: (itemIndex: number) => number;
}

const DELTA_REDRAW_MS = 32;
const NOTHING_FOLDED: ReadonlyMap<never, never> = new Map<never, never>();

export function createSessionStore(opts: { initialFilter?: Partial<Filter> } = {}): SessionStore {
  const listeners = new Set<() => void>();
  let state: SessionState = initialSessionState(opts.initialFilter ?? EMPTY_FILTER);
  let version = 0;
  let snapshot: SessionSnapshot | null = null;

  // Worked out from the state when a snapshot is asked for, again only when what it reads changed.
  const filterRows = createRowFilter();
  const filteredRows = memo((s: SessionState) => [s.items, s.rows, s.calls, s.terminals, s.ended, s.filter, s.searchHits], filterRows);
  const shownRows = memo(
    (s: SessionState) => [filteredRows(s), s.items, s.calls, s.bookkeeping, s.filter],
    (s): FoldedRows & BookkeepingRows => {
      const rows = filteredRows(s);
      if (isFilterActive(s.filter)) return { rows, subagentCalls: NOTHING_FOLDED, runs: NOTHING_FOLDED };
      // With no filter the rows are `s.rows`: folded from its backing, not through its window.
      const folded = s.subagentCallsRead ? foldSubagentCalls(s.rows.run(), s.items, s.calls, s.idToKey) : null;
      const bookkeeping = foldBookkeeping(folded ? runOf(folded.rows) : s.rows.run(), s.bookkeeping.run());
      return { rows: bookkeeping?.rows ?? folded?.rows ?? rows, subagentCalls: folded?.subagentCalls ?? NOTHING_FOLDED, runs: bookkeeping?.runs ?? NOTHING_FOLDED };
    },
  );
  const facets = memo(
    (s: SessionState) => [s.labelCounts, s.statusCounts, s.calls],
    (s) => facetsFrom(s.labelCounts, s.statusCounts, s.calls.size),
  );

  let notifyTimer: ReturnType<typeof setTimeout> | null = null;
  const notify = (): void => {
    if (notifyTimer !== null) clearTimeout(notifyTimer);
    notifyTimer = null;
    for (const l of [...listeners]) l();
  };
  const dispatch = (event: SessionEvent): void => {
    const before = state;
    state = reduceSession(state, event);
    if (state === before && event.type !== 'reset') return;
    version++;
    snapshot = null;
    // Deltas arrive in bursts while a file is read: redraw at most every frame or two for them.
    // The first rows are drawn at once, and anything a person does (filter, open, move) too.
    if (event.type === 'delta' && (before.items.size > 0 || state.items.size === 0)) notifyTimer ??= setTimeout(notify, DELTA_REDRAW_MS);
    else notify();
  };

  const store: SessionStore = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot() {
      if (snapshot) return snapshot;
      const s = state;
      const { rows, subagentCalls, runs } = shownRows(s);
      snapshot = {
        version,
        load: s.load,
        items: s.items,
        calls: s.calls,
        terminals: s.terminals,
        counts: s.counts,
        format: s.format,
        chain: s.chain,
        bad: s.bad,
        warnings: s.warnings,
        sessionIds: s.sessionIds,
        ended: s.ended,
        arrivedAt: (call) => arrivalOf(s.arrivals, call),
        filter: s.filter,
        shownRows: rows,
        subagentCalls,
        bookkeeping: runs,
        facets: facets(s),
        cursor: s.focus === null ? null : nearestPosition(rows, s.focus),
        expanded: s.expanded,
        detailErrors: s.detailErrors,
        redaction: s.redaction,
        contentHash: s.contentHash,
        usage: s.usage,
      };
      return snapshot;
    },
    reset: () => dispatch({ type: 'reset' }),
    setLoadState: (loadState, error) => dispatch({ type: 'loadState', state: loadState, ...(error !== undefined ? { error } : {}) }),
    applyDelta: (delta) => dispatch({ type: 'delta', delta, now: Date.now() }),
    revisionOf: (key) => stampOf(state.calls.get(key)),
    replaceCall(call, revision) {
      const basedOn = state.calls.get(call.key);
      if (basedOn && stampOf(basedOn) === revision) dispatch({ type: 'callRead', call, basedOn });
    },
    setSearchHits: (text, keys) => dispatch({ type: 'searchHits', text, keys }),
    setDetailError: (key, message) => dispatch({ type: 'detailError', key, message }),
    setFilter: (filter) => dispatch({ type: 'filter', filter }),
    setCursor: (pos) => dispatch({ type: 'focus', item: pos === null ? null : (store.getSnapshot().shownRows[pos] ?? null) }),
    setExpanded: (item, open) => dispatch({ type: 'expand', item, open }),
    toggleExpanded: (item) => dispatch({ type: 'expand', item, open: !state.expanded.has(item) }),
    itemOfCallId(id) {
      const key = state.idToKey.get(id);
      return key === undefined ? null : store.itemOfCallKey(key);
    },
    itemOfCallKey(key) {
      const { items, calls } = state;
      const call = calls.get(key);
      if (!call) return null;
      // A call's row is the item made from the line that opened it: among the items of that line.
      for (let i = firstItemFrom(items, call.firstLine); i < items.size; i++) {
        const it = items.get(i);
        if (!it || it.loc.line !== call.firstLine) break;
        if (it.type === 'call' && it.callKey === key) return i;
      }
      return null;
    },
    itemNearLine(line) {
      const { items } = state;
      if (items.size === 0) return null;
      const at = firstItemFrom(items, line);
      return at < items.size ? at : items.size - 1;
    },
    positionOfItem(itemIndex) {
      return indexIn(store.getSnapshot().shownRows, itemIndex);
    },
    revealItem(itemIndex) {
      const pos = store.positionOfItem(itemIndex);
      if (pos >= 0) return pos;
      store.setFilter(EMPTY_FILTER);
      return store.positionOfItem(itemIndex);
    },
  };
  return store;
}

/** The first item whose line is at least `line` (items are in input order, so their first lines are sorted). */
function firstItemFrom(items: List<TranscriptItem>, line: number): number {
  let lo = 0;
  let hi = items.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items.get(mid)?.loc.line ?? 0) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// A call's revision is the row object the store holds for it: every delta that changes a call
// makes a new one. Numbered here, when first asked, so a request for its full state can say which
// row it was made for; 0 for a call not read.
const stamps = new WeakMap<CallSummary, number>();
let lastStamp = 0;
function stampOf(call: CallSummary | undefined): number {
  if (!call) return 0;
  let stamp = stamps.get(call);
  if (stamp === undefined) {
    stamp = ++lastStamp;
    stamps.set(call, stamp);
  }
  return stamp;
}

/** `compute(state)`, worked out again only when one of the parts `deps` picks out is another object than last time. */
function memo<T>(deps: (s: SessionState) => readonly unknown[], compute: (s: SessionState) => T): (s: SessionState) => T {
  let last: { deps: readonly unknown[]; value: T } | null = null;
  return (s) => {
    const now = deps(s);
    if (last && now.every((d, i) => d === last?.deps[i])) return last.value;
    const value = compute(s);
    last = { deps: now, value };
    return value;
  };
}

/** Position in `shownRows` of `item`; when the filter hides it, of the row after it (else the last row); null for an empty view. */
function nearestPosition(shownRows: readonly number[], item: number): number | null {
  if (shownRows.length === 0) return null;
  const pos = lowerBound(shownRows, item);
  return Math.min(pos, shownRows.length - 1);
}

/** Binary search: views are sorted item indices. */
function indexIn(view: readonly number[], item: number): number {
  const lo = lowerBound(view, item);
  return view[lo] === item ? lo : -1;
}

/** The first position in `view` whose item is at least `item`. */
function lowerBound(view: readonly number[], item: number): number {
  let lo = 0;
  let hi = view.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((view[mid] ?? 0) < item) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
