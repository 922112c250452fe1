import { describe, expect, it } from 'vitest';
import { VirtualController } from './controller';

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
});
