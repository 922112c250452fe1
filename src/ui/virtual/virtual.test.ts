import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HeightIndex } from './heights';
import { visibleRange, scrollTopFor } from './range';
import { MAX_DOM_HEIGHT, scaleSpace, toDom, toVirtual } from './scale';

describe('HeightIndex', () => {
  it('uses estimates until rows are measured, then the measurements', () => {
    const h = new HeightIndex(20);
    h.setCount(5);
    expect(h.total).toBe(100);
    expect(h.offsetOf(3)).toBe(60);
    h.setHeight(1, 50);
    expect(h.total).toBe(130);
    expect(h.offsetOf(2)).toBe(70);
    expect(h.isMeasured(1)).toBe(true);
    expect(h.isMeasured(2)).toBe(false);
  });

  it('finds the row at an offset, including on boundaries and past the end', () => {
    const h = new HeightIndex(10);
    h.setCount(4);
    h.setHeight(2, 30); // rows: [0,10) [10,20) [20,50) [50,60)
    expect(h.indexAt(-5)).toBe(0);
    expect(h.indexAt(0)).toBe(0);
    expect(h.indexAt(9.9)).toBe(0);
    expect(h.indexAt(10)).toBe(1);
    expect(h.indexAt(49)).toBe(2);
    expect(h.indexAt(50)).toBe(3);
    expect(h.indexAt(10_000)).toBe(3);
  });

  it('keeps measurements when rows are appended while a file streams in', () => {
    const h = new HeightIndex(10);
    h.setCount(3);
    h.setHeight(0, 40);
    for (let n = 4; n <= 1000; n++) h.setCount(n);
    expect(h.heightOf(0)).toBe(40);
    expect(h.total).toBe(40 + 999 * 10);
    expect(h.indexAt(45)).toBe(1);
  });

  it('agrees with a naive prefix sum for random heights', () => {
    const h = new HeightIndex(17);
    const n = 500;
    h.setCount(n);
    const naive: number[] = Array.from({ length: n }, () => 17);
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < 300; k++) {
      const i = Math.floor(rnd() * n);
      const v = 5 + Math.floor(rnd() * 200);
      h.setHeight(i, v);
      naive[i] = v;
    }
    let acc = 0;
    for (let i = 0; i < n; i++) {
      expect(h.offsetOf(i)).toBe(acc);
      expect(h.indexAt(acc)).toBe(i);
      acc += naive[i] ?? 0;
    }
    expect(h.total).toBe(acc);
  });
});

describe('scale space', () => {
  it('is the identity below the maximum height', () => {
    const s = scaleSpace(5_000, 500);
    expect(s).toEqual({ domHeight: 5_000, virtualHeight: 5_000, ratio: 1 });
    expect(toVirtual(s, 123)).toBe(123);
  });

  it('maps the first and last scroll positions onto the ends of a list taller than the browser allows', () => {
    const viewport = 800;
    const s = scaleSpace(200_000 * 120, viewport);
    expect(s.domHeight).toBe(MAX_DOM_HEIGHT);
    expect(toVirtual(s, 0)).toBe(0);
    expect(toVirtual(s, MAX_DOM_HEIGHT - viewport)).toBeCloseTo(200_000 * 120 - viewport, 3);
    expect(toDom(s, toVirtual(s, 4_321_000))).toBeCloseTo(4_321_000, 3);
  });
});

describe('visibleRange', () => {
  const make = (n: number, est = 40) => {
    const h = new HeightIndex(est);
    h.setCount(n);
    return h;
  };

  it('draws the rows in the viewport plus the overscan, with their tops', () => {
    const r = visibleRange({ heights: make(100), scrollTop: 400, viewport: 200, overscan: 2 });
    expect(r.start).toBe(8);
    expect(r.end).toBe(18);
    expect(r.rows[0]).toEqual({ index: 8, top: 320 });
  });

  it('draws a bounded number of rows whatever the length, and reaches the last row of 200k', () => {
    const n = 200_000;
    const h = make(n, 120); // 24M px: beyond the DOM cap
    const viewport = 900;
    const r0 = visibleRange({ heights: h, scrollTop: 0, viewport, overscan: 5 });
    expect(r0.rows.length).toBeLessThanOrEqual(Math.ceil(viewport / 120) + 11);
    const endTop = r0.space.domHeight - viewport;
    const r = visibleRange({ heights: h, scrollTop: endTop, viewport, overscan: 5 });
    expect(r.end).toBe(n);
    expect(r.rows.length).toBeLessThanOrEqual(Math.ceil(viewport / 120) + 11);
    const last = r.rows[r.rows.length - 1];
    // The last row ends exactly at the bottom of the spacer, inside the viewport.
    expect(last?.top).toBeCloseTo(r.space.domHeight - 120, 3);
    expect((last?.top ?? 0) + 120).toBeLessThanOrEqual(endTop + viewport + 1e-6);
    // Adjacent rows stay 1:1 (no squashing) even in scaled space.
    const a = r.rows[0];
    const b = r.rows[1];
    expect((b?.top ?? 0) - (a?.top ?? 0)).toBeCloseTo(120, 6);
  });

  it('is empty for an empty list', () => {
    expect(visibleRange({ heights: make(0), scrollTop: 0, viewport: 500, overscan: 3 }).rows).toEqual([]);
  });
});

describe('scrollTopFor', () => {
  it('scrolls minimally to reveal a row, or aligns it to the top', () => {
    const h = new HeightIndex(50);
    h.setCount(100);
    expect(scrollTopFor(h, 2, 200, 0, 'nearest')).toBe(0);
    expect(scrollTopFor(h, 10, 200, 0, 'nearest')).toBe(10 * 50 + 50 - 200);
    expect(scrollTopFor(h, 10, 200, 0, 'start')).toBe(500);
    expect(scrollTopFor(h, 99, 200, 0, 'start')).toBe(100 * 50 - 200);
  });

  it('lands on the last row of a scaled list', () => {
    const h = new HeightIndex(120);
    h.setCount(200_000);
    const viewport = 900;
    const top = scrollTopFor(h, 199_999, viewport, 0, 'end');
    const r = visibleRange({ heights: h, scrollTop: top, viewport, overscan: 0 });
    expect(r.rows.some((row) => row.index === 199_999)).toBe(true);
  });
});

describe('HeightIndex, as rows stream in', () => {
  it('gives the same offsets as plain sums after any mix of appends, shrinks and measurements', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ grow: fc.integer({ min: 0, max: 300 }) }), fc.record({ shrinkTo: fc.nat() }), fc.record({ at: fc.nat(), h: fc.integer({ min: 1, max: 400 }) })), { maxLength: 60 }),
        (ops) => {
          const index = new HeightIndex(20);
          const plain: number[] = [];
          for (const op of ops) {
            if ('grow' in op) {
              index.setCount(plain.length + op.grow);
              for (let k = 0; k < op.grow; k++) plain.push(20);
            } else if ('shrinkTo' in op) {
              const n = plain.length === 0 ? 0 : op.shrinkTo % plain.length;
              index.setCount(n);
              plain.length = n;
            } else if (plain.length > 0) {
              const i = op.at % plain.length;
              index.setHeight(i, op.h);
              plain[i] = op.h;
            }
          }
          let sum = 0;
          for (let i = 0; i < plain.length; i++) {
            expect(index.offsetOf(i)).toBe(sum);
            sum += plain[i] ?? 0;
          }
          expect(index.total).toBe(sum);
        },
      ),
      { numRuns: 300 },
    );
  });
});
