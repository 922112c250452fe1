// Moving through the transcript: which row has the cursor, which are open, and where the list
// scrolls. Every way of going to a row (a call opened from another view, a deep link, a line in
// Diagnostics, a secret, j/k) goes through `showItem` or `moveCursor`, so the order is written
// once: reveal it (clearing a filter that hides it), open it, put the cursor on it, scroll to it,
// then give it keyboard focus once it is drawn.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { CallSummary } from '../../model';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import type { Align } from '../virtual/virtualController';
import type { ScrollRequest } from '../virtual/VirtualList';

export interface RowNavigation {
  /** The pending scroll, or null when it was made under another filter (a position means another row there). */
  scrollRequest: ScrollRequest | null;
  /** Reveals the item, opens it if `open`, puts the cursor on it and scrolls it to the top; false when it cannot be shown. */
  showItem: (itemIndex: number, how: { open: boolean; select?: boolean }) => boolean;
  /** Puts the cursor on the row at `pos` of the view (clamped) and keeps it in view; the position moved to, or null with no rows. */
  moveCursor: (pos: number) => number | null;
  /** Scrolls the item to the top without moving the cursor (it must be in the view). */
  scrollToItem: (itemIndex: number) => void;
  /** Opens or closes the item, telling the host which call is open. */
  setOpen: (itemIndex: number, open: boolean) => void;
}

export function useRowNavigation(store: SessionStore, snap: SessionSnapshot, rootRef: RefObject<HTMLElement | null>, onSelectCall?: (call: CallSummary | null) => void): RowNavigation {
  const [scrollRequest, setScrollRequest] = useState<ScrollRequest | null>(null);
  const seq = useRef(0);
  const focusAfterScroll = useRef(false);

  // A request is about a position in one filtered view; under another filter it means another row.
  const scrollTo = (pos: number, align: Align): void => {
    seq.current += 1;
    setScrollRequest({ index: pos, align, seq: seq.current, scope: JSON.stringify(store.getSnapshot().filter) });
  };

  const setOpen = (itemIndex: number, open: boolean): void => {
    store.setExpanded(itemIndex, open);
    if (!onSelectCall) return;
    const it = store.getSnapshot().items.get(itemIndex);
    if (it?.type !== 'call') return;
    onSelectCall(open ? (store.getSnapshot().calls.get(it.callKey) ?? null) : null);
  };

  const showItem: RowNavigation['showItem'] = (itemIndex, { open, select = true }) => {
    const pos = store.revealItem(itemIndex);
    if (pos < 0) return false;
    if (open) {
      if (select) setOpen(itemIndex, true);
      else store.setExpanded(itemIndex, true);
    }
    store.setCursor(pos);
    focusAfterScroll.current = true;
    scrollTo(pos, 'start');
    return true;
  };

  const moveCursor = (pos: number): number | null => {
    const n = store.getSnapshot().shownRows.length;
    if (n === 0) return null;
    const p = Math.max(0, Math.min(n - 1, pos));
    store.setCursor(p);
    focusAfterScroll.current = true;
    scrollTo(p, 'nearest');
    return p;
  };

  const scrollToItem = (itemIndex: number): void => {
    const pos = store.positionOfItem(itemIndex);
    if (pos >= 0) scrollTo(pos, 'start');
  };

  // Keyboard focus goes to the cursor row once it has been scrolled into the DOM.
  useEffect(() => {
    if (!focusAfterScroll.current || store.getSnapshot().cursor === null) return;
    const el = rootRef.current?.querySelector<HTMLElement>('[data-focused] [data-row-focus]');
    if (el) {
      focusAfterScroll.current = false;
      el.focus({ preventScroll: true });
    }
  });

  const scope = JSON.stringify(snap.filter);
  return { scrollRequest: scrollRequest?.scope === scope ? scrollRequest : null, showItem, moveCursor, scrollToItem, setOpen };
}
