import { lazy, memo, Suspense, useCallback, useEffect, useState } from 'react';
import { SessionViewer, type CallSummary, type CompareCall, type Filter, type ThemeChoice, type ViewName } from '../embed';
import { libraryTables } from '../library/tables';
import type { PageRoute } from '../routes/page';
import { AppBar } from './AppBar';
import { Landing } from './Landing';
import { PasteDialog } from './PasteDialog';
import { Recordings } from './Recordings';
import type { OpenSession, ShellAction } from './shell';
import { withSubagents } from './subagents';
import { useTheme } from './theme';
import { useDropAndPaste } from './useDropAndPaste';
import { newKey, useShell } from './useShell';
import './app.css';

/** Where the app's build puts the export viewer (vite.config.ts): the html export fetches it from there. */
const EXPORT_VIEWER = './export/';

/** `loupe open DIR`'s library: loaded only on that page (it brings the Parquet reader); its tables are fetched while it loads. */
const Library = lazy(() => {
  libraryTables();
  return import('../library/Library').then((m) => ({ default: m.Library }));
});

/** A team's index on a static host (`?index=URL`): the library, its tables fetched from there. */
const TeamLibrary = lazy(() => import('../library/Library').then((m) => ({ default: m.TeamLibrary })));

/** A folder picked in the app ("Open folder…"), indexed in the page: loaded only when one is picked. */
const FolderLibrary = lazy(() => import('../library/FolderLibrary').then((m) => ({ default: m.FolderLibrary })));

export function App() {
  const [shell, dispatch] = useShell();
  const [pasteOpen, setPasteOpen] = useState(false);
  const [theme, chooseTheme] = useTheme();
  const { open, active, folder } = shell;

  // The tab says which session it shows (`loupe open run.jsonl` serves it as session/run.jsonl).
  const shownName = open[active]?.name;
  useEffect(() => {
    document.title = shownName ? `${shownName.split(/[\\/]/).pop() || shownName} — Loupe` : 'Loupe — agent session viewer';
  }, [shownName]);

  // A Claude Code session's sub-agent files, given with it, are read with it (subagents.ts).
  const openFiles = useCallback(
    (files: FileList | File[]) =>
      void withSubagents([...files]).then((sessions) => dispatch({ type: 'opened', sessions: sessions.map(({ name, source }) => ({ key: newKey(), name, source })) })),
    [dispatch],
  );
  const openText = useCallback((text: string) => dispatch({ type: 'opened', sessions: [{ key: newKey(), name: 'Pasted text', source: { text } }] }), [dispatch]);
  const dragging = useDropAndPaste(openFiles, openText);
  const openFromFolder = useCallback((file: File) => openFiles([file]), [openFiles]);

  return (
    <div className="loupe-app">
      <AppBar
        open={open}
        active={active}
        onOpenFiles={openFiles}
        onPickFolder={(files) => dispatch({ type: 'folderPicked', folder: { key: newKey(), files } })}
        onShowLibrary={folder !== null && open.length > 0 ? () => dispatch({ type: 'libraryShown' }) : undefined}
        onPaste={() => setPasteOpen(true)}
        onCompareWith={(file) => dispatch({ type: 'compareChosen', compareWith: { name: file.name, source: file } })}
        onChooseTab={(index) => dispatch({ type: 'tabChosen', index })}
      />
      <main className="loupe-app__main">
        {folder !== null ? (
          <div className="loupe-app__viewer" hidden={open.length > 0}>
            <Suspense fallback={<Loading />}>
              <FolderLibrary key={folder.key} files={folder.files} onOpen={openFromFolder} />
            </Suspense>
          </div>
        ) : null}
        {open.length > 0 ? (
          <OpenSessions open={open} active={active} view={shell.url.view} focus={shell.focus} initialFilter={shell.initialFilter} theme={theme} onThemeChange={chooseTheme} dispatch={dispatch} />
        ) : null}
        {open.length === 0 && folder === null ? <RoutePage route={shell.url.route} /> : null}
      </main>
      {dragging ? <div className="loupe-app__drop">Drop session files to open them</div> : null}
      {pasteOpen ? (
        <PasteDialog
          onClose={() => setPasteOpen(false)}
          onLoad={(text) => {
            setPasteOpen(false);
            openText(text);
          }}
        />
      ) : null}
    </div>
  );
}

function Loading() {
  return <p aria-busy="true">Loading…</p>;
}

/** The page the address names when no session is open: `loupe open DIR` serves ?library, `loupe open` without a file ?recordings. */
function RoutePage({ route }: { route: PageRoute }) {
  switch (route.page) {
    case 'library':
      return (
        <Suspense fallback={<Loading />}>
          <Library />
        </Suspense>
      );
    case 'team':
      return (
        <Suspense fallback={<Loading />}>
          <TeamLibrary index={route.index} />
        </Suspense>
      );
    case 'recordings':
      return <Recordings />;
    case 'session':
    case 'landing':
      return <Landing />;
  }
}

interface OpenSessionsProps {
  open: readonly OpenSession[];
  active: number;
  view: ViewName;
  /** The call the shown viewer is asked to open. */
  focus: CompareCall | null;
  initialFilter: Partial<Filter>;
  theme: ThemeChoice;
  onThemeChange: (choice: ThemeChoice) => void;
  dispatch: (action: ShellAction) => void;
}

/**
 * A viewer per session open, the active one shown and in the address. Not drawn again for a change
 * of the address alone (a filter typed, a call opened): the viewer made it.
 */
const OpenSessions = memo(function OpenSessions({ open, active, view, focus, initialFilter, theme, onThemeChange, dispatch }: OpenSessionsProps) {
  const onFilterChange = useCallback((filter: Filter) => dispatch({ type: 'filterChanged', filter }), [dispatch]);
  const onSelectCall = useCallback((call: CallSummary | null) => dispatch({ type: 'callOpened', call: call ? { run: 'A', id: call.id } : null }), [dispatch]);
  // The view is in the hash beside the call (#view=stats&call=…), so a link opens the same view.
  const onViewChange = useCallback((next: ViewName) => dispatch({ type: 'viewChosen', view: next }), [dispatch]);
  const onCompareCallChange = useCallback((call: CompareCall | null) => dispatch({ type: 'callOpened', call }), [dispatch]);
  const onCompareClose = useCallback(() => dispatch({ type: 'compareClosed' }), [dispatch]);
  return open.map((session, i) => {
    const shown = i === active;
    return (
      <div key={session.key} className="loupe-app__viewer" hidden={!shown}>
        <SessionViewer
          source={session.source}
          {...(session.compareWith
            ? { compareWith: session.compareWith.source, onCompareClose, compareCall: shown ? focus : null, onCompareCallChange: shown ? onCompareCallChange : undefined }
            : {})}
          initialFilter={initialFilter}
          onFilterChange={shown ? onFilterChange : undefined}
          onSelectCall={shown ? onSelectCall : undefined}
          view={shown ? view : undefined}
          onViewChange={shown ? onViewChange : undefined}
          callId={shown ? (focus?.id ?? null) : null}
          keyboardScope={shown ? 'document' : 'viewer'}
          theme={theme}
          onThemeChange={onThemeChange}
          htmlExportViewer={EXPORT_VIEWER}
        />
      </div>
    );
  });
});
