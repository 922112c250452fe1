// The viewer: toolbar, view tabs, the side panels, and the transcript or another view. How each
// part works lives beside it: moving through rows in transcript/useRowNavigation.ts, the keys in
// transcript/useTranscriptKeys.ts, the pane in transcript/TranscriptPane.tsx, the toolbar in
// SessionToolbar.tsx; the state they read and change is the store's (src/store).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLatestCallback } from './useLatestCallback';
import type { CallSummary } from '../model';
import type { SessionSnapshot, SessionStore } from '../store/createSessionStore';
import type { Filter } from '../store/filter';
import { DiagnosticsPanel } from './panels/DiagnosticsPanel';
import { FilterPanel } from './panels/FilterPanel';
import { NotesPanel } from './sharing/NotesPanel';
import { SecretsPanel } from './sharing/SecretsPanel';
import type { SharingProps } from './sharing/SharingTools';
import { Insights } from './insights/Insights';
import { ViewTabs } from './insights/ViewTabs';
import type { ViewName } from './insights/views';
import type { SessionLinks } from './calls/SpawnedSessions';
import { SessionToolbar } from './SessionToolbar';
import { TranscriptPane } from './transcript/TranscriptPane';
import type { ReadRecord } from './transcript/RecordFromSource';
import { useKeepPlace } from './transcript/useKeepPlace';
import { useRowNavigation } from './transcript/useRowNavigation';
import { useTranscriptKeys } from './transcript/useTranscriptKeys';
import { useSessionSnapshot } from './useStore';
import { useThemeChoice, type ThemeChoice } from './useThemeChoice';
import type { VirtualListHandle } from './virtual/VirtualList';
import styles from './SessionView.module.css';

export type { ThemeChoice };

export interface SessionViewProps {
  store: SessionStore;
  onCancel: () => void;
  onRetry?: () => void;
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
  /** Reads an agent's log entry a light read left in the file, when its row is opened. */
  onReadRecord?: ReadRecord;
  /** The view shown (transcript, timeline, stats, sessions, usage); the viewer keeps its own when absent. */
  view?: ViewName;
  onViewChange?: (view: ViewName) => void;
  /** The toolbar's "Redact secrets" toggle and Export menu; absent, neither is shown. */
  sharing?: SharingProps;
}

