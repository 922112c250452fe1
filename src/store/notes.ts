// Notes and bookmarks on calls, kept in the browser (IndexedDB, through idb-keyval) under the
// content hash of the file they were written on: opening the same file again brings them back, a
// different file never shows them. They travel as a small sidecar JSON (export / import).
import { get, set } from 'idb-keyval';
import { z } from 'zod';

// No compiled parsers: zod's probe for them (`new Function`) is a violation under the app's CSP.
z.config({ jitless: true });

export interface CallNote {
  text: string;
  bookmarked: boolean;
}

/** Notes of one file, by call key. */
export type FileNotes = Readonly<Record<string, CallNote>>;

export interface NotesBackend {
  get: (key: string) => Promise<unknown>;
  set: (key: string, value: unknown) => Promise<void>;
}

const idbBackend: NotesBackend = { get: (key) => get(key), set: (key, value) => set(key, value) };

const NOTE = z.object({ text: z.string().max(100_000), bookmarked: z.boolean() });
const FILE_NOTES = z.record(z.string(), NOTE);
const SIDECAR = z.object({ loupeNotes: z.literal(1), contentHash: z.string().regex(/^[0-9a-f]{64}$/), notes: FILE_NOTES });
export type NotesSidecar = z.infer<typeof SIDECAR>;

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
  const store: NotesStore = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notesOf: (contentHash) => cache.get(contentHash) ?? EMPTY,
    problem: () => problem,
    async load(contentHash) {
      let kept: unknown = {};
      try {
        kept = (await backend.get(keyOf(contentHash))) ?? {};
      } catch (err) {
        failed(err);
      }
      const stored = FILE_NOTES.safeParse(kept);
      const notes = { ...(stored.success ? stored.data : {}), ...cache.get(contentHash) };
      cache.set(contentHash, notes);
      changed();
      return notes;
    },
    async setNote(contentHash, callKey, note) {
      const notes = { ...store.notesOf(contentHash) };
      if (note.text.trim() === '' && !note.bookmarked) delete notes[callKey];
      else notes[callKey] = note;
      await save(contentHash, notes);
    },
    sidecar: (contentHash) => ({ loupeNotes: 1, contentHash, notes: { ...store.notesOf(contentHash) } }),
    async importSidecar(contentHash, json) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        throw new Error('not a notes file (it is not JSON)');
      }
      const sidecar = SIDECAR.safeParse(parsed);
      if (!sidecar.success) throw new Error('not a Loupe notes file');
      if (sidecar.data.contentHash !== contentHash) throw new Error('these notes were written on another file');
      await save(contentHash, { ...store.notesOf(contentHash), ...sidecar.data.notes });
      return Object.keys(sidecar.data.notes).length;
    },
  };
  return store;
}

const EMPTY: FileNotes = Object.freeze({});

/** The one store of the page: every viewer on it sees the same notes. */
export const pageNotes: NotesStore = createNotesStore();
