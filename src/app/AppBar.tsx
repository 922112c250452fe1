// The app's bar: open files, a folder, pasted text; compare the session shown with another run;
// the tabs of the sessions open.
import { useRef, type ChangeEvent } from 'react';
import type { OpenSession } from './shell';

const SESSION_FILES = '.jsonl,.json,.ndjson,.txt,application/json,text/plain';

export interface AppBarProps {
  open: readonly OpenSession[];
  active: number;
  onOpenFiles: (files: FileList) => void;
  onPickFolder: (files: File[]) => void;
  /** Back to the picked folder's library; absent when there is none to go back to. */
  onShowLibrary: (() => void) | undefined;
  onPaste: () => void;
  /** A file picked to compare the session shown with. */
  onCompareWith: (file: File) => void;
  onChooseTab: (index: number) => void;
}

export function AppBar({ open, active, onOpenFiles, onPickFolder, onShowLibrary, onPaste, onCompareWith, onChooseTab }: AppBarProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const compareInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement | null>(null);

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    if (e.target.files) onOpenFiles(e.target.files);
    e.target.value = '';
  };
  const onPickFolderFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const files = e.target.files ? [...e.target.files] : [];
    e.target.value = '';
    if (files.length > 0) onPickFolder(files);
  };
  const onPickCompare = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) onCompareWith(file);
    e.target.value = '';
  };

  return (
    <header className="loupe-app__bar">
      <a className="loupe-app__brand" href="./">
        Loupe
      </a>
      <button type="button" onClick={() => fileInput.current?.click()}>
        Open files…
      </button>
      <input ref={fileInput} type="file" multiple hidden accept={SESSION_FILES} onChange={onPick} data-testid="file-input" />
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
        onChange={onPickFolderFiles}
        data-testid="folder-input"
      />
      {onShowLibrary ? (
        <button type="button" onClick={onShowLibrary}>
          Library
        </button>
      ) : null}
      <button type="button" onClick={onPaste}>
        Paste…
      </button>
      {open.length > 0 ? (
        <>
          <button type="button" onClick={() => compareInput.current?.click()} title="Compare the session shown with another run of the same task, step by step">
            Compare with…
          </button>
          <input ref={compareInput} type="file" hidden accept={SESSION_FILES} onChange={onPickCompare} data-testid="compare-input" />
        </>
      ) : null}
      {open.length > 1 ? (
        <nav className="loupe-app__tabs" aria-label="Open files">
          {open.map((l, i) => (
            <button key={l.key} type="button" aria-current={i === active ? 'page' : undefined} onClick={() => onChooseTab(i)}>
              {l.name}
            </button>
          ))}
        </nav>
      ) : null}
      <span className="loupe-app__hint">Drop files anywhere, or paste JSONL</span>
    </header>
  );
}
