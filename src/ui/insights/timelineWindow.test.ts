import { describe, expect, it } from 'vitest';
import { axisTicks, clampWindow, FIT_PAD_PX, fitWindow, panWindow, tickLabelX, zoomWindow, type TimeWindow } from './timelineWindow';

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

describe('the fitted timeline', () => {
  const px = (w: TimeWindow, t: number, width: number) => ((t - w.x0) / (w.x1 - w.x0)) * width;

  it('keeps the last bar, and an instant call at the very end, inside the canvas', () => {
    const width = 600;
    const w = fitWindow(session, width);
    expect(px(w, session.min, width)).toBeCloseTo(FIT_PAD_PX, 9);
    expect(px(w, session.max, width)).toBeCloseTo(width - FIT_PAD_PX, 9);
    // The canvas paints a bar from floor(start's x): an instant call at max gets a pixel left of the edge.
    expect(Math.floor(px(w, session.max, width))).toBeLessThan(width);
    // Fitted exactly (as it was), that call's first pixel is the canvas's width: off the canvas.
    expect(Math.floor(px(whole, session.max, width))).toBe(width);
    // The fitted window is one the zoom limits allow: zooming from it does not jump.
    const clamped = clampWindow(session, w.x0, w.x1);
    expect(clamped.x0).toBeCloseTo(w.x0, 9);
    expect(clamped.x1).toBeCloseTo(w.x1, 9);
  });

  it('fits an empty or tiny canvas to the session itself', () => {
    expect(fitWindow(session, 0)).toEqual(whole);
    expect(fitWindow({ min: 5, max: 5 }, 0)).toEqual({ x0: 5, x1: 6 });
  });

  it('has a tick at the end of the window when the step lands there, however the step adds up', () => {
    // 0.1 added three times is 0.30000000000000004: past a window ending at 0.3.
    const ticks = axisTicks({ x0: 0, x1: 0.3 }, 0, 0.1, 300);
    expect(ticks.map((tick) => Number(tick.t.toFixed(9)))).toEqual([0, 0.1, 0.2, 0.3]);
    expect(ticks.at(-1)?.x).toBeCloseTo(300, 6);
    const fitted = fitWindow({ min: 0, max: 10 }, 500);
    expect(axisTicks(fitted, 0, 5, 500).map((tick) => tick.t)).toEqual([0, 5, 10]);
  });

  it('puts a label that would run past the right edge on the tick’s left', () => {
    expect(tickLabelX(100, 40, 500)).toBe(103);
    expect(tickLabelX(488, 40, 500)).toBe(445);
    expect(tickLabelX(10, 40, 30)).toBe(0);
  });
});
