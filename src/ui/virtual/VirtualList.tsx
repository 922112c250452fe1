import { useEffect, useImperativeHandle, useLayoutEffect, useReducer, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { VirtualController, type Align } from './virtualController';
import styles from './VirtualList.module.css';

export interface ScrollRequest {
  index: number;
  align: Align;
  /** Changes for every request, so asking twice for the same row scrolls twice. */
  seq: number;
  /** What the index is relative to (the owner's choice, e.g. the filter). */
  scope?: string;
}

/** What the list's owner may ask of it, through `handle`. */
export interface VirtualListHandle {
  /** The first row not scrolled above the top of the list (its index), from the list's own layout; null with no rows. */
  firstVisibleRow(): number | null;
}

export interface VirtualListProps {
  count: number;
  estimate: number;
  /** Key of row i; rows keep their DOM (and measurement) across count changes. */
  rowKey: (index: number) => string | number;
  /**
   * Stable ids of the rows in order (increasing small integers, e.g. item indices of a filtered
   * view). With them, a measured height belongs to its row wherever a filter puts it, and a change
   * of rows keeps the first visible row in place instead of starting over.
   */
  rowIds?: readonly number[];
  renderRow: (index: number) => ReactNode;
  scrollRequest?: ScrollRequest | null;
  className?: string;
  ariaLabel?: string;
  maxDomHeight?: number;
  /** Keep the last row in view as rows are added (a live session being followed). */
  followEnd?: boolean;
  /** A person scrolled: whether they left the view at its end (follow resumes) or not (it pauses). */
  onUserScroll?: (atEnd: boolean) => void;
  handle?: RefObject<VirtualListHandle | null>;
}

/** Within this many pixels of the bottom counts as at the end (sub-pixel layouts never reach it exactly). */
const AT_END_SLACK = 4;

/**
 * Rows a render mounts that were not on screen before; the rest come in the tasks after it. The
 * first rows of a session (or a jump to its end) are a few dozen rows drawn from nothing, markdown
 * and all: in one task that blocked the page for 100-200 ms on a busy machine.
 */
export const NEW_ROWS_PER_TASK = 10;

export function VirtualList({ count, estimate, rowKey, rowIds, renderRow, scrollRequest, className, ariaLabel, maxDomHeight, followEnd, onUserScroll, handle }: VirtualListProps) {
  const [ctl] = useState(() => new VirtualController({ estimate, overscan: 6, ...(maxDomHeight !== undefined ? { maxDomHeight } : {}) }));
  const scrollerRef = useRef<HTMLDivElement>(null);
  const expectedScroll = useRef<number | null>(null);
  useImperativeHandle(handle, () => ({ firstVisibleRow: () => ctl.firstVisibleRow() }), [ctl]);

  useLayoutEffect(() => {
    if (rowIds) ctl.setRows(rowIds);
    else ctl.setCount(count);
  }, [ctl, count, rowIds]);

  const range = useSyncExternalStore(ctl.subscribe, ctl.getSnapshot, ctl.getSnapshot);

  const [applyScroll] = useState(() => (top: number): void => {
    const el = scrollerRef.current;
    if (!el) return;
    // The element moved since the list last knew where it was, and its scroll event has not come
    // yet: a person (or the host page) scrolled. That wins over a target still pending (End, a
    // deep link, following), which would otherwise pull the view back.
    if (Math.abs(el.scrollTop - ctl.currentScrollTop) > 1) {
      ctl.setScrollTop(el.scrollTop, true);
      return;
    }
    expectedScroll.current = top;
    el.scrollTop = top;
    ctl.setScrollTop(el.scrollTop, false);
  });

  // One observer for all rows: measured heights feed the controller, which re-lays out, and a
  // pending scroll target is re-applied now that the rows around it have their real heights.
  const [observer] = useState(() =>
    typeof ResizeObserver === 'function'
      ? new ResizeObserver((entries) => {
          for (const e of entries) {
            const el = e.target as HTMLElement;
            const idx = Number(el.dataset.vindex);
            const h = e.borderBoxSize[0]?.blockSize ?? el.getBoundingClientRect().height;
            if (Number.isFinite(idx) && h > 0) ctl.measure(idx, h);
          }
          const t = ctl.desiredScrollTop();
          if (t !== null) applyScroll(t);
        })
      : null,
  );

  useEffect(() => {
    if (typeof ResizeObserver !== 'function') return;
    const el = scrollerRef.current;
    const vo = new ResizeObserver(() => {
      if (el) ctl.setViewport(el.clientHeight);
    });
    if (el) {
      vo.observe(el);
      ctl.setViewport(el.clientHeight);
    }
    return () => {
      observer?.disconnect();
      vo.disconnect();
    };
  }, [ctl, observer]);

  useLayoutEffect(() => {
    if (!scrollRequest) return;
    const i = Math.max(0, Math.min(count - 1, scrollRequest.index));
    if (count === 0) return;
    applyScroll(ctl.scrollTo(i, scrollRequest.align));
    // count is read, not watched: a request is served once, when it is made
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollRequest, ctl, applyScroll]);

  // Following: each new row (and the row heights that settle after it) keeps the end in view.
  useLayoutEffect(() => {
    if (followEnd && count > 0) applyScroll(ctl.scrollTo(count - 1, 'end'));
  }, [followEnd, count, ctl, applyScroll]);

  // Measurements change the spacer's height only once React has drawn it: a pending target
  // (End, a deep link) is re-applied then, or it would stop where the old height clamped it.
  useLayoutEffect(() => {
    const t = ctl.desiredScrollTop();
    if (t !== null) applyScroll(t);
  }, [range, ctl, applyScroll]);

  // Which rows are mounted: those already drawn stay; at most NEW_ROWS_PER_TASK more per render,
  // those in the viewport first, and another render is asked for in a task of its own if any wait.
  const [, drawMore] = useReducer((n: number) => n + 1, 0);
  const viewTop = ctl.currentScrollTop;
  const viewBottom = viewTop + ctl.viewportHeight;
  const drawn = ctl.drawnRows;
  const shown = range.rows.filter((r) => r.index < count);
  const inView = (r: { top: number }): boolean => r.top + estimate > viewTop && r.top < viewBottom;
  const mount = new Set<string | number>();
  let budget = NEW_ROWS_PER_TASK;
  for (const r of [...shown.filter(inView), ...shown.filter((r) => !inView(r))]) {
    const key = rowKey(r.index);
    if (drawn.has(key)) mount.add(key);
    else if (budget > 0) {
      budget--;
      mount.add(key);
    }
  }
  const waiting = mount.size < shown.length;
  useEffect(() => {
    ctl.setDrawnRows(mount);
    if (!waiting) return;
    const next = setTimeout(drawMore, 0);
    return () => clearTimeout(next);
  });

  const onScroll = (): void => {
    const el = scrollerRef.current;
    if (!el) return;
    const exp = expectedScroll.current;
    const user = exp === null || Math.abs(el.scrollTop - exp) > 1;
    expectedScroll.current = null;
    ctl.setScrollTop(el.scrollTop, user);
    if (user) onUserScroll?.(el.scrollTop + el.clientHeight >= el.scrollHeight - AT_END_SLACK);
  };

  return (
    <div ref={scrollerRef} className={`${styles.scroller} ${className ?? ''}`} onScroll={onScroll} role="list" aria-label={ariaLabel}>
      <div className={styles.spacer} style={{ height: range.space.domHeight }}>
        {shown.map((r) =>
          mount.has(rowKey(r.index)) ? (
            <VirtualRow key={rowKey(r.index)} index={r.index} top={r.top} observer={observer}>
              {renderRow(r.index)}
            </VirtualRow>
          ) : null,
        )}
      </div>
    </div>
  );
}

function VirtualRow({ index, top, observer, children }: { index: number; top: number; observer: ResizeObserver | null; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !observer) return;
    observer.observe(el);
    return () => observer.unobserve(el);
  }, [observer]);
  return (
    <div ref={ref} role="listitem" className={styles.row} data-vindex={index} style={{ transform: `translateY(${top}px)` }}>
      {children}
    </div>
  );
}
