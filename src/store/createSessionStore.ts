// One store per viewer instance: the session read so far, the load state, the filter and the
// selection. Framework-free (subscribe / getSnapshot) so React reads it with useSyncExternalStore
// and tests drive it directly.
//
// Every snapshot is immutable: deltas are applied copy-on-write to persistent collections
// (Immutable.js lists and maps share all but the changed paths), so a snapshot React is still
// rendering never sees a later delta, and applying one costs time in proportion to the delta,
// not to the session.
import { List, Map as PMap } from 'immutable';
import { sessionOfItem } from '../analysis/insights';
import { callSearchText } from '../model/search';
import { displayStatus, statusCountsAtEnd } from '../model/status';
import { isToolCall } from '../model/types';
import type { BadLine, CallSummary, ChainState, Counts, DisplayStatus, IngestProgress, InputFormat, TerminalState, ToolCall, TranscriptItem, Usage } from '../model';
import { APPENDED_PARTS, type AppendedPart, type DeltaLists, type SecretFinding, type SessionDelta } from '../worker/protocol';

export type { SecretFinding };
import { GrowingIndices } from './indexRange';
import { EMPTY_FILTER, facetsFrom, isFilterActive, itemHaystack, NO_SESSION, normalizeFilter, type Facets, type Filter } from './filter';

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

/** A full read's patch with the history sent before it put back in front of its own entries. */
const withHistory = (call: ToolCall, history: ToolCall['history']): ToolCall => ({ ...call, history });

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
  /** When this viewer first saw each call (ms since the epoch): a live call's clock when the input has no times. */
  arrivedAt: ReadonlyMap<string, number>;
  filter: Filter;
  /**
   * Item indices shown under the filter, in order; every row when no filter is active. Usage
   * reports (`usage` items, ACP `usage_update`) are not rows: `usage` holds them for the header's
   * meter, and the Usage view reads them from `items`.
   */
  view: readonly number[];
  /** Each session's usage as its reports add up (`SessionUsage`), by session id (`NO_SESSION` for none), the one that reported last last. */
  usage: ReadonlyMap<string, SessionUsage>;
  facets: Facets;
  /** Position in `view` of the focused row (kept as an item, so rows a live filter drops above it do not move the focus; when the filter hides the row itself, the row after it). */
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
  /** How many times a call has been updated by deltas: stamps requests for its full state. */
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

const EMPTY_COUNTS: Counts = { lines: 0, events: 0, unknown: 0, bad: 0 };

