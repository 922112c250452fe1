// The transcript's keys: j/k and the arrows move the cursor, Home/End, Enter opens, Esc closes,
// / goes to the search box. With `keyboardScope` 'document' they are also taken when nothing in
// particular has focus (the standalone app).
import type { RefObject } from 'react';
import type { SessionStore } from '../../store/createSessionStore';
import { useDocumentKeys } from '../useDocumentKeys';
import type { RowNavigation } from './useRowNavigation';

export interface KeyLike {
  key: string;
  target: EventTarget | null;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  preventDefault(): void;
}

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

export interface TranscriptKeysOptions {
  store: SessionStore;
  rootRef: RefObject<HTMLElement | null>;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Whether the transcript is the view shown: the other views take their own keys. */
  active: boolean;
  keyboardScope: 'viewer' | 'document';
  moveCursor: (pos: number) => void;
  setOpen: RowNavigation['setOpen'];
  /** Esc with no open row under the cursor closes every row: the host hears that no call is open. */
  onCloseAll: () => void;
}

/** The key handler for the viewer's root (and the document, in 'document' scope). */
export function useTranscriptKeys({ store, rootRef, searchRef, active, keyboardScope, moveCursor, setOpen, onCloseAll }: TranscriptKeysOptions): (e: KeyLike) => void {
  const onKeyDown = (e: KeyLike): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement;
    if (TYPING.has(target.tagName) || target.isContentEditable) {
      if (e.key === 'Escape') {
        // A search box's own Esc empties it: the search is kept, so j/k then walk its results.
        e.preventDefault();
        target.blur();
        rootRef.current?.focus({ preventScroll: true });
      }
      return;
    }
    if (!active) return;
    // Enter on a control inside an opened row (a tab, "show source", a JSON node) is that control's.
    if (e.key === 'Enter' && target.closest('button, a, summary') && !target.hasAttribute('data-row-focus')) return;
    // Read the store, not a render's snapshot: this also runs from a document listener.
    const snap = store.getSnapshot();
    const cur = snap.cursor;
    switch (e.key) {
      case 'j':
      case 'ArrowDown':
        moveCursor(cur === null ? 0 : cur + 1);
        break;
      case 'k':
      case 'ArrowUp':
        moveCursor(cur === null ? 0 : cur - 1);
        break;
      case 'Home':
        moveCursor(0);
        break;
      case 'End':
        moveCursor(snap.shownRows.length - 1);
        break;
      case 'Enter': {
        const idx = cur === null ? undefined : snap.shownRows[cur];
        if (idx === undefined) return;
        setOpen(idx, !snap.expanded.has(idx));
        break;
      }
      case 'Escape': {
        const idx = cur !== null ? snap.shownRows[cur] : undefined;
        if (idx !== undefined && snap.expanded.has(idx)) setOpen(idx, false);
        else {
          for (const i of snap.expanded) store.setExpanded(i, false);
          onCloseAll();
        }
        break;
      }
      case '/':
        searchRef.current?.focus();
        searchRef.current?.select();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  useDocumentKeys(keyboardScope, rootRef, onKeyDown);

  return onKeyDown;
}