export function SessionView({ store, onCancel, onRetry, sourceName, theme = 'system', onThemeChange, className, onSelectCall, focusCallId, keyboardScope = 'viewer', onNeedDetail, onReadRecord, view, onViewChange, sharing }: SessionViewProps) {
  const snap = useSessionSnapshot(store);
  const { dark, toggle: toggleTheme } = useThemeChoice(theme, onThemeChange);
  const rootRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listHandle = useRef<VirtualListHandle>(null);
  const [showDiag, setShowDiag] = useState(true);
  const [ownView, setOwnView] = useState<ViewName>(view ?? 'transcript');
  const shownView = view ?? ownView;
  const changeView = (next: ViewName): void => {
    setOwnView(next);
    onViewChange?.(next);
  };
  const nav = useRowNavigation(store, snap, rootRef, onSelectCall);
  const follow = useFollowing(store);

  const moveCursor = (pos: number): void => {
    const p = nav.moveCursor(pos);
    if (p === null) return;
    if (p === store.getSnapshot().shownRows.length - 1) follow.resume();
    else follow.pause();
  };
  const toggle = (itemIndex: number, pos: number): void => {
    store.setCursor(pos);
    nav.setOpen(itemIndex, !store.getSnapshot().expanded.has(itemIndex));
  };
  const onKeyDown = useTranscriptKeys({
    store,
    rootRef,
    searchRef,
    active: shownView === 'transcript',
    keyboardScope,
    moveCursor,
    setOpen: nav.setOpen,
    onCloseAll: () => onSelectCall?.(null),
  });

  // From the views beside the transcript, the Secrets and Notes panels: open a call in the transcript.
  const openCall = (callKey: string): void => {
    const idx = store.itemOfCallKey(callKey);
    if (idx === null) return;
    changeView('transcript');
    nav.showItem(idx, { open: true });
  };
  const showCalls = (filter: Partial<Filter>): void => {
    store.setFilter(filter);
    changeView('transcript');
  };
  const jumpToLine = (line: number): void => {
    const idx = store.itemNearLine(line);
    if (idx !== null) nav.showItem(idx, { open: false });
  };
  const jumpToFinding = ({ line, callKey }: { line: number; callKey?: string }): void => {
    if (callKey !== undefined && store.itemOfCallKey(callKey) !== null) openCall(callKey);
    else jumpToLine(line);
  };

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
    nav.showItem(idx, { open: true, select: false });
  });
  useEffect(() => openDeepLink(), [focusCallId, snap.version, openDeepLink]);

  const keepPlace = useKeepPlace(snap, listHandle, nav.scrollToItem);
  const redactKeepingPlace = useLatestCallback((redact: boolean) => {
    keepPlace();
    sharing?.onRedactChange?.(redact);
  });
  const sharingTools = sharing?.onRedactChange ? { ...sharing, onRedactChange: redactKeepingPlace } : sharing;

  const { load } = snap;
  const failure = load.state === 'error' ? (load.error ?? 'The session could not be read.') : null;
  // A source with no known size that has not ended: a stream, or a file still being written.
  const live = load.state === 'loading' && load.progress.totalBytes === undefined;
  const sessionLinks = useSessionLinks(store, snap.sessionIds);

  return (
    <div
      ref={rootRef}
      className={`${styles.root} ${className ?? ''}`}
      data-theme={dark ? 'dark' : 'light'}
      data-load-state={load.state}
      onKeyDown={onKeyDown}
      tabIndex={-1}
    >
      <SessionToolbar
        snap={snap}
        sourceName={sourceName}
        live={live}
        onCancel={onCancel}
        onOpenUsage={() => changeView('usage')}
        sharing={sharingTools}
        showDiagnostics={showDiag}
        onToggleDiagnostics={() => setShowDiag((v) => !v)}
        dark={dark}
        onToggleTheme={toggleTheme}
      />
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
          <Insights view={shownView} snap={snap} store={store} dark={dark} onOpenCall={openCall} onShowCalls={showCalls} />
        ) : (
          <TranscriptPane
            snap={snap}
            store={store}
            dark={dark}
            sessionLinks={sessionLinks}
            scrollRequest={nav.scrollRequest}
            listHandle={listHandle}
            onToggle={toggle}
            onNeedDetail={onNeedDetail}
            onReadRecord={onReadRecord}
            live={live}
            following={follow.following}
            newRows={Math.max(0, snap.shownRows.length - follow.rowsWhenPaused)}
            onUserScroll={(atEnd) => (atEnd ? follow.resume() : follow.pause())}
            onJumpToLatest={() => moveCursor(Number.MAX_SAFE_INTEGER)}
          />
        )}
      </div>
    </div>
  );
}

/**
 * Following a live source: the newest row stays in view until the person scrolls away from the
 * end; then rows that arrive are counted, and the jump button (or End) brings them back.
 */
function useFollowing(store: SessionStore): { following: boolean; rowsWhenPaused: number; pause: () => void; resume: () => void } {
  const [following, setFollowing] = useState(true);
  const [rowsWhenPaused, setRowsWhenPaused] = useState(0);
  return {
    following,
    rowsWhenPaused,
    pause: () => {
      if (!following) return;
      setFollowing(false);
      setRowsWhenPaused(store.getSnapshot().shownRows.length);
    },
    resume: () => setFollowing(true),
  };
}

/** What a Subagent call's links need: the sessions read so far, and a way to show one of them. */
function useSessionLinks(store: SessionStore, sessionIds: SessionSnapshot['sessionIds']): SessionLinks {
  return useMemo(() => ({ sessionIds, show: (id: string) => store.setFilter({ sessions: [id] }) }), [store, sessionIds]);
}
