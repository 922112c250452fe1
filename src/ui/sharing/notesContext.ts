// Which notes a viewer shows: its own store (kept in this browser) unless its embedder gives it
// others, as the html export's viewer does with the read-only notes the page carries. Outside a
// viewer there are none.
import { createContext, useContext } from 'react';
import { fixedNotesStore, type NotesStore } from '../../store/notes';

export const NotesContext = createContext<NotesStore>(fixedNotesStore({}));

export const useNotesStore = (): NotesStore => useContext(NotesContext);
