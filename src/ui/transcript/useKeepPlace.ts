// Turning redaction on or off reads the source again: the row that was at the top is put back at
// the top once it has been read again (the list is emptied while the read starts).
import { useEffect, useRef, type RefObject } from 'react';
import type { SessionSnapshot } from '../../store/createSessionStore';
import type { VirtualListHandle } from '../virtual/VirtualList';

/** Returns `keepPlace()`: call it before the source is read again; the top row comes back once it is read. */
export function useKeepPlace(snap: SessionSnapshot, list: RefObject<VirtualListHandle | null>, scrollToItem: (itemIndex: number) => void): () => void {
  const place = useRef<{ item: number; emptied: boolean } | null>(null);
  useEffect(() => {
    const p = place.current;
    if (!p) return;
    if (snap.items.size === 0) {
      p.emptied = true;
      return;
    }
    if (!p.emptied || (snap.items.size <= p.item && snap.load.state === 'loading')) return;
    place.current = null;
    scrollToItem(p.item);
  });
  return () => {
    const row = list.current?.firstVisibleRow() ?? null;
    const item = row === null ? undefined : snap.shownRows[row];
    place.current = item === undefined || item === 0 ? null : { item, emptied: false };
  };
}
