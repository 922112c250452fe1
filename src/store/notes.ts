// Notes and bookmarks on calls, kept in the browser (IndexedDB, through idb-keyval) under the
// content hash of the file they were written on: opening the same file again brings them back, a
// different file never shows them. They travel as a small sidecar JSON (export / import).
import { get, set } from 'idb-keyval';
import type { CallNote, FileNotes } from '../model';
import type { NotesSidecar } from '../share/exportNotes';



export interface NotesBackend {
  get: (key: string) => Promise<unknown>;
  set: (key: string, value: unknown) => Promise<void>;
}

const idbBackend: NotesBackend = { get: (key) => get(key), set: (key, value) => set(key, value) };

const keyOf = (contentHash: string): string => `loupe-notes:${contentHash}`;

export interface NotesStore {
  subscribe: (listener: () => void) => () => void;
  /** The notes of the file with this hash, as last loaded (empty until `load` has read them). */
  notesOf: (contentHash: string) => FileNotes;
  load: (contentHash: string) => Promise<FileNotes>;
  /** A note with no text and no bookmark is removed. */
  setNote: (contentHash: string, callKey: string, note: CallNote) => Promise<void>;
  sidecar: (contentHash: string) => NotesSidecar;
  /** Adds a sidecar's notes to the file's (theirs win on the same call); refuses notes for another file. */
  importSidecar: (contentHash: string, json: string) => Promise<number>;
  /**
   * Why notes cannot be kept in this browser (no IndexedDB: a sandboxed frame, some private
   * modes, a test DOM), or null. Notes still work for the page's life and can be exported.
   */
  problem: () => string | null;
  /** Notes that can be read but not written: those an html export carries. */
  readOnly: boolean;
}

export function createNotesStore(backend: NotesBackend = idbBackend): NotesStore {
  const cache = new Map<string, FileNotes>();
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of [...listeners]) listener();
  };
  let problem: string | null = null;
  const failed = (err: unknown): void => {
    problem = `notes cannot be kept in this browser (${err instanceof Error ? err.message : String(err)}); they last until the page is closed`;
    changed();
  };
  const save = async (contentHash: string, notes: FileNotes): Promise<void> => {
    cache.set(contentHash, notes);
    changed();
    try {
      await backend.set(keyOf(contentHash), notes);
    } catch (err) {
      failed(err);
    }
  };
  const reads = new Map<string, Promise<void>>();
  const readStored = async (contentHash: string): Promise<void> => {
    let kept: unknown = {};
    try {
      kept = (await backend.get(keyOf(contentHash))) ?? {};
    } catch (err) {
      failed(err);
    }
    const { FILE_NOTES } = await validators();
    const stored = FILE_NOTES.safeParse(kept);
    cache.set(contentHash, { ...(stored.success ? stored.data : {}), ...cache.get(contentHash) });
    changed();
  };
  const store: NotesStore = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notesOf: (contentHash) => cache.get(contentHash) ?? EMPTY,
    problem: () => problem,
    readOnly: false,
    async load(contentHash) {
      // Read once per file: every view that shows notes asks, and later changes are in the cache.
      let reading = reads.get(contentHash);
      if (!reading) {
        reading = readStored(contentHash);
        reads.set(contentHash, reading);
      }
      await reading;
      return store.notesOf(contentHash);
    },
    async setNote(contentHash, callKey, note) {
      const notes = { ...store.notesOf(contentHash) };
      if (note.text.trim() === '' && !note.bookmarked) delete notes[callKey];
      else notes[callKey] = note;
      await save(contentHash, notes);
    },
    sidecar: (contentHash) => ({ loupeNotes: 1, contentHash, notes: { ...store.notesOf(contentHash) } }),
    async importSidecar(contentHash, json) {
      const sidecar = (await validators()).parseSidecar(json);
      if (sidecar.contentHash !== contentHash) throw new Error('these notes were written on another file');
      await save(contentHash, { ...store.notesOf(contentHash), ...sidecar.notes });
      return Object.keys(sidecar.notes).length;
    },
  };
  return store;
}

const EMPTY: FileNotes = Object.freeze({});

/**
 * The notes schemas, loaded when notes are first read: they bring zod, which the page's first
 * paint does not otherwise need on its main thread.
 */
const validators = () => import('../share/exportNotes');

/**
 * Notes fixed when the page was made, read-only, whatever file is open: the ones an html export
 * carries for the one session it holds. They are read from the page as data, so anything that is
 * not notes is dropped (they show once `load` has checked them), and nothing is kept in (or read
 * from) this browser.
 */
export function fixedNotesStore(notes: unknown): NotesStore {
  let fixed: FileNotes = EMPTY;
  let checked: Promise<FileNotes> | null = null;
  const listeners = new Set<() => void>();
  const refuse = (): Promise<never> => Promise.reject(new Error('these notes came with the page and are read-only'));
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notesOf: () => fixed,
    load: () =>
      (checked ??= validators().then(({ FILE_NOTES }) => {
        const parsed = FILE_NOTES.safeParse(notes);
        fixed = Object.freeze(parsed.success ? parsed.data : {});
        for (const listener of [...listeners]) listener();
        return fixed;
      })),
    setNote: refuse,
    importSidecar: refuse,
    sidecar: (contentHash) => ({ loupeNotes: 1, contentHash, notes: { ...fixed } }),
    problem: () => null,
    readOnly: true,
  };
}
