import { useEffect, useRef, useState } from 'react';
import type { CallSummary, FileNotes } from '../model';
import { createSessionController, type SessionController } from '../store/sessionController';
import { createSessionStore, type SessionStore } from '../store/createSessionStore';
import type { Filter } from '../store/filter';
import { createNotesStore, fixedNotesStore, type NotesStore } from '../store/notes';
import { ViewerBoundary } from '../ui/boundary/RowBoundary';
import { CompareView, type CompareCall } from '../ui/compare/CompareView';
import { SessionView, type ThemeChoice } from '../ui/SessionView';
import { NotesContext } from '../ui/sharing/notesContext';
import type { ViewName } from '../ui/insights/views';
import type { LoadSource } from '../worker/protocol';

export type SessionSource = File | Blob | string | ReadableStream<Uint8Array> | { text: string } | { records: unknown[] };

export interface SessionViewerProps {
  /** A file or blob, a URL (fetched), a byte stream, pasted text, or already-parsed records. */
  source?: SessionSource;
  /** Called when a call is opened (with it) or closed (with null). */
  onSelectCall?: (call: CallSummary | null) => void;
  initialFilter?: Partial<Filter>;
  /** Called whenever the filter changes, e.g. to keep it in the page's URL. */
  onFilterChange?: (filter: Filter) => void;
  /** Open and scroll to the call with this tool-call id once it has been read. */
  callId?: string | null;
  theme?: ThemeChoice;
  /** Called when the viewer's theme toggle is used. */
  onThemeChange?: (theme: 'light' | 'dark') => void;
  className?: string;
  /** 'document' lets keys typed with nothing focused reach the viewer (for a full-page viewer). */
  keyboardScope?: 'viewer' | 'document';
  /** The view shown: 'transcript' (the default), 'timeline', 'stats', 'sessions' or 'usage'. */
  view?: ViewName;
  /** Called when the view's tab strip is used (or a view opens a call in the transcript). */
  onViewChange?: (view: ViewName) => void;
  /** Read the session redacted from the start (the toolbar's "Redact secrets" toggle changes it). */
  redact?: boolean;
  /**
   * Notes shown read-only on their calls, by call key, instead of the ones kept in this browser
   * (the html export's viewer passes those its page carries). Read once, when the viewer mounts.
   */
  notes?: FileNotes;
  /**
   * The folder URL where the export viewer (`dist/export`: standalone.js, standalone.css) is
   * served, same-origin; with it the Export menu offers a self-contained html page. Fetched only
   * when that export is chosen.
   */
  htmlExportViewer?: string | URL;
  /**
   * Whether the toolbar offers "Redact secrets" (default true). The html export's own viewer passes
   * false: its session was redacted, or deliberately not, when it was exported, and the page
   * carries no ruleset (the largest part of the viewer).
   */
  offerRedaction?: boolean;
  /**
   * A second run of the same task: with it the viewer compares `source` (run A) with this one
   * (run B) step by step, aligned row by row, the first divergence marked (issue 20). A URL that
   * is being followed grows the comparison as it grows.
   */
  compareWith?: SessionSource;
  /** With `compareWith`: offers "Close comparison", which calls this (the host then drops `compareWith`). */
  onCompareClose?: () => void;
  /** With `compareWith`: the call of run A or B to open and scroll to (again each time it changes). */
  compareCall?: CompareCall | null;
  /** With `compareWith`: a call's row was opened in one of the runs (null: closed); a page puts it in its address. */
  onCompareCallChange?: (call: CompareCall | null) => void;
}

function toLoadSource(source: SessionSource): LoadSource {
  if (typeof source === 'string') {
    const base = typeof document !== 'undefined' ? document.baseURI : undefined;
    return { kind: 'url', url: new URL(source, base).href };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    return typeof File !== 'undefined' && source instanceof File ? { kind: 'blob', blob: source, name: source.name } : { kind: 'blob', blob: source };
  }
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) return { kind: 'stream', stream: source };
  if ('records' in source) return { kind: 'records', records: source.records };
  const text = (source as { text?: unknown }).text;
  if (typeof text === 'string') return { kind: 'text', text };
  return { kind: 'stream', stream: source as ReadableStream<Uint8Array> };
}

