// One store per viewer instance: the session read so far, the load state, the filter and the
// selection. Framework-free (subscribe / getSnapshot) so React reads it with useSyncExternalStore
// and tests drive it directly.
import { displayStatus } from '../model/status';
import type { BadLine, ChainState, Counts, DisplayStatus, InputFormat, TerminalState, ToolCall, TranscriptItem } from '../model';
import type { LoadProgress, SessionDelta } from '../worker/protocol';
import { callHaystack, EMPTY_FILTER, facetsFrom, isFilterActive, itemHaystack, normalizeFilter, type Facets, type Filter } from './filter';

export type LoadState = 'idle' | 'loading' | 'done' | 'error' | 'cancelled';

export interface SessionSnapshot {
  /** Bumped on every change; cheap to compare. */
  version: number;
  load: { state: LoadState; error?: string; progress: LoadProgress };
  items: readonly TranscriptItem[];
  calls: ReadonlyMap<string, ToolCall>;
  terminals: ReadonlyMap<string, TerminalState>;
  counts: Counts;
  format: InputFormat;
  chain: ChainState | null;
  bad: readonly BadLine[];
  warnings: readonly { line: number; message: string }[];
  sessionIds: readonly string[];
  ended: boolean;
  filter: Filter;
  /** Item indices shown under the filter, in order; all items when no filter is active. */
  view: readonly number[];
  facets: Facets;
  /** Position in `view` of the focused row. */
  cursor: number | null;
  /** Item indices of rows drawn open. */
  expanded: ReadonlySet<number>;
  /** Calls whose full state could not be read back from the file, with why. */
  detailErrors: ReadonlyMap<string, string>;
}

export interface SessionStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => SessionSnapshot;
  /** Start over for a new source. */
  reset: () => void;
  setLoadState: (state: LoadState, error?: string) => void;
  applyDelta: (delta: SessionDelta) => void;
  /** How many times a call has been updated by deltas: stamps requests for its full state. */
  revisionOf: (key: string) => number;
  /** A call completed after the fact (its full state, asked for at `revision`); ignored if it has changed since. */
  replaceCall: (call: ToolCall, revision: number) => void;
  setDetailError: (key: string, message: string) => void;
  setFilter: (filter: Partial<Filter>) => void;
  setCursor: (viewPos: number | null) => void;
  setExpanded: (itemIndex: number, open: boolean) => void;
  toggleExpanded: (itemIndex: number) => void;
  /** Item index of the call with this id (the input's id, not the internal key), if read yet. */
  itemOfCallId: (id: string) => number | null;
  /** Item index of the row for input line `line`, or the nearest row after (else before) it. */
  itemNearLine: (line: number) => number | null;
  /** Position in the current view of an item, clearing the filter if it hides the item. */
  revealItem: (itemIndex: number) => number;
}

const DELTA_REDRAW_MS = 32;

const EMPTY_COUNTS: Counts = { lines: 0, events: 0, unknown: 0, bad: 0 };

