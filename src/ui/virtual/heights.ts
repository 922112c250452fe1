// Row heights for a virtual list: measured where a row has been on screen, estimated elsewhere.
// A Fenwick tree over the heights keeps "offset of row i" and "row at offset y" at O(log n), so
// a 200k-row session can be re-measured on every frame without walking the whole list.

export class HeightIndex {
  private n = 0;
  private tree: Float64Array = new Float64Array(1);
  private heights: Float64Array = new Float64Array(0);
  private measured: Uint8Array = new Uint8Array(0);
  private estimate: number;

  constructor(estimate: number) {
    this.estimate = estimate;
  }

  get count(): number {
    return this.n;
  }

  get total(): number {
    return this.prefix(this.n);
  }

  /** Grow or shrink to `count` rows; new rows take the estimate. */
  setCount(count: number): void {
    if (count === this.n) return;
    if (count < this.n) {
      this.heights = this.heights.slice(0, count);
      this.measured = this.measured.slice(0, count);
      this.n = count;
      this.rebuild();
      return;
    }
    if (count > this.heights.length) {
      // Double the capacity so appending rows while a file streams in stays amortised O(1).
      const cap = Math.max(count, this.heights.length * 2, 64);
      const h = new Float64Array(cap);
      h.set(this.heights.subarray(0, this.n));
      const m = new Uint8Array(cap);
      m.set(this.measured.subarray(0, this.n));
      this.heights = h;
      this.measured = m;
    }
    this.heights.fill(this.estimate, this.n, count);
    this.measured.fill(0, this.n, count);
    // Appending keeps every existing node of the tree (a node sums only rows at or before it):
    // each new node is its row plus the rows its range covers before it, two prefix sums. A
    // million-row session streaming in no longer rebuilds the whole tree on every delta.
    if (this.tree.length < count + 1) {
      const grown = new Float64Array(Math.max(count + 1, this.tree.length * 2));
      grown.set(this.tree.subarray(0, this.n + 1));
      this.tree = grown;
    }
    const from = this.n;
    this.n = count;
    for (let i = from + 1; i <= count; i++) {
      this.tree[i] = (this.heights[i - 1] ?? 0) + this.prefix(i - 1) - this.prefix(i - (i & -i));
    }
  }

  heightOf(i: number): number {
    return this.heights[i] ?? this.estimate;
  }

  isMeasured(i: number): boolean {
    return this.measured[i] === 1;
  }

  /** Record a measured height; returns true when it changed anything. */
  setHeight(i: number, h: number): boolean {
    if (i < 0 || i >= this.n) return false;
    const old = this.heights[i] ?? this.estimate;
    this.measured[i] = 1;
    if (old === h) return false;
    this.heights[i] = h;
    this.add(i, h - old);
    return true;
  }

  /** Every row's height at once (`undefined`: not measured, the estimate stands), in O(n). */
  assign(count: number, heightOf: (i: number) => number | undefined): void {
    this.setCount(count);
    for (let i = 0; i < count; i++) {
      const h = heightOf(i);
      this.heights[i] = h ?? this.estimate;
      this.measured[i] = h === undefined ? 0 : 1;
    }
    this.rebuild();
  }

  /** Forget measurements (e.g. after a width change); estimates are used until rows are re-measured. */
  reset(estimate = this.estimate): void {
    this.estimate = estimate;
    this.heights.fill(estimate, 0, this.n);
    this.measured.fill(0, 0, this.n);
    this.rebuild();
  }

  /** Top of row i (sum of the heights before it). */
  offsetOf(i: number): number {
    return this.prefix(Math.max(0, Math.min(i, this.n)));
  }

  /** Index of the row containing offset y (clamped to the list). */
  indexAt(y: number): number {
    if (this.n === 0) return 0;
    if (y <= 0) return 0;
    // Fenwick descent: the largest idx with prefix(idx) <= y is the row containing y.
    let pos = 0;
    let rem = y;
    let step = 1;
    while (step * 2 <= this.n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n) {
        const v = this.tree[next] ?? 0;
        if (v <= rem) {
          pos = next;
          rem -= v;
        }
      }
    }
    return Math.min(pos, this.n - 1);
  }

  private prefix(count: number): number {
    let s = 0;
    for (let i = count; i > 0; i -= i & -i) s += this.tree[i] ?? 0;
    return s;
  }

  private add(i: number, delta: number): void {
    for (let j = i + 1; j <= this.n; j += j & -j) this.tree[j] = (this.tree[j] ?? 0) + delta;
  }

  private rebuild(): void {
    if (this.tree.length < this.n + 1) this.tree = new Float64Array(Math.max(this.n + 1, this.tree.length * 2));
    this.tree.fill(0);
    for (let i = 1; i <= this.n; i++) {
      this.tree[i] = (this.tree[i] ?? 0) + (this.heights[i - 1] ?? 0);
      const parent = i + (i & -i);
      if (parent <= this.n) this.tree[parent] = (this.tree[parent] ?? 0) + (this.tree[i] ?? 0);
    }
  }
}
