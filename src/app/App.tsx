import { lazy, startTransition, Suspense, useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { SessionViewer, type CallSummary, type CompareCall, type Filter, type SessionSource, type ThemeChoice, type ViewName } from '../embed';
import { libraryTables } from '../library/tables';
import { Recordings } from './Recordings';
import { withSubagents } from './subagents';
import { readCallId, readCompareCall, readFilter, readIndex, readSrc, readView, readVs, writeCallId, writeCompareCall, writeFilter, writeVs } from './url';
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

interface Loaded {
  key: number;
  name: string;
  source: SessionSource;
  /** A second run shown aligned with this one, step by step (?vs=, or "Compare with…"). */
  compareWith?: { name: string; source: SessionSource };
}

export const SAMPLES: { href: string; title: string; about: string }[] = [
  { href: 'samples/grok-esc-interrupt.updates.jsonl', title: 'Grok Build: interrupted command', about: 'persisted ACP updates; a sleep 45 cut short by Esc' },
  { href: 'samples/gemini-cli-live-turn.jsonl', title: 'Gemini CLI: live turn', about: 'recorded ACP stdio traffic, both directions' },
  { href: 'samples/golden-p0.ledger.jsonl', title: 'Ledger export', about: 'hash-chained ledger JSONL' },
  {
    href: 'samples/claude-code-2.1.83.jsonl',
    title: 'Claude Code: its own log',
    about: 'a session as Claude Code 2.1.83 wrote it in ~/.claude/projects (the same run as an ACP capture, ten calls)',
  },
];

let nextKey = 1;

function fromLocation(): Loaded[] {
  const src = readSrc(location.search);
  const vs = readVs(location.search);
  return src ? [{ key: nextKey++, name: src, source: src, ...(vs ? { compareWith: { name: vs, source: vs } } : {}) }] : [];
}

export function App() {
  const [loaded, setLoaded] = useState<Loaded[]>(fromLocation);
  const [active, setActive] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [pasteOpen, setPasteOpen] = useState(false);
  const [callId, setCallId] = useState<string | null>(() => readCallId(location.hash));
  const [view, setView] = useState<ViewName>(() => readView(location.hash));
  const [compareCall, setCompareCall] = useState<CompareCall | null>(() => readCompareCall(location.hash));
  const [initialFilter, setInitialFilter] = useState(() => readFilter(location.search));
  const fileInput = useRef<HTMLInputElement>(null);
  const compareInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // The files of the folder picked with "Open folder…": its library stays (hidden) while a session of it is open.
  const [folder, setFolder] = useState<{ key: number; files: File[] } | null>(null);
  // The page follows the viewer's theme toggle (and the system until it is used); the choice is
  // kept for the next visit.
  const [theme, setTheme] = useState<ThemeChoice>(savedTheme);
  useEffect(() => {
    document.documentElement.style.colorScheme = theme === 'system' ? '' : theme;
  }, [theme]);
  // The tab says which session it shows (`loupe open run.jsonl` serves it as session/run.jsonl).
  const shownName = loaded[active]?.name;
  useEffect(() => {
    document.title = shownName ? `${shownName.split(/[\\/]/).pop() || shownName} — Loupe` : 'Loupe — agent session viewer';
  }, [shownName]);
  const chooseTheme = useCallback((choice: ThemeChoice) => {
    setTheme(choice);
    saveTheme(choice);
  }, []);

  // The ?src= the open files came from; null when they were dropped, picked or pasted (or none).
  const openedSrc = useRef<string | null>(readSrc(location.search));

  const open = useCallback((items: Loaded[]) => {
    if (items.length === 0) return;
    openedSrc.current = null;
    // A transition: mounting a whole viewer is rendered in slices, so picking or dropping a file
    // does not block the page in one long task.
    startTransition(() => {
      setLoaded(items);
      setActive(0);
      setCallId(null);
      setInitialFilter({});
    });
    // A local file replaces whatever ?src= named; the filter and call link no longer apply either.
    history.replaceState(null, '', location.pathname);
  }, []);

  const openFiles = useCallback(
    // A Claude Code session's sub-agent files, given with it, are read with it (subagents.ts).
    (files: FileList | File[]) => void withSubagents([...files]).then((sessions) => open(sessions.map(({ name, source }) => ({ key: nextKey++, name, source })))),
    [open],
  );

  useEffect(() => {
    const onHash = () => {
      setCallId(readCallId(location.hash));
      setView(readView(location.hash));
      setCompareCall(readCompareCall(location.hash));
    };
    // Back, Forward and an edited #fragment: the view and call follow the URL. What is open stays
    // open unless the URL names another source: entries the app made (a view switched, a call
    // opened, a filter set) keep the file they were made on, and a dropped file has no URL to
    // come back from, so reading the URL again would close it.
    const onPop = () => {
      const src = readSrc(location.search);
      if (src !== null && src !== openedSrc.current) {
        openedSrc.current = src;
        setInitialFilter(readFilter(location.search));
        setLoaded(fromLocation());
        setActive(0);
      } else if (src !== null) {
        // The same run A: Back and Forward go between it alone and it compared (?vs= added or dropped).
        const vs = readVs(location.search);
        // A file picked to compare with has no address to come back from: it stays.
        const stays = (l: Loaded) => (vs === null ? l.compareWith === undefined || typeof l.compareWith.source !== 'string' : l.compareWith?.source === vs);
        setLoaded((all) => all.map((l) => (stays(l) ? l : { ...l, compareWith: vs === null ? undefined : { name: vs, source: vs } })));
      }
      setCallId(readCallId(location.hash));
      setView(readView(location.hash));
      setCompareCall(readCompareCall(location.hash));
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('popstate', onPop);
    };
  }, []);

  // Drop anywhere on the page.
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      const files = e.dataTransfer?.files;
      if (!files || files.length === 0) return;
      e.preventDefault();
      openFiles(files);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [openFiles]);

  // Paste on the page (outside text fields): files, or JSONL / JSON text.
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
      const files = e.clipboardData?.files;
      if (files && files.length > 0) {
        e.preventDefault();
        openFiles(files);
        return;
      }
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (text.trim()) {
        e.preventDefault();
        open([{ key: nextKey++, name: 'Pasted text', source: { text } }]);
      }
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [open, openFiles]);

  const onFilterChange = useCallback((f: Filter) => {
    history.replaceState(null, '', `${location.pathname}${writeFilter(location.search, f)}${location.hash}`);
  }, []);

  const onSelectCall = useCallback((call: CallSummary | null) => {
    history.replaceState(null, '', `${location.pathname}${location.search}${writeCallId(call?.id ?? null, readView(location.hash))}`);
  }, []);

  // The view is in the hash beside the call (#view=stats&call=…), so a link opens the same view.
  // Each view switched to is a history entry: Back returns to the view before.
  const onViewChange = useCallback((next: ViewName) => {
    setView(next);
    if (next === readView(location.hash)) return;
    history.pushState(null, '', `${location.pathname}${location.search}${writeCallId(readCallId(location.hash), next)}`);
  }, []);

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    if (e.target.files) openFiles(e.target.files);
    e.target.value = '';
  };

  const onPickFolder = (e: ChangeEvent<HTMLInputElement>) => {
    const files = e.target.files ? [...e.target.files] : [];
    e.target.value = '';
    if (files.length === 0) return;
    openedSrc.current = null;
    setFolder({ key: nextKey++, files });
    setLoaded([]);
    history.replaceState(null, '', location.pathname);
  };
  const openFromFolder = useCallback((file: File) => openFiles([file]), [openFiles]);

  // "Compare with…": the file picked is run B beside the session shown (run A).
  const setCompareWith = (compareWith: Loaded['compareWith']) => {
    setLoaded((all) => all.map((l, i) => (i === active ? { ...l, compareWith } : l)));
    if (compareWith === undefined && readVs(location.search) !== null) {
      // Closing is a step of its own: Back returns to the comparison. A call of run B's is not A's to open.
      const call = readCompareCall(location.hash);
      setCompareCall(null);
      setCallId(call?.run === 'A' ? call.id : null);
      history.pushState(null, '', `${location.pathname}${writeVs(location.search, null)}${call?.run === 'A' ? writeCallId(call.id) : ''}`);
    }
  };

  const onCompareCallChange = useCallback((call: CompareCall | null) => {
    history.replaceState(null, '', `${location.pathname}${location.search}${writeCompareCall(call)}`);
  }, []);
  const onPickCompare = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) setCompareWith({ name: file.name, source: file });
    e.target.value = '';
  };

  return (
    <div className="loupe-app">
      <header className="loupe-app__bar">
        <a className="loupe-app__brand" href="./">
          Loupe
        </a>
        <button type="button" onClick={() => fileInput.current?.click()}>
          Open files…
        </button>
        <input ref={fileInput} type="file" multiple hidden accept=".jsonl,.json,.ndjson,.txt,application/json,text/plain" onChange={onPick} data-testid="file-input" />
        <button type="button" onClick={() => folderInput.current?.click()} title="Every session of a folder, as a library with fleet stats (read in this page, nothing is uploaded)">
          Open folder…
        </button>
        <input
          ref={(input) => {
            folderInput.current = input;
            // Not in React's props: set on the element (Chromium, Firefox and Safari all read it).
            if (input) input.webkitdirectory = true;
          }}
          type="file"
          hidden
          onChange={onPickFolder}
          data-testid="folder-input"
        />
        {folder !== null && loaded.length > 0 ? (
          <button type="button" onClick={() => setLoaded([])}>
            Library
          </button>
        ) : null}
        <button type="button" onClick={() => setPasteOpen(true)}>
          Paste…
        </button>
        {loaded.length > 0 ? (
          <>
            <button type="button" onClick={() => compareInput.current?.click()} title="Compare the session shown with another run of the same task, step by step">
              Compare with…
            </button>
            <input ref={compareInput} type="file" hidden accept=".jsonl,.json,.ndjson,.txt,application/json,text/plain" onChange={onPickCompare} data-testid="compare-input" />
          </>
        ) : null}
        {loaded.length > 1 ? (
          <nav className="loupe-app__tabs" aria-label="Open files">
            {loaded.map((l, i) => (
              <button key={l.key} type="button" aria-current={i === active ? 'page' : undefined} onClick={() => setActive(i)}>
                {l.name}
              </button>
            ))}
          </nav>
        ) : null}
        <span className="loupe-app__hint">Drop files anywhere, or paste JSONL</span>
      </header>
      <main className="loupe-app__main">
        {folder !== null ? (
          <div className="loupe-app__viewer" hidden={loaded.length > 0}>
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <FolderLibrary key={folder.key} files={folder.files} onOpen={openFromFolder} />
            </Suspense>
          </div>
        ) : null}
        {loaded.length === 0 ? (
          folder !== null ? null : // `loupe open` without a file serves the page as ?recordings; `loupe open DIR` as ?library.
          new URLSearchParams(location.search).has('library') ? (
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <Library />
            </Suspense>
          ) : readIndex(location.search) !== null ? (
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <TeamLibrary index={readIndex(location.search)!} />
            </Suspense>
          ) : new URLSearchParams(location.search).has('recordings') ? (
            <Recordings />
          ) : (
            <Landing />
          )
        ) : (
          loaded.map((l, i) => (
            <div key={l.key} className="loupe-app__viewer" hidden={i !== active}>
              <SessionViewer
                source={l.source}
                {...(l.compareWith
                  ? { compareWith: l.compareWith.source, onCompareClose: () => setCompareWith(undefined), compareCall: i === active ? compareCall : null, onCompareCallChange: i === active ? onCompareCallChange : undefined }
                  : {})}
                initialFilter={initialFilter}
                onFilterChange={i === active ? onFilterChange : undefined}
                onSelectCall={i === active ? onSelectCall : undefined}
                view={i === active ? view : undefined}
                onViewChange={i === active ? onViewChange : undefined}
                callId={i === active ? callId : null}
                keyboardScope={i === active ? 'document' : 'viewer'}
                theme={theme}
                onThemeChange={chooseTheme}
                htmlExportViewer={EXPORT_VIEWER}
              />
            </div>
          ))
        )}
      </main>
      {dragging ? <div className="loupe-app__drop">Drop session files to open them</div> : null}
      {pasteOpen ? (
        <PasteDialog
          onClose={() => setPasteOpen(false)}
          onLoad={(text) => {
            setPasteOpen(false);
            open([{ key: nextKey++, name: 'Pasted text', source: { text } }]);
          }}
        />
      ) : null}
    </div>
  );
}

