import { describe, expect, it } from 'vitest';
import { VirtualController } from './virtualController';

describe('VirtualController', () => {
  it('keeps a requested row in view as the rows around it get their real heights', () => {
    const c = new VirtualController({ estimate: 20, overscan: 0 });
    c.setCount(1000);
    c.setViewport(200);
    const first = c.scrollTo(500, 'start');
    expect(first).toBe(500 * 20);
    c.setScrollTop(first, false);
    // Rows above the target turn out taller than estimated: the target moves down.
    for (let i = 0; i < 500; i += 1) c.measure(i, 30);
    const again = c.desiredScrollTop();
    expect(again).toBe(500 * 30);
    c.setScrollTop(again ?? 0, false);
    expect(c.getSnapshot().rows[0]?.index).toBe(500);
    expect(c.desiredScrollTop()).toBeNull();
  });

  it('names the first row on screen from its own layout: a row scrolled partly out of view counts until its bottom passes the top', () => {
    const c = new VirtualController({ estimate: 20, overscan: 3 });
    expect(c.firstVisibleRow()).toBeNull();
    c.setCount(100);
    c.setViewport(100);
    expect(c.firstVisibleRow()).toBe(0);
    c.measure(10, 50);
    c.setScrollTop(10 * 20 + 49, true);
    expect(c.firstVisibleRow()).toBe(10);
    c.setScrollTop(10 * 20 + 50, true);
    expect(c.firstVisibleRow()).toBe(11);
    // A sliver under half a pixel (a fractional scroll position) is not the row on top.
    c.setScrollTop(10 * 20 + 49.6, true);
    expect(c.firstVisibleRow()).toBe(11);
    c.setScrollTop(10 * 20 + 49.4, true);
    expect(c.firstVisibleRow()).toBe(10);
  });

  it('forgets the target once the user scrolls', () => {
    const c = new VirtualController({ estimate: 20 });
    c.setCount(100);
    c.setViewport(100);
    c.scrollTo(50, 'start');
    c.setScrollTop(37, true);
    c.measure(10, 90);
    expect(c.desiredScrollTop()).toBeNull();
  });

  it('notifies only when what is drawn changes', () => {
    const c = new VirtualController({ estimate: 20, overscan: 2 });
    c.setCount(100);
    c.setViewport(100);
    let n = 0;
    c.subscribe(() => n++);
    c.setScrollTop(0, true);
    expect(n).toBe(0);
    c.setScrollTop(200, true);
    expect(n).toBe(1);
    expect(c.getSnapshot().start).toBe(8);
  });

  it('keeps a measured height with its row when a filter moves the row', () => {
    const c = new VirtualController({ estimate: 20, overscan: 0 });
    const all = Array.from({ length: 100 }, (_, i) => i);
    c.setRows(all);
    c.setViewport(200);
    c.measure(5, 120);
    c.measure(6, 60);
    // Filtered: item 5 is now the second row, item 6 is hidden.
    c.setRows([1, 5, 9]);
    expect(c.heights.heightOf(0)).toBe(20);
    expect(c.heights.heightOf(1)).toBe(120);
    expect(c.heights.heightOf(2)).toBe(20);
    // Back to everything: item 6 has its height again, at its own position.
    c.setRows(all);
    expect(c.heights.heightOf(5)).toBe(120);
    expect(c.heights.heightOf(6)).toBe(60);
  });

  it('adds rows at the end without touching the rows already laid out', () => {
    const c = new VirtualController({ estimate: 20, overscan: 0 });
    c.setRows([0, 1, 2]);
    c.setViewport(100);
    c.measure(1, 55);
    c.setScrollTop(30, true);
    c.setRows([0, 1, 2, 3, 4]);
    expect(c.heights.count).toBe(5);
    expect(c.heights.heightOf(1)).toBe(55);
    expect(c.desiredScrollTop()).toBeNull();
  });

  it('tells rows added to an unfiltered view from a filter that keeps its first rows', () => {
    const c = new VirtualController({ estimate: 20, overscan: 0 });
    c.setRows([0, 1, 2, 3]);
    c.setViewport(100);
    c.measure(3, 70);
    // Every item, grown: item 3 keeps its height in place.
    c.setRows([0, 1, 2, 3, 4, 5]);
    expect(c.heights.heightOf(3)).toBe(70);
    // A filter that keeps items 0 and 1 but not 2 or 3: item 5 is now the third row, at the estimate.
    c.setRows([0, 1, 5]);
    expect(c.heights.count).toBe(3);
    expect(c.heights.heightOf(2)).toBe(20);
    // A filter as long as the unfiltered rows before it, whose last row is not its position: no
    // longer the unfiltered view, so row 2 (now item 6) does not keep item 2's height.
    c.setRows([0, 1, 2, 3]);
    c.measure(2, 90);
    c.setRows([0, 1, 6, 7, 8]);
    expect(c.heights.heightOf(2)).toBe(20);
  });

  it('keeps the first row on screen at the top when a filter changes the rows', () => {
    const c = new VirtualController({ estimate: 20, overscan: 0 });
    c.setRows(Array.from({ length: 1000 }, (_, i) => i));
    c.setViewport(200);
    c.setScrollTop(500 * 20, true);
    expect(c.getSnapshot().rows[0]?.index).toBe(500);
    // Only even items are shown now: item 500 is row 250.
    c.setRows(Array.from({ length: 500 }, (_, i) => i * 2));
    expect(c.desiredScrollTop()).toBe(250 * 20);
    // A filter that hides item 500 keeps the next item that is still shown.
    c.setScrollTop(250 * 20, false);
    c.setRows([3, 499, ...Array.from({ length: 100 }, (_, i) => 777 + i)]);
    expect(c.desiredScrollTop()).toBe(2 * 20);
  });
});
