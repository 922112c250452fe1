import type { HeightIndex } from './heights';
import { scaleSpace, toVirtual, type ScaleSpace } from './scale';

export interface VisibleRow {
  index: number;
  /** Top of the row inside the (possibly scaled) spacer, in DOM pixels. */
  top: number;
}

export interface VisibleRange {
  start: number;
  /** Exclusive. */
  end: number;
  rows: VisibleRow[];
  space: ScaleSpace;
}

export interface RangeInput {
  heights: HeightIndex;
  scrollTop: number;
  viewport: number;
  /** Rows drawn beyond each edge of the viewport, so fast scrolling does not show blanks. */
  overscan: number;
  maxDomHeight?: number;
}

/**
 * Which rows to draw and where. The number of rows is bounded by the viewport and the overscan,
 * whatever the list length.
 */
export function visibleRange({ heights, scrollTop, viewport, overscan, maxDomHeight }: RangeInput): VisibleRange {
  const space = scaleSpace(heights.total, viewport, maxDomHeight);
  const n = heights.count;
  if (n === 0) return { start: 0, end: 0, rows: [], space };
  const clampedTop = Math.max(0, Math.min(scrollTop, Math.max(0, space.domHeight - viewport)));
  const vTop = toVirtual(space, clampedTop);
  const first = heights.indexAt(vTop);
  const last = heights.indexAt(vTop + viewport);
  const start = Math.max(0, first - overscan);
  const end = Math.min(n, last + 1 + overscan);
  const rows: VisibleRow[] = [];
  // Rows keep their real heights relative to each other; only the anchor moves in scaled space.
  for (let i = start; i < end; i++) rows.push({ index: i, top: clampedTop + (heights.offsetOf(i) - vTop) });
  return { start, end, rows, space };
}

/** The DOM scrollTop that brings row `index` into view ('start' aligns it to the top, 'nearest' scrolls minimally). */
export function scrollTopFor(
  heights: HeightIndex,
  index: number,
  viewport: number,
  currentScrollTop: number,
  align: 'start' | 'nearest' | 'end',
  maxDomHeight?: number,
): number {
  const space = scaleSpace(heights.total, viewport, maxDomHeight);
  const top = heights.offsetOf(index);
  const bottom = top + heights.heightOf(index);
  const vTop = toVirtual(space, currentScrollTop);
  let target: number;
  if (align === 'start') target = top;
  else if (align === 'end') target = bottom - viewport;
  else if (top < vTop) target = top;
  else if (bottom > vTop + viewport) target = Math.min(top, bottom - viewport);
  else return currentScrollTop;
  const maxScroll = Math.max(0, space.domHeight - viewport);
  return Math.max(0, Math.min(maxScroll, space.ratio === 1 ? target : target / space.ratio));
}