export function createSessionStore(opts: { initialFilter?: Partial<Filter> } = {}): SessionStore {
  const listeners = new Set<() => void>();
  let items = List<TranscriptItem>();
  let calls = PMap<string, CallSummary>();
  let terminals = PMap<string, TerminalState>();
  // Entries are only ever added, never changed: a snapshot may share it.
  let arrivedAt = new Map<string, number>();
  let callItem = new Map<string, number>(); // call key -> item index
  let idToKey = new Map<string, string>();
  let revisions = new Map<string, number>();
  // The append-only lists a delta carries that the store keeps as they come (see DELTA_PARTS).
  let lists = emptyLists();
  let haystacks = new Map<string, string>();
  // Keyed by the item object: a message that grows is a new object, so its text is read again.
  let itemHaystacks = new WeakMap<TranscriptItem, string | null>();
  let counts: Counts = EMPTY_COUNTS;
  let format: InputFormat = 'empty';
  let chain: ChainState | null = null;
  let ended = false;
  let load: SessionSnapshot['load'] = { state: 'idle', progress: { bytesRead: 0, records: 0 } };
  let filter: Filter = normalizeFilter(opts.initialFilter ?? EMPTY_FILTER);
  // The focused row as an item index (as `expanded` holds them): a position in the view would
  // point at another row once a live filter drops rows above it.
  let focus: number | null = null;
  let expanded = new Set<number>();
  let detailErrors = new Map<string, string>();
  let searchHits: { text: string; keys: ReadonlySet<string> } = { text: '', keys: new Set() };
  let redaction: SessionSnapshot['redaction'] = null;
  let contentHash: string | null = null;
  let usage: ReadonlyMap<string, SessionUsage> = new Map();
  let version = 0;

  const labelCounts = new Map<string, number>();
  let statusCounts: Record<DisplayStatus, number> = emptyStatusCounts();
  const countCall = (c: CallSummary, sign: 1 | -1): void => {
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
  let view: readonly number[] | null = null;
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

  const haystackOf = (call: CallSummary): string => {
    let h = haystacks.get(call.key);
    if (h === undefined) {
      // Everything the free-text filter searches for one call: its names, input and output.
      h = callSearchText(call, terminals);
      haystacks.set(call.key, h);
    }
    return h;
  };

  const computeView = (): readonly number[] => {
    if (!isFilterActive(filter)) return rows.indices();
    const labels = new Set(filter.labels);
    const statuses = new Set(filter.statuses);
    const text = filter.text.trim().toLowerCase();
    const callsOnly = labels.size > 0 || statuses.size > 0;
    const sessions = new Set(filter.sessions);
    const out: number[] = [];
    let i = -1;
    for (const it of items) {
      i++;
      if (!isRow(it)) continue;
      if (sessions.size > 0 && !sessions.has(sessionOfItem(it, calls) ?? NO_SESSION)) continue;
      if (it.type === 'call') {
        const call = calls.get(it.callKey);
        if (!call) continue;
        if (labels.size > 0 && !labels.has(call.label)) continue;
        if (statuses.size > 0 && !statuses.has(displayStatus(call, ended))) continue;
        if (text && !haystackOf(call).includes(text) && !(searchHits.text === text && searchHits.keys.has(call.key))) continue;
        out.push(i);
      } else if (!callsOnly && !text) {
        // Only a session is chosen: its messages, plans and turns are shown with its calls.
        out.push(i);
      } else if (!callsOnly && text) {
        // Lower-cased once per item object, not once per keystroke.
        let h = itemHaystacks.get(it);
        if (h === undefined) {
          h = itemHaystack(it);
          itemHaystacks.set(it, h);
        }
        if (h !== null && h.includes(text)) out.push(i);
      }
    }
    return out;
  };

  /** The items that are rows, in order: the view when no filter is active (see GrowingIndices). */
  let rows = new GrowingIndices();

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
        ...lists,
        ended,
        arrivedAt,
        filter,
        view,
        facets,
        cursor: focus === null ? null : nearestPosition(view, focus),
        expanded,
        detailErrors,
        redaction,
        contentHash,
        usage,
      };
      return snapshot;
    },
    reset() {
      items = List();
      calls = PMap();
      terminals = PMap();
      arrivedAt = new Map();
      callItem = new Map();
      idToKey = new Map();
      revisions = new Map();
      lists = emptyLists();
      haystacks = new Map();
      itemHaystacks = new WeakMap();
      counts = EMPTY_COUNTS;
      format = 'empty';
      chain = null;
      ended = false;
      rows = new GrowingIndices();
      usage = new Map();
      labelCounts.clear();
      statusCounts = emptyStatusCounts();
      focus = null;
      expanded = new Set();
      detailErrors = new Map();
      searchHits = { text: '', keys: new Set() };
      redaction = null;
      contentHash = null;
      load = { state: 'idle', progress: { bytesRead: 0, records: 0 } };
      changed({ view: true, facets: true });
    },
    setLoadState(state, error) {
      load = { state, progress: load.progress, ...(error !== undefined ? { error } : {}) };
      changed();
    },
    applyDelta(d) {
      const now = Date.now();
      const hadRows = items.size > 0;
      items = items.withMutations((list) => {
        const grown = d.grown;
        const before = grown ? list.get(grown.index) : undefined;
        if (grown && before?.type === 'message') {
          // A new object: the snapshot holding the old one keeps it as it was.
          list.set(grown.index, {
            ...before,
            text: before.text.slice(0, grown.textFrom) + grown.text,
            blocks: grown.blocks.length > 0 || before.blocks.length !== grown.blocksFrom ? before.blocks.slice(0, grown.blocksFrom).concat(grown.blocks) : before.blocks,
          });
        }
        // The last item may have been replaced (a message that grew, a native log's usage report
        // superseded by a later entry of its message); everything before it stays.
        let reported: Map<string, SessionUsage> | null = null;
        for (let i = d.itemsFrom; i < list.size; i++) {
          const old = list.get(i);
          if (old?.type === 'usage') addUsage((reported ??= new Map(usage)), old.sessionId, old.usage, -1);
        }
        if (list.size !== d.itemsFrom) list.setSize(d.itemsFrom);
        rows.dropFrom(d.itemsFrom);
        for (const it of d.items) {
          if (it.type === 'call') callItem.set(it.callKey, list.size);
          if (isRow(it)) rows.push(list.size);
          else if (it.type === 'usage') addUsage((reported ??= new Map(usage)), it.sessionId, it.usage, 1);
          list.push(it);
        }
        if (reported) usage = reported;
      });
      if (d.ended !== ended) {
        ended = d.ended;
        // Not recounted when the input ends: that walked every call in one task as the last rows of a large file came in.
        if (ended) statusCounts = statusCountsAtEnd(statusCounts);
        else recountStatuses();
      }
      if (d.calls.length > 0) {
        calls = calls.withMutations((map) => {
          for (const { call: patch, historyFrom } of d.calls) {
            const old = map.get(patch.key);
            const call: CallSummary =
              historyFrom > 0 && old && isToolCall(old) && isToolCall(patch) ? withHistory(patch, old.history.slice(0, historyFrom).concat(patch.history)) : patch;
            if (old) countCall(old, -1);
            else if (!arrivedAt.has(call.key)) arrivedAt.set(call.key, now);
            countCall(call, 1);
            map.set(call.key, call);
            revisions.set(call.key, (revisions.get(call.key) ?? 0) + 1);
            idToKey.set(call.id, call.key);
            haystacks.delete(call.key);
          }
        });
      }
      if (d.terminals.length > 0) {
        terminals = terminals.withMutations((map) => {
          for (const t of d.terminals) map.set(t.terminalId, t);
        });
        // Terminal output is part of its calls' searchable text.
        haystacks.clear();
      }
      lists = appendLists(lists, d);
      if (d.findings) {
        const findings = redaction?.findings ?? List<SecretFinding>();
        const next = appendFrom(findings, d.findingsFrom ?? findings.size, d.findings);
        if (!redaction || next !== findings) redaction = { findings: next };
      }
      if (d.contentHash !== undefined) contentHash = d.contentHash;
      counts = d.counts;
      format = d.format;
      chain = d.chain;
      load = { ...load, progress: d.progress };
      // The first rows are drawn at once; what follows them waits for the next redraw.
      changed({ view: true, facets: true, soon: hadRows || items.size === 0 });
    },
    revisionOf(key) {
      return revisions.get(key) ?? 0;
    },
    replaceCall(call, revision) {
      if (!calls.has(call.key) || (revisions.get(call.key) ?? 0) !== revision) return;
      calls = calls.set(call.key, call);
      haystacks.delete(call.key);
      changed({ view: true });
    },
    setSearchHits(text, keys) {
      searchHits = { text, keys: new Set(keys) };
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
      focus = null;
      changed({ view: true });
    },
    setCursor(pos) {
      const item = pos === null ? null : (store.getSnapshot().view[pos] ?? null);
      if (item === focus) return;
      focus = item;
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
    itemOfCallKey: (key) => callItem.get(key) ?? null,
    itemNearLine(line) {
      if (items.size === 0) return null;
      // Items are in input order, so their first lines are sorted.
      let lo = 0;
      let hi = items.size;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((items.get(mid)?.loc.line ?? 0) < line) lo = mid + 1;
        else hi = mid;
      }
      return lo < items.size ? lo : items.size - 1;
    },
    positionOfItem(itemIndex) {
      return indexIn(store.getSnapshot().view, itemIndex);
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

/** The append-only lists the store keeps as a delta sends them: every one but items (rows) and findings (redaction). */
type KeptPart = Exclude<AppendedPart, 'items' | 'findings'>;
type KeptLists = { [P in KeptPart]: List<DeltaLists[P]> };
const KEPT_PARTS = APPENDED_PARTS.filter((part): part is KeptPart => part !== 'items' && part !== 'findings');

function emptyLists(): KeptLists {
  return Object.fromEntries(KEPT_PARTS.map((part) => [part, List()])) as unknown as KeptLists;
}

function appendLists(lists: KeptLists, d: SessionDelta): KeptLists {
  const next = { ...lists } as Record<KeptPart, List<unknown>>;
  for (const part of KEPT_PARTS) next[part] = appendFrom(next[part], d[`${part}From`], d[part]);
  return next as KeptLists;
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

/** Whether an item is a transcript row: every kind but usage reports. */
function isRow(item: TranscriptItem): boolean {
  return item.type !== 'usage';
}

function emptyStatusCounts(): Record<DisplayStatus, number> {
  return { pending: 0, running: 0, done: 0, failed: 0, unfinished: 0 };
}

/** Position in `view` of `item`; when the filter hides it, of the row after it (else the last row); null for an empty view. */
function nearestPosition(view: readonly number[], item: number): number | null {
  if (view.length === 0) return null;
  const pos = lowerBound(view, item);
  return Math.min(pos, view.length - 1);
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