function nameOf(source: SessionSource | undefined): string | undefined {
  if (source === undefined) return undefined;
  if (typeof source === 'string') return source;
  if (typeof File !== 'undefined' && source instanceof File) return source.name;
  if (typeof Blob !== 'undefined' && source instanceof Blob) return 'Blob';
  if ('records' in source) return `${source.records.length} records`;
  return 'text' in source ? 'Pasted text' : 'Stream';
}

/** The viewer. Each instance owns its store and parser worker, so several can share a page. */
export function SessionViewer(props: SessionViewerProps) {
  return (
    <ViewerBoundary>
      <ViewerInner {...props} />
    </ViewerBoundary>
  );
}

/**
 * The session shown (run A when compared), read once: its store, read and redaction outlive the
 * switch between the single view and a comparison, so "Compare with…" reads only the new run, and
 * closing the comparison shows the session again without reading it again.
 */
interface ShownRun {
  store: SessionStore;
  controller: SessionController;
  read: SourceRead;
  redact: boolean;
  setRedact: (redact: boolean) => void;
}

function ViewerInner(props: SessionViewerProps) {
  const [store] = useState<SessionStore>(() => createSessionStore(props.initialFilter ? { initialFilter: props.initialFilter } : {}));
  const controller = useController(store);
  // Redacting reads the source again, with each line's secrets replaced in the parser (both runs, compared).
  const [redact, setRedact] = useState(props.redact ?? false);
  const read = useSourceRead(controller, props.source, redact);
  const shown: ShownRun = { store, controller, read, redact, setRedact };
  return props.compareWith === undefined || props.source === undefined ? (
    <SingleViewer {...props} shown={shown} />
  ) : (
    <CompareViewer {...props} source={props.source} compareWith={props.compareWith} shown={shown} />
  );
}

/** A controller for a store, disposed when the viewer goes (deferred: StrictMode unmounts and remounts at once). */
function useController(store: SessionStore): SessionController {
  const [controller] = useState<SessionController>(() => createSessionController(store));
  const disposeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (disposeTimer.current) clearTimeout(disposeTimer.current);
    return () => {
      disposeTimer.current = setTimeout(() => controller.dispose(), 0);
    };
  }, [controller]);
  return controller;
}

interface SourceRead {
  /** Reads the source again (Retry). */
  retry: () => void;
}

/**
 * Reads `source` into the controller's store, once per source (by identity), redaction and Retry;
 * none while there is no source. The store is the one place the read's state is (reading, failed,
 * cancelled, done): the viewer shows it from there, once. A read left behind (another source, the
 * viewer gone) is stopped; StrictMode's unmount and remount at once leave the same read going.
 */
function useSourceRead(controller: SessionController, source: SessionSource | undefined, redact: boolean): SourceRead {
  const [attempt, setAttempt] = useState(0);
  const running = useRef<{ source: SessionSource; redact: boolean; attempt: number; stop: AbortController; stopping?: ReturnType<typeof setTimeout> } | null>(null);
  useEffect(() => {
    if (source === undefined) return;
    let read = running.current;
    if (read && read.source === source && read.redact === redact && read.attempt === attempt) {
      clearTimeout(read.stopping);
    } else {
      read = { source, redact, attempt, stop: new AbortController() };
      running.current = read;
      // A failure is in the store's load state, which the viewer shows.
      controller.load({ ...toLoadSource(source), redact }, read.stop.signal).catch(() => undefined);
    }
    const started = read;
    return () => {
      started.stopping = setTimeout(() => {
        started.stop.abort();
        if (running.current === started) running.current = null;
      }, 0);
    };
  }, [controller, source, redact, attempt]);
  return { retry: () => setAttempt((n) => n + 1) };
}

