// The state of one virtual list outside React: heights, scroll position, viewport and a pending
// "keep this row in view" target that is re-applied as rows get measured (their real heights
// differ from the estimates, so a single scroll would land in the wrong place).
import { HeightIndex } from './heights';
import { scrollTopFor, visibleRange, type VisibleRange } from './range';

export type Align = 'start' | 'nearest' | 'end';

export class VirtualController {
  readonly heights: HeightIndex;
  private scrollTop = 0;
  private viewport = 0;
  private readonly overscan: number;
  private readonly maxDomHeight: number | undefined;
  private range: VisibleRange;
  private listeners = new Set<() => void>();
  private target: { index: number; align: Align } | null = null;
  /** Stable ids of the rows, when the owner gives them: measurements are kept per id. */
  private ids: readonly number[] | null = null;
  /** Measured height by row id (0: never measured). Ids are small dense integers (item indices). */
  private heightById = new Float64Array(0);

  constructor(opts: { estimate: number; overscan?: number; maxDomHeight?: number }) {
    this.heights = new HeightIndex(opts.estimate);
    this.overscan = opts.overscan ?? 6;
    this.maxDomHeight = opts.maxDomHeight;
    this.range = this.compute();
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): VisibleRange => this.range;

  /** Keys of the rows the list last drew: they stay drawn while new ones are drawn a few per task. */
  private drawn: ReadonlySet<string | number> = new Set();

  get drawnRows(): ReadonlySet<string | number> {
    return this.drawn;
  }

  setDrawnRows(keys: ReadonlySet<string | number>): void {
    this.drawn = keys;
  }

  /** The viewport's height as last reported. */
  get viewportHeight(): number {
    return this.viewport;
  }

  /** The scroll position last reported (by a scroll event or a scroll this controller asked for). */
  get currentScrollTop(): number {
    return this.scrollTop;
  }

  private compute(): VisibleRange {
    return visibleRange({
      heights: this.heights,
      scrollTop: this.scrollTop,
      viewport: this.viewport,
      overscan: this.overscan,
      ...(this.maxDomHeight !== undefined ? { maxDomHeight: this.maxDomHeight } : {}),
    });
  }

  private update(): void {
    const next = this.compute();
    const prev = this.range;
    if (
      next.start === prev.start &&
      next.end === prev.end &&
      next.space.domHeight === prev.space.domHeight &&
      next.rows[0]?.top === prev.rows[0]?.top
    )
      return;
    this.range = next;
    for (const fn of [...this.listeners]) fn();
  }

  setCount(n: number): void {
    if (n === this.heights.count) return;
    this.heights.setCount(n);
    if (this.target && this.target.index >= n) this.target = null;
    this.update();
  }

  setViewport(h: number): void {
    if (h === this.viewport) return;
    this.viewport = h;
    this.update();
  }

  /** Called from the scroll event; `user` false when it is the echo of a scroll this controller asked for. */
  setScrollTop(t: number, user: boolean): void {
    if (user) this.target = null;
    this.scrollTop = t;
    this.update();
  }

  measure(index: number, h: number): void {
    const id = this.ids?.[index];
    if (id !== undefined) this.rememberHeight(id, h);
    if (this.heights.setHeight(index, h)) this.update();
  }

  /**
   * The rows are now these ids, in order (increasing, as item indices in a filtered view are).
   * Rows added at the end keep everything else as it was (a session streaming in); any other
   * change (a filter) re-lays out every row from the heights measured for its id, wherever it was
   * measured, and keeps the first row that was on screen (or the next one still shown) at the top.
   */
  setRows(ids: readonly number[]): void {
    const prev = this.ids;
    this.ids = ids;
    if (prev === ids) return;
    if (prev === null || extends_(prev, ids)) {
      const from = this.heights.count;
      this.heights.setCount(ids.length);
      for (let i = from; i < ids.length; i++) {
        const h = this.heightById[ids[i] ?? -1];
        if (h) this.heights.setHeight(i, h);
      }
      if (this.target && this.target.index >= ids.length) this.target = null;
      this.update();
      return;
    }
    const anchorId = prev[this.firstVisibleRow() ?? this.range.start];
    this.heights.assign(ids.length, (i) => this.heightById[ids[i] ?? -1] || undefined);
    this.target = null;
    if (anchorId !== undefined && ids.length > 0) {
      this.target = { index: Math.min(ids.length - 1, firstAtLeast(ids, anchorId)), align: 'start' };
    }
    this.update();
  }

  /**
   * The first row not scrolled above the top of the viewport, as its index; null when no row is
   * laid out. A row showing less than half a pixel (a fractional scroll position) is not on screen
   * to anyone looking: the next one is named.
   */
  firstVisibleRow(): number | null {
    return this.range.rows.find((r) => r.top + this.heights.heightOf(r.index) > this.scrollTop + 0.5)?.index ?? (this.range.rows.length > 0 ? this.range.start : null);
  }

  private rememberHeight(id: number, h: number): void {
    if (id >= this.heightById.length) {
      const grown = new Float64Array(Math.max(id + 1, this.heightById.length * 2, 64));
      grown.set(this.heightById);
      this.heightById = grown;
    }
    this.heightById[id] = h;
  }

  /** Remember a row to keep in view; returns the scrollTop to apply now. */
  scrollTo(index: number, align: Align): number {
    this.target = { index, align };
    return this.desiredScrollTop() ?? this.scrollTop;
  }

  /** The scrollTop the pending target wants, or null when there is none or it is already there. */
  desiredScrollTop(): number | null {
    if (!this.target) return null;
    const t = scrollTopFor(this.heights, this.target.index, this.viewport, this.scrollTop, this.target.align, this.maxDomHeight);
    // After the first jump, keep the target where it landed rather than re-aligning a 'nearest' row.
    if (this.target.align === 'nearest') this.target = { index: this.target.index, align: t < this.scrollTop ? 'start' : t > this.scrollTop ? 'end' : 'nearest' };
    return Math.abs(t - this.scrollTop) < 0.5 ? null : t;
  }

  clearTarget(): void {
    this.target = null;
  }
}

/** Whether `next` is `prev` with rows added at the end. */
function extends_(prev: readonly number[], next: readonly number[]): boolean {
  if (next.length < prev.length) return false;
  const last = prev.length - 1;
  if (last < 0) return true;
  // Ids increase from 0, so an id equal to its position means every id before it is its position
  // too: both are 0…last, checked in O(1). That is every redraw of an unfiltered million-row
  // session streaming in, where comparing every id took the page longest.
  if (prev[last] === last && next[last] === last) return true;
  for (let i = last; i >= 0; i--) if (prev[i] !== next[i]) return false;
  return true;
}

/** Position of the first id >= `id` in increasing `ids` (ids.length when none is). */
function firstAtLeast(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ids[mid] ?? Infinity) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
