import { useEffect, useMemo, useRef, useState } from 'react';
import { useLatestCallback } from './useLatestCallback';
import { useDocumentKeys } from './useDocumentKeys';
import type { CallSummary } from '../model';
import type { SessionSnapshot, SessionStore } from '../store/createSessionStore';
import { isFilterActive, type Filter } from '../store/filter';
import { formatBytes } from './format';
import { DiagnosticsPanel } from './panels/DiagnosticsPanel';
import { FilterPanel } from './panels/FilterPanel';
import { NotesPanel } from './sharing/NotesPanel';
import { SecretsPanel } from './sharing/SecretsPanel';
import { SharingTools, type SharingProps } from './sharing/SharingTools';
import { Insights } from './insights/Insights';
import { ViewTabs } from './insights/ViewTabs';
import { UsageMeter } from './insights/UsageMeter';
import type { ViewName } from './insights/views';
import { Transcript } from './transcript/Transcript';
import { SessionLinksContext, type SessionLinks } from './calls/SpawnedSessions';
import { useSessionSnapshot, useSystemDark } from './useStore';
import type { ScrollRequest } from './virtual/VirtualList';
import type { Align } from './virtual/controller';
import styles from './SessionView.module.css';
import { countOf } from './format';

export type ThemeChoice = 'light' | 'dark' | 'system';

export interface SessionViewProps {
  store: SessionStore;
  onCancel: () => void;
  onRetry?: () => void;
  /**
   * The request that reads the source, as its owner runs it (a react-query query in
   * `<SessionViewer>`): while it is fetching the view is loading, and its error is the error shown.
   */
  request?: { fetching: boolean; error: string | null };
  /** Where the session comes from, for the status line. */
  sourceName?: string;
  theme?: ThemeChoice;
  /** Called when the theme toggle is used, so a host can follow (or persist) the choice. */
  onThemeChange?: (theme: 'light' | 'dark') => void;
  className?: string;
  onSelectCall?: (call: CallSummary | null) => void;
  /** Open and scroll to this call (the input's tool-call id) once it has been read. */
  focusCallId?: string | null;
  /** 'document': also take j/k/Enter/Esc// typed while nothing in particular has focus (the standalone app). */
  keyboardScope?: 'viewer' | 'document';
  /** An opened call was read light: ask for its full state. */
  onNeedDetail?: (call: CallSummary) => void;
  /** The view shown (transcript, timeline, stats, sessions, usage); the viewer keeps its own when absent. */
  view?: ViewName;
  onViewChange?: (view: ViewName) => void;
  /** The toolbar's "Redact secrets" toggle and Export menu; absent, neither is shown. */
  sharing?: SharingProps;
}

interface KeyLike {
  key: string;
  target: EventTarget | null;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  preventDefault(): void;
}

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