export function createSessionStore(opts: { initialFilter?: Partial<Filter> } = {}): SessionStore {
  const listeners = new Set<() => void>();
  let items: TranscriptItem[] = [];
  let calls = new Map<string, ToolCall>();
  let terminals = new Map<string, TerminalState>();
  let callItem = new Map<string, number>(); // call key -> item index
  let idToKey = new Map<string, string>();
  let revisions = new Map<string, number>();
  let bad: BadLine[] = [];
  let warnings: { line: number; message: string }[] = [];
  let haystacks = new Map<string, string>();
  let itemHaystacks = new Map<number, string | null>();
  let counts: Counts = EMPTY_COUNTS;
  let format: InputFormat = 'empty';
  let chain: ChainState | null = null;
  let sessionIds: string[] = [];
  let ended = false;
  let load: SessionSnapshot['load'] = { state: 'idle', progress: { bytesRead: 0, records: 0 } };
  let filter: Filter = normalizeFilter(opts.initialFilter ?? EMPTY_FILTER);
  let cursor: number | null = null;
  let expanded = new Set<number>();
  let detailErrors = new Map<string, string>();
  let version = 0;

  const labelCounts = new Map<string, number>();
  let statusCounts: Record<DisplayStatus, number> = emptyStatusCounts();
  const countCall = (c: ToolCall, sign: 1 | -1): void => {
    const n = (labelCounts.get(c.label) ?? 0) + sign;
    if (n === 0) labelCounts.delete(c.label);
    else labelCounts.set(c.label, n);
    statusCounts[displayStatus(c, ended)] += sign;
  };
  const recountStatuses = (): void => {
    statusCounts = emptyStatusCounts();
    for (const c of calls.values()) statusCounts[displayStatus(c, ended)]++;
  };

  let snapshot: SessionSnapshot | null = null;
  let view: number[] | null = null;
  let facets: Facets | null = null;

  let notifyTimer: ReturnType<typeof setTimeout> | null = null;
  const notify = (): void => {
    if (notifyTimer !== null) clearTimeout(notifyTimer);
    notifyTimer = null;
    for (const l of [...listeners]) l();
  };
  const changed = (what: { view?: boolean; facets?: boolean; soon?: boolean } = {}): void => {
    version++;
    if (what.view) view = null;
    if (what.facets) facets = null;
    snapshot = null;
    // Deltas arrive in bursts while a file is read: redraw at most every frame or two for them.
    // Anything a person does (filter, open, move) is drawn at once.
    if (what.soon) notifyTimer ??= setTimeout(notify, DELTA_REDRAW_MS);
    else notify();
  };

  const haystackOf = (call: ToolCall): string => {
    let h = haystacks.get(call.key);
    if (h === undefined) {
      h = callHaystack(call, terminals);
      haystacks.set(call.key, h);
    }
    return h;
  };

  const computeView = (): number[] => {
    if (!isFilterActive(filter)) return allIndices(items.length);
    const labels = new Set(filter.labels);
    const statuses = new Set(filter.statuses);
    const text = filter.text.trim().toLowerCase();
    const callsOnly = labels.size > 0 || statuses.size > 0;
    const out: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (!it) continue;
      if (it.type === 'call') {
        const call = calls.get(it.callKey);
        if (!call) continue;
        if (labels.size > 0 && !labels.has(call.label)) continue;
        if (statuses.size > 0 && !statuses.has(displayStatus(call, ended))) continue;
        if (text && !haystackOf(call).includes(text)) continue;
        out.push(i);
      } else if (!callsOnly && text) {
        // Items never change once read, so their lower-cased text is worth keeping between keystrokes.
        let h = itemHaystacks.get(i);
        if (h === undefined) {
          h = itemHaystack(it);
          itemHaystacks.set(i, h);
        }
        if (h !== null && h.includes(text)) out.push(i);
      }
    }
    return out;
  };

  let allCache: number[] = [];
  function allIndices(n: number): number[] {
    if (allCache.length !== n) {
      if (allCache.length < n) for (let i = allCache.length; i < n; i++) allCache.push(i);
      else allCache = allCache.slice(0, n);
    }
    return allCache;
  }

  const store: SessionStore = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot() {
      if (snapshot) return snapshot;
      view ??= computeView();
      facets ??= facetsFrom(labelCounts, statusCounts, calls.size);
      snapshot = {
        version,
        load,
        items,
        calls,
        terminals,
        counts,
        format,
        chain,
        bad,
        warnings,
        sessionIds,
        ended,
        filter,
        view,
        facets,
        cursor: cursor !== null && cursor < view.length ? cursor : null,
        expanded,
        detailErrors,
      };
      return snapshot;
    },
    reset() {
      items = [];
      calls = new Map();
      terminals = new Map();
      callItem = new Map();
      idToKey = new Map();
      revisions = new Map();
      bad = [];
      warnings = [];
      haystacks = new Map();
      itemHaystacks = new Map();
      counts = EMPTY_COUNTS;
      format = 'empty';
      chain = null;
      sessionIds = [];
      ended = false;
      allCache = [];
      labelCounts.clear();
      statusCounts = emptyStatusCounts();
      cursor = null;
      expanded = new Set();
      detailErrors = new Map();
      load = { state: 'idle', progress: { bytesRead: 0, records: 0 } };
      changed({ view: true, facets: true });
    },
    setLoadState(state, error) {
      load = { state, progress: load.progress, ...(error !== undefined ? { error } : {}) };
      changed();
    },
    applyDelta(d) {
      // Applied in place, in time proportional to the delta (not to the session): deltas arrive
      // many times a second while a large file is read. Snapshots are new objects per change.
      if (items.length !== d.itemsFrom) items.length = d.itemsFrom;
      for (const it of d.items) {
        if (it.type === 'call') callItem.set(it.callKey, items.length);
        items.push(it);
      }
      if (d.ended !== ended) {
        ended = d.ended;
        // Open calls turn unfinished when the input ends: every status may have changed.
        recountStatuses();
      }
      for (const c of d.calls) {
        const old = calls.get(c.key);
        if (old) countCall(old, -1);
        countCall(c, 1);
        calls.set(c.key, c);
        revisions.set(c.key, (revisions.get(c.key) ?? 0) + 1);
        idToKey.set(c.id, c.key);
        haystacks.delete(c.key);
      }
      if (d.terminals.length > 0) {
        for (const t of d.terminals) terminals.set(t.terminalId, t);
        // Terminal output is part of its calls' searchable text.
        haystacks.clear();
      }
      if (d.bad.length > 0) {
        if (bad.length !== d.badFrom) bad.length = d.badFrom;
        for (const b of d.bad) bad.push(b);
      }
      if (d.warnings.length > 0) {
        if (warnings.length !== d.warningsFrom) warnings.length = d.warningsFrom;
        for (const w of d.warnings) warnings.push(w);
      }
      counts = d.counts;
      format = d.format;
      chain = d.chain;
      sessionIds = d.sessionIds;
      load = { ...load, progress: d.progress };
      changed({ view: true, facets: true, soon: true });
    },
    revisionOf(key) {
      return revisions.get(key) ?? 0;
    },
    replaceCall(call, revision) {
      if (!calls.has(call.key) || (revisions.get(call.key) ?? 0) !== revision) return;
      calls.set(call.key, call);
      haystacks.delete(call.key);
      changed({ view: true });
    },
    setDetailError(key, message) {
      detailErrors = new Map(detailErrors).set(key, message);
      changed();
    },
    setFilter(f) {
      const next = normalizeFilter({ ...filter, ...f });
      if (JSON.stringify(next) === JSON.stringify(filter)) return;
      filter = next;
      cursor = null;
      changed({ view: true });
    },
    setCursor(pos) {
      if (pos === cursor) return;
      cursor = pos;
      changed();
    },
    setExpanded(i, open) {
      if (expanded.has(i) === open) return;
      expanded = new Set(expanded);
      if (open) expanded.add(i);
      else expanded.delete(i);
      changed();
    },
    toggleExpanded(i) {
      store.setExpanded(i, !expanded.has(i));
    },
    itemOfCallId(id) {
      const key = idToKey.get(id);
      return key === undefined ? null : (callItem.get(key) ?? null);
    },
    itemNearLine(line) {
      if (items.length === 0) return null;
      // Items are in input order, so their first lines are sorted.
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((items[mid]?.loc.line ?? 0) < line) lo = mid + 1;
        else hi = mid;
      }
      return lo < items.length ? lo : items.length - 1;
    },
    revealItem(itemIndex) {
      let v = store.getSnapshot().view;
      let pos = indexIn(v, itemIndex);
      if (pos < 0) {
        store.setFilter(EMPTY_FILTER);
        v = store.getSnapshot().view;
        pos = indexIn(v, itemIndex);
      }
      return pos;
    },
  };
  return store;
}

function emptyStatusCounts(): Record<DisplayStatus, number> {
  return { pending: 0, running: 0, done: 0, failed: 0, unfinished: 0 };
}

/** Binary search: views are sorted item indices. */
function indexIn(view: readonly number[], item: number): number {
  let lo = 0;
  let hi = view.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((view[mid] ?? 0) < item) lo = mid + 1;
    else hi = mid;
  }
  return view[lo] === item ? lo : -1;
}
