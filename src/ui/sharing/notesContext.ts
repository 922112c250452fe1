// Which notes a viewer shows: its own store (kept in this browser) unless its embedder gives it
// others, as the html export's viewer does with the read-only notes the page carries. Outside a
// viewer there are none.
import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import type { FileNotes } from '../../model/types';
import { fixedNotesStore, type NotesStore } from '../../store/notes';

export const NotesContext = createContext<NotesStore>(fixedNotesStore({}));

export const useNotesStore = (): NotesStore => useContext(NotesContext);

const NO_NOTES: FileNotes = Object.freeze({});

/** The notes on the file with this content hash (none until it is known), read once they are asked for. */
export function useFileNotes(contentHash: string | null): FileNotes {
  const notesStore = useNotesStore();
  const notes = useSyncExternalStore(notesStore.subscribe, () => (contentHash ? notesStore.notesOf(contentHash) : NO_NOTES));
  useEffect(() => {
    if (contentHash) void notesStore.load(contentHash);
  }, [contentHash, notesStore]);
  return notes;
}