export function SessionView({ store, onCancel, onRetry, request, sourceName, theme = 'system', onThemeChange, className, onSelectCall, focusCallId, keyboardScope = 'viewer', onNeedDetail, view, onViewChange, sharing }: SessionViewProps) {
  const snap = useSessionSnapshot(store);
  const systemDark = useSystemDark();
  const [choice, setChoice] = useState<ThemeChoice>(theme);
  const [prevTheme, setPrevTheme] = useState(theme);
  if (prevTheme !== theme) {
    setPrevTheme(theme);
    setChoice(theme);
  }
  const dark = choice === 'dark' || (choice === 'system' && systemDark);
  const rootRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [scrollRequest, setScrollRequest] = useState<ScrollRequest | null>(null);
  const seq = useRef(0);
  const focusAfterScroll = useRef(false);
  const [showDiag, setShowDiag] = useState(true);
  // Following a live source: the newest row stays in view until the person scrolls away from the
  // end; then rows that arrive are counted, and the jump button (or End) brings them back.
  const [following, setFollowing] = useState(true);
  const [rowsWhenPaused, setRowsWhenPaused] = useState(0);
  const pauseFollowing = (): void => {
    if (!following) return;
    setFollowing(false);
    setRowsWhenPaused(store.getSnapshot().view.length);
  };
  const resumeFollowing = (): void => setFollowing(true);
  const [ownView, setOwnView] = useState<ViewName>(view ?? 'transcript');
  const shownView = view ?? ownView;
  const changeView = (next: ViewName): void => {
    setOwnView(next);
    onViewChange?.(next);
  };

  // A request is about a position in one filtered view; under another filter it means another row.
  const scrollTo = (pos: number, align: Align): void => {
    seq.current += 1;
    setScrollRequest({ index: pos, align, seq: seq.current, scope: JSON.stringify(store.getSnapshot().filter) });
  };
  const filterScope = JSON.stringify(snap.filter);

  const selectCallOf = (itemIndex: number, open: boolean): void => {
    if (!onSelectCall) return;
    const it = store.getSnapshot().items.get(itemIndex);
    if (it?.type !== 'call') return;
    onSelectCall(open ? (store.getSnapshot().calls.get(it.callKey) ?? null) : null);
  };

  const toggle = (itemIndex: number, pos: number): void => {
    const open = !store.getSnapshot().expanded.has(itemIndex);
    store.setCursor(pos);
    store.setExpanded(itemIndex, open);
    selectCallOf(itemIndex, open);
  };

  // From the views beside the transcript: open a call in it, or show the calls under a filter.
  const openCallFromInsights = (callKey: string): void => {
    const idx = store.itemOfCallKey(callKey);
    if (idx === null) return;
    changeView('transcript');
    const pos = store.revealItem(idx);
    if (pos < 0) return;
    store.setExpanded(idx, true);
    store.setCursor(pos);
    selectCallOf(idx, true);
    focusAfterScroll.current = true;
    scrollTo(pos, 'start');
  };
  const showCalls = (filter: Partial<Filter>): void => {
    store.setFilter(filter);
    changeView('transcript');
  };

  // Turning redaction on or off reads the source again: the row that was at the top is put back at
  // the top once it has been read again (the list is emptied while the read starts).
  const keepPlace = useRef<{ item: number; emptied: boolean } | null>(null);
  const firstVisibleItem = (): number | null => {
    const pane = rootRef.current?.querySelector<HTMLElement>(`.${styles.transcriptPane}`);
    if (!pane) return null;
    const top = pane.getBoundingClientRect().top;
    for (const row of pane.querySelectorAll<HTMLElement>('[data-item]')) {
      if (row.getBoundingClientRect().bottom > top + 1) return Number(row.dataset.item);
    }
    return null;
  };
  const redactKeepingPlace = useLatestCallback((redact: boolean) => {
    const item = firstVisibleItem();
    keepPlace.current = item === null || item === 0 ? null : { item, emptied: false };
    sharing?.onRedactChange?.(redact);
  });
  const sharingTools = sharing?.onRedactChange ? { ...sharing, onRedactChange: redactKeepingPlace } : sharing;
  useEffect(() => {
    const place = keepPlace.current;
    if (!place) return;
    if (snap.items.size === 0) {
      place.emptied = true;
      return;
    }
    if (!place.emptied || (snap.items.size <= place.item && snap.load.state === 'loading')) return;
    keepPlace.current = null;
    const pos = store.positionOfItem(place.item);
    if (pos >= 0) scrollTo(pos, 'start');
  });

  // Deep link: open the call once it exists (it may arrive long after the first rows).
  const handledCallId = useRef<string | null>(null);
  const openDeepLink = useLatestCallback(() => {
    if (!focusCallId) {
      handledCallId.current = null;
      return;
    }
    if (handledCallId.current === focusCallId) return;
    const idx = store.itemOfCallId(focusCallId);
    if (idx === null) return;
    handledCallId.current = focusCallId;
    const pos = store.revealItem(idx);
    if (pos < 0) return;
    store.setExpanded(idx, true);
    store.setCursor(pos);
    focusAfterScroll.current = true;
    scrollTo(pos, 'start');
  });
  useEffect(() => openDeepLink(), [focusCallId, snap.version, openDeepLink]);

  // Move keyboard focus to the cursor row after it has been scrolled into the DOM.
  useEffect(() => {
    if (!focusAfterScroll.current || snap.cursor === null) return;
    const el = rootRef.current?.querySelector<HTMLElement>('[data-focused] [data-row-focus]');
    if (el) {
      focusAfterScroll.current = false;
      el.focus({ preventScroll: true });
    }
  });

  const moveCursor = (pos: number): void => {
    const n = store.getSnapshot().view.length;
    if (n === 0) return;
    const p = Math.max(0, Math.min(n - 1, pos));
    if (p === n - 1) resumeFollowing();
    else pauseFollowing();
    store.setCursor(p);
    focusAfterScroll.current = true;
    scrollTo(p, 'nearest');
  };

  const onKeyDown = (e: KeyLike): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement;
    if (TYPING.has(target.tagName) || target.isContentEditable) {
      if (e.key === 'Escape') {
        // A search box's own Esc empties it: the search is kept, so j/k then walk its results.
        e.preventDefault();
        target.blur();
        rootRef.current?.focus({ preventScroll: true });
      }
      return;
    }
    // The transcript's keys move its cursor; the other views take their own keys.
    if (shownView !== 'transcript') return;
    // Enter on a control inside an opened row (a tab, "show source", a JSON node) is that control's.
    if (e.key === 'Enter' && target.closest('button, a, summary') && !target.hasAttribute('data-row-focus')) return;
    // Read the store, not the render's snapshot: this also runs from a document listener.
    const snap = store.getSnapshot();
    const cur = snap.cursor;
    switch (e.key) {
      case 'j':
      case 'ArrowDown':
        moveCursor(cur === null ? 0 : cur + 1);
        break;
      case 'k':
      case 'ArrowUp':
        moveCursor(cur === null ? 0 : cur - 1);
        break;
      case 'Home':
        moveCursor(0);
        break;
      case 'End':
        moveCursor(snap.view.length - 1);
        break;
      case 'Enter': {
        if (cur === null) return;
        const idx = snap.view[cur];
        if (idx === undefined) return;
        const open = !snap.expanded.has(idx);
        store.setExpanded(idx, open);
        selectCallOf(idx, open);
        break;
      }
      case 'Escape': {
        const idx = cur !== null ? snap.view[cur] : undefined;
        if (idx !== undefined && snap.expanded.has(idx)) {
          store.setExpanded(idx, false);
          selectCallOf(idx, false);
        } else {
          for (const i of snap.expanded) store.setExpanded(i, false);
          onSelectCall?.(null);
        }
        break;
      }
      case '/':
        searchRef.current?.focus();
        searchRef.current?.select();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  useDocumentKeys(keyboardScope, rootRef, onKeyDown);

  const jumpToLine = (line: number): void => {
    const idx = store.itemNearLine(line);
    if (idx === null) return;
    const pos = store.revealItem(idx);
    if (pos < 0) return;
    store.setCursor(pos);
    focusAfterScroll.current = true;
    scrollTo(pos, 'start');
  };

  const jumpToFinding = ({ line, callKey }: { line: number; callKey?: string }): void => {
    if (callKey !== undefined && store.itemOfCallKey(callKey) !== null) openCallFromInsights(callKey);
    else jumpToLine(line);
  };

  const { load } = snap;
  const loading = request ? request.fetching : load.state === 'loading';
  const failure = request ? request.error : load.state === 'error' ? (load.error ?? 'The session could not be read.') : null;
  // A source with no known size that has not ended: a stream, or a file still being written.
  const live = loading && load.progress.totalBytes === undefined;
  const newRows = Math.max(0, snap.view.length - rowsWhenPaused);
  const sessionLinks = useSessionLinks(store, snap.sessionIds);
  const pct = load.progress.totalBytes ? Math.min(100, (100 * load.progress.bytesRead) / load.progress.totalBytes) : undefined;

  return (
    <div
      ref={rootRef}
      className={`${styles.root} ${className ?? ''}`}
      data-theme={dark ? 'dark' : 'light'}
      data-load-state={load.state}
      onKeyDown={onKeyDown}
      tabIndex={-1}
    >
      <header className={styles.toolbar}>
        <span className={styles.sourceName} title={sourceName}>
          {sourceName ?? 'Session'}
        </span>
        {live ? (
          <span className={styles.live} data-testid="live" title="The source has not ended: rows appear as they are written">
            Live
          </span>
        ) : null}
        <span className={styles.statusText} data-testid="load-status" aria-live="polite">
          {live ? '' : loading ? 'Reading… ' : load.state === 'cancelled' ? 'Cancelled · ' : failure !== null ? 'Failed · ' : ''}
          {formatBytes(load.progress.bytesRead)}
          {load.progress.totalBytes !== undefined && load.progress.totalBytes !== load.progress.bytesRead ? ` of ${formatBytes(load.progress.totalBytes)}` : ''}
          {' · '}
          <span data-testid="records">{load.progress.records.toLocaleString('en')}</span> record{load.progress.records === 1 ? '' : 's'}
        </span>
        {loading ? (
          <>
            {live ? null : <progress className={styles.progress} max={100} value={pct} aria-label="Reading progress" />}
            <button type="button" className={styles.button} onClick={onCancel}>
              {live ? 'Stop' : 'Cancel'}
            </button>
          </>
        ) : null}
        <UsageMeter usage={snap.usage} onOpen={() => changeView('usage')} />
        <span className={styles.grow} />
        {sharingTools ? <SharingTools {...sharingTools} /> : null}
        <button type="button" className={styles.button} onClick={() => setShowDiag((v) => !v)} aria-pressed={showDiag}>
          Diagnostics{snap.counts.bad > 0 ? ` (${snap.counts.bad} bad)` : ''}
        </button>
        <button type="button" className={styles.button} onClick={() => {
            const next = dark ? 'light' : 'dark';
            setChoice(next);
            onThemeChange?.(next);
          }} aria-label={`Switch to ${dark ? 'light' : 'dark'} theme`}>
          {dark ? '☀ Light' : '☾ Dark'}
        </button>
      </header>
      <ViewTabs view={shownView} onChange={changeView} />
      {failure !== null ? (
        <div className={styles.error} role="alert">
          {failure}
          {onRetry ? (
            <button type="button" className={styles.button} onClick={onRetry}>
              Retry
            </button>
          ) : null}
        </div>
      ) : null}
      <div className={styles.main}>
        <aside className={styles.side}>
          <FilterPanel snap={snap} store={store} searchRef={searchRef} />
          {showDiag ? <DiagnosticsPanel snap={snap} onJumpToLine={jumpToLine} /> : null}
          {sharing?.redact ? <SecretsPanel snap={snap} onJumpToFinding={jumpToFinding} /> : null}
          {sharing ? <NotesPanel snap={snap} onOpenCall={(callKey) => jumpToFinding({ line: 0, callKey })} /> : null}
          <p className={styles.keys}>
            <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>Esc</kbd> close · <kbd>/</kbd> search · <kbd>Home</kbd>/<kbd>End</kbd>
          </p>
        </aside>
        {shownView !== 'transcript' ? (
          <Insights view={shownView} snap={snap} store={store} dark={dark} onOpenCall={openCallFromInsights} onShowCalls={showCalls} />
        ) : snap.view.length === 0 ? (
          <div className={styles.empty}>
            {loading
              ? 'Reading…'
              : snap.items.size > 0
                ? isFilterActive(snap.filter)
                  ? 'No rows match the filter.'
                  : 'No rows: the input holds only usage reports (the meter above and the Usage view show them).'
                : failure !== null
                  ? ''
                  : snap.counts.bad > 0
                    ? `No record could be read: ${countOf(snap.counts.bad, 'bad line')} (see Diagnostics).`
                    : 'Nothing to show: the input holds no records.'}
          </div>
        ) : (
          <div className={styles.transcriptPane}>
            <SessionLinksContext.Provider value={sessionLinks}>
              <Transcript
                snap={snap}
                store={store}
                dark={dark}
                scrollRequest={scrollRequest?.scope === filterScope ? scrollRequest : null}
                onToggle={toggle}
                onNeedDetail={onNeedDetail}
                live={live}
                followEnd={live && following}
                onUserScroll={(atEnd) => (atEnd ? resumeFollowing() : pauseFollowing())}
              />
            </SessionLinksContext.Provider>
            {live && !following ? (
              <button type="button" className={styles.jumpToLatest} data-testid="jump-to-latest" onClick={() => moveCursor(Number.MAX_SAFE_INTEGER)}>
                ↓ {newRows > 0 ? `${newRows.toLocaleString('en')} new row${newRows === 1 ? '' : 's'} · ` : ''}Jump to latest
              </button>
            ) : null}
          </div>
        )}
      </div>
    </div>
  );
}

/** What a Subagent call's links need: the sessions read so far, and a way to show one of them. */
function useSessionLinks(store: SessionStore, sessionIds: SessionSnapshot['sessionIds']): SessionLinks {
  return useMemo(() => ({ sessionIds, show: (id: string) => store.setFilter({ sessions: [id] }) }), [store, sessionIds]);
}
