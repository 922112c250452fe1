import { describe, expect, it } from 'vitest';
import { clampWindow, panWindow, zoomWindow, type TimeWindow } from './timelineWindow';

const session = { min: 1000, max: 2000 };
const whole: TimeWindow = { x0: 1000, x1: 2000 };

describe('the timeline window', () => {
  it('zooms about the pointer: the time under it stays under it', () => {
    const w = zoomWindow(session, whole, 0.5, 0.25);
    expect(w).toEqual({ x0: 1125, x1: 1625 });
    expect(w.x0 + (w.x1 - w.x0) * 0.25).toBe(1250);
  });

  it('zooms in no further than a thousandth of a unit', () => {
    let w = whole;
    for (let i = 0; i < 200; i++) w = zoomWindow(session, w, 0.5, 0.5);
    expect(w.x1 - w.x0).toBeCloseTo(1e-3, 9);
    expect((w.x0 + w.x1) / 2).toBeCloseTo(1500, 6);
  });

  it('zooms out no further than twice the session, centred on it', () => {
    let w = whole;
    for (let i = 0; i < 50; i++) w = zoomWindow(session, w, 2, 0.9);
    expect(w).toEqual({ x0: 500, x1: 2500 });
  });

  it('pans no more than half a session past either end', () => {
    let w = whole;
    for (let i = 0; i < 20; i++) w = panWindow(session, w, 1);
    expect(w).toEqual({ x0: 1500, x1: 2500 });
    for (let i = 0; i < 40; i++) w = panWindow(session, w, -1);
    expect(w).toEqual({ x0: 500, x1: 1500 });
  });

  it('shows a session of one instant, or a window that is not a number, as one unit', () => {
    expect(clampWindow({ min: 5, max: 5 }, 5, 5)).toEqual({ x0: 5, x1: 6 });
    expect(clampWindow(session, Number.NaN, 1500).x1 - clampWindow(session, Number.NaN, 1500).x0).toBe(1);
  });
});
