// Notes and bookmarks on calls: written on the call the cursor is on, kept in this browser under
// the file's content hash (so they come back when the same file is opened again), listed with a
// click to show their call, and exported or imported as a sidecar JSON file. Notes an html export
// carries are shown the same way, read-only. With the view redacted, the notes listed (and an html
// page's read-only notes) are shown redacted too: a person's notes hold what they pasted from the
// session. The box a note is being written in shows what is typed.
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { SessionSnapshot } from '../../store/createSessionStore';
import styles from '../SessionView.module.css';
import { downloadBlob } from './download';
import { useFileNotes, useNotesStore } from './notesContext';
import { countOf } from '../format';

/** A note's text as the view shows it: its secrets replaced when the view is redacted (never the raw text meanwhile). */
function NoteText({ text, redact }: { text: string; redact: boolean }) {
  const [redacted, setRedacted] = useState<{ of: string; text: string } | null>(null);
  useEffect(() => {
    if (!redact) return;
    let stale = false;
    // Loaded only when asked for: the ruleset is most of redaction's size.
    void import('../../share/redact/detect')
      .then(({ redactText }) => redactText(text))
      .then((result) => void (stale || setRedacted({ of: text, text: result.text })));
    return () => {
      stale = true;
    };
  }, [text, redact]);
  if (!redact) return <>{text}</>;
  return <>{redacted?.of === text ? redacted.text : '…'}</>;
}

export function NotesPanel({ snap, onOpenCall }: { snap: SessionSnapshot; onOpenCall: (callKey: string) => void }) {
  const notesStore = useNotesStore();
  const hash = snap.contentHash;
  const notes = useFileNotes(hash);
  const problem = useSyncExternalStore(notesStore.subscribe, notesStore.problem);
  const [message, setMessage] = useState<string | null>(null);
  const importRef = useRef<HTMLInputElement>(null);
  const noteBoxId = useId();

  const item = snap.cursor === null ? undefined : snap.items.get(snap.shownRows[snap.cursor] ?? -1);
  const call = item?.type === 'call' ? snap.calls.get(item.callKey) : undefined;
  const note = call ? notes[call.key] : undefined;
  const noted = Object.entries(notes);
  const redact = snap.redaction !== null;

  const importFile = async (file: File): Promise<void> => {
    if (!hash) return;
    try {
      const count = await notesStore.importSidecar(hash, await file.text());
      setMessage(`Imported ${countOf(count, 'note')}.`);
    } catch (err) {
      setMessage(`Not imported: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return (
    <section className={styles.panel} aria-label="Notes" data-panel="notes">
      <div className={styles.panelTitle}>Notes</div>
      {!hash ? (
        <div className={styles.muted}>Notes can be written once the whole file has been read.</div>
      ) : (
        <>
          {notesStore.readOnly ? (
            call ? (
              <div className={styles.noteEditor} data-testid="note-on-call">
                <span className={`${styles.panelSub} ${styles.noteFor}`} title={call.title ?? call.label}>
                  {note?.bookmarked ? '★ ' : ''}Note on {call.title ?? call.label}
                </span>
                <div>{note?.text.trim() ? <NoteText text={note.text} redact={redact} /> : note ? '(bookmarked, no note)' : 'No note on this call.'}</div>
              </div>
            ) : (
              <div className={styles.muted}>These notes came with the page and are read-only. Choose a call to see its note.</div>
            )
          ) : call ? (
            // Not one <label> around it all: the Bookmark button's text would join the box's name.
            <div className={styles.noteEditor}>
              <label htmlFor={noteBoxId} className={`${styles.panelSub} ${styles.noteFor}`} title={call.title ?? call.label}>
                Note on {call.title ?? call.label}
              </label>
              <textarea
                id={noteBoxId}
                rows={3}
                value={note?.text ?? ''}
                onChange={(event) => void notesStore.setNote(hash, call.key, { text: event.target.value, bookmarked: note?.bookmarked ?? false })}
              />
              <button
                type="button"
                className={styles.button}
                aria-pressed={note?.bookmarked ?? false}
                onClick={() => void notesStore.setNote(hash, call.key, { text: note?.text ?? '', bookmarked: !(note?.bookmarked ?? false) })}
              >
                {note?.bookmarked ? '★ Bookmarked' : '☆ Bookmark'}
              </button>
            </div>
          ) : (
            <div className={styles.muted}>Choose a call to write a note on it.</div>
          )}
          {noted.length > 0 ? (
            <ul className={styles.diagList} data-testid="notes-list">
              {noted.map(([key, { text, bookmarked }]) => {
                const noteCall = snap.calls.get(key);
                return (
                  <li key={key}>
                    <button type="button" className={styles.diagItem} disabled={!noteCall} onClick={() => onOpenCall(key)}>
                      {bookmarked ? '★ ' : ''}
                      <span className={styles.lineRef}>{noteCall ? (noteCall.title ?? noteCall.label) : key}</span> <NoteText text={text} redact={redact} />
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <div>
            <button
              type="button"
              className={styles.button}
              disabled={noted.length === 0}
              onClick={() => downloadBlob(new Blob([JSON.stringify(notesStore.sidecar(hash), null, 1)], { type: 'application/json' }), 'session.notes.json')}
            >
              Export notes
            </button>{' '}
            {notesStore.readOnly ? null : (
              <button type="button" className={styles.button} onClick={() => importRef.current?.click()}>
                Import notes
              </button>
            )}
            <input
              ref={importRef}
              type="file"
              accept=".json,application/json"
              hidden
              data-testid="notes-import"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void importFile(file);
              }}
            />
          </div>
          {problem !== null ? <div className={styles.muted}>Note: {problem}.</div> : null}
          {message !== null ? <div className={styles.muted} role="status">{message}</div> : null}
        </>
      )}
    </section>
  );
}
