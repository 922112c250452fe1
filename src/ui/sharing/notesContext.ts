// Which notes a viewer shows: the page's own (kept in this browser) unless its embedder gives it
// others, as the html export's viewer does with the read-only notes the page carries.
import { createContext, useContext } from 'react';
import { pageNotes, type NotesStore } from '../../store/notes';

export const NotesContext = createContext<NotesStore>(pageNotes);

export const useNotesStore = (): NotesStore => useContext(NotesContext);