/** Two runs compared: each read into a store of its own, as the single viewer reads one. */
function CompareViewer({ source, compareWith, theme, className, keyboardScope, onCompareClose, compareCall, onCompareCallChange, offerRedaction = true, shown }: SessionViewerProps & { source: SessionSource; compareWith: SessionSource; shown: ShownRun }) {
  // Redacting reads both runs again, as the single viewer reads its one; a stream cannot be.
  const { redact, setRedact, store: storeA, controller: controllerA } = shown;
  const rereadable = toLoadSource(source).kind !== 'stream' && toLoadSource(compareWith).kind !== 'stream';
  const [storeB] = useState<SessionStore>(() => createSessionStore());
  const controllerB = useController(storeB);
  // A run that cannot be read is said once, by the comparison (from its store's load state).
  useSourceRead(controllerB, compareWith, redact);
  return (
    <CompareView
      storeA={storeA}
      storeB={storeB}
      nameA={nameOf(source)}
      nameB={nameOf(compareWith)}
      onNeedDetailA={controllerA.needDetail}
      onNeedDetailB={controllerB.needDetail}
      theme={theme ?? 'system'}
      className={className}
      keyboardScope={keyboardScope ?? 'viewer'}
      onClose={onCompareClose}
      redact={redact}
      onRedactChange={rereadable && offerRedaction ? setRedact : undefined}
      openCall={compareCall ?? null}
      onOpenCall={onCompareCallChange}
    />
  );
}

function SingleViewer({ source, onSelectCall, onFilterChange, callId, theme, onThemeChange, className, keyboardScope, view, onViewChange, notes: givenNotes, htmlExportViewer, offerRedaction = true, shown }: SessionViewerProps & { shown: ShownRun }) {
  const { store, controller, read, redact, setRedact } = shown;
  const [notes] = useState<NotesStore>(() => (givenNotes ? fixedNotesStore(givenNotes) : createNotesStore()));

  useEffect(() => {
    if (!onFilterChange) return;
    let last = store.getSnapshot().filter;
    return store.subscribe(() => {
      const f = store.getSnapshot().filter;
      if (f !== last) {
        last = f;
        onFilterChange(f);
      }
    });
  }, [store, onFilterChange]);

  // No source: nothing is shown, and a read still running stops.
  useEffect(() => {
    if (source !== undefined) return;
    controller.cancel();
    store.reset();
  }, [source, controller, store]);

  const loadSource = source === undefined ? undefined : { ...toLoadSource(source), redact };
  // A stream is read once: only a source that can be read again can be exported as jsonl or redacted.
  const rereadable = loadSource !== undefined && loadSource.kind !== 'stream';

  return (
    <NotesContext.Provider value={notes}>
      <SessionView
        store={store}
        onCancel={() => controller.cancel()}
        onRetry={typeof source === 'string' ? read.retry : undefined}
        sourceName={nameOf(source)}
        theme={theme ?? 'system'}
        onThemeChange={onThemeChange}
        className={className}
        onSelectCall={onSelectCall}
        focusCallId={callId ?? null}
        keyboardScope={keyboardScope ?? 'viewer'}
        onNeedDetail={controller.needDetail}
        onReadRecord={controller.readRecord}
        view={view}
        onViewChange={onViewChange}
        sharing={{
          redact,
          offerRedaction,
          ...(rereadable && offerRedaction ? { onRedactChange: setRedact } : {}),
          ...(loadSource && rereadable
            ? {
                // Loaded on first use: exporting re-reads the source with the model, which the page
                // does not otherwise need on its main thread.
                exportAs: async (format) =>
                  (await import('./exportSession')).exportSession(format, loadSource, store.getSnapshot(), nameOf(source) ?? 'session', { notes, ...(htmlExportViewer !== undefined ? { htmlViewer: htmlExportViewer } : {}) }),
                htmlExport: htmlExportViewer !== undefined,
              }
            : {}),
        }}
      />
    </NotesContext.Provider>
  );
}