export function Landing() {
  return (
    <div className="loupe-app__landing">
      <h1>Loupe</h1>
      <p>
        View a coding-agent session: the logs Claude Code and Codex keep of every session, ACP event streams (<code>loupe tee</code>{' '}
        captures, JSON-RPC, Zed exports, Grok Build updates) and ledger JSONL.
      </p>
      <p>Drop one or more files anywhere on this page, pick them with “Open files…”, paste JSONL text, or load a URL with <code>?src=</code>.</p>
      <h2>Your agents’ own sessions</h2>
      <p>Each agent keeps a log of every session on your machine, one file each:</p>
      <ul data-testid="agent-logs">
        <li>
          Claude Code: <code>~/.claude/projects/&lt;project&gt;/&lt;session&gt;.jsonl</code> (<code>$CLAUDE_CONFIG_DIR</code> moves it)
        </li>
        <li>
          Codex: <code>~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl</code> (<code>$CODEX_HOME</code> moves it)
        </li>
        <li>
          Gemini CLI: <code>~/.gemini/tmp/&lt;project&gt;/chats/</code>
        </li>
      </ul>
      <p>
        Open one here (those folders are hidden: in the file picker, type the path or show hidden files), or from a terminal with{' '}
        <code>loupe open PATH</code>; <code>loupe open</code> with no path lists them all, newest first, and <code>loupe ls</code> prints
        them.
      </p>
      <h2>Samples</h2>
      <ul>
        {SAMPLES.map((s) => (
          <li key={s.href}>
            <a href={`?src=${encodeURIComponent(s.href)}`}>{s.title}</a> — {s.about}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PasteDialog({ onClose, onLoad }: { onClose: () => void; onLoad: (text: string) => void }) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} className="loupe-app__dialog" onClose={onClose} aria-label="Paste a session">
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) onLoad(text);
        }}
      >
        <label htmlFor="loupe-paste">Paste JSONL (one record a line) or a JSON array</label>
        <textarea id="loupe-paste" value={text} onChange={(e) => setText(e.target.value)} rows={14} autoFocus />
        <div className="loupe-app__dialogButtons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={!text.trim()}>
            Load
          </button>
        </div>
      </form>
    </dialog>
  );
}

const THEME_KEY = 'loupe.theme';

/** The theme chosen on an earlier visit; the system's until one is chosen (or where storage is refused). */
function savedTheme(): ThemeChoice {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

function saveTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (a private window's policy): the choice lasts for this visit.
  }
}
