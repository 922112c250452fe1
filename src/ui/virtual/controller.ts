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
    if (this.heights.setHeight(index, h)) this.update();
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
