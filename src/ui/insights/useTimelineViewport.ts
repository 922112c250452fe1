// The timeline's canvas and the window of time and rows it shows: measured, drawn once a frame,
// zoomed and panned (the wheel, and the calls the pointers and keys make), and the bar under a point.
import { useEffect, useRef, useState } from 'react';
import { barAt, type TimelineLayout } from '../../analysis/timeline';
import { useLatestCallback } from '../useLatestCallback';
import { AXIS_H, drawTimeline, LANE_GAP, ROW_H, type Palette, type Viewport } from './drawTimeline';
import { fitWindow, panWindow, zoomWindow, type TimeWindow } from './timelineWindow';

export interface TimelineViewport {
  boxRef: React.RefObject<HTMLDivElement | null>;
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  /** The canvas's size in CSS pixels. */
  size: { width: number; height: number };
  /** The window shown now (a ref: it changes with every pan, without a render). */
  viewport: React.RefObject<Viewport>;
  /** Shows `next` (and scrolls the rows to `scrollY`): the view no longer fits the session. */
  setView: (next: TimeWindow, scrollY?: number) => void;
  zoomAround: (factor: number, px: number) => void;
  panBy: (dxPx: number, dyPx?: number) => void;
  /** Fits the whole session again, and follows it as it grows. */
  resetView: () => void;
  /** The bar at canvas point (px, py), or null. */
  barUnder: (px: number, py: number) => number | null;
}

export function useTimelineViewport(
  layout: TimelineLayout,
  palette: Palette,
  /** The bars drawn hovered and selected (-1: none). */
  marked: { hovered: number; selected: number },
  /** The view moved: a tooltip where the pointer was no longer points at its bar. */
  onMoved: () => void,
): TimelineViewport {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  // Until the person zooms or pans, the view fits the whole session (and grows with a live one).
  const fit = useRef(true);
  const viewport = useRef<Viewport>({ x0: layout.min, x1: layout.max, scrollY: 0 });
  const frame = useRef<number | null>(null);

  const contentHeight = AXIS_H + layout.rows * ROW_H + layout.lanes.length * LANE_GAP;
  const clampScroll = (y: number): number => Math.max(0, Math.min(y, contentHeight - size.height + ROW_H));

  const draw = useLatestCallback(() => {
    frame.current = null;
    const canvas = canvasRef.current;
    if (!canvas || size.width === 0) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    if (fit.current) viewport.current = { ...viewport.current, ...fitWindow(layout, size.width) };
    const dpr = window.devicePixelRatio || 1;
    drawTimeline(ctx, layout, viewport.current, { width: size.width, height: size.height, dpr, palette, hovered: marked.hovered, selected: marked.selected });
  });
  const redraw = useLatestCallback(() => {
    frame.current ??= requestAnimationFrame(() => draw());
  });
  useEffect(() => () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
  }, []);

  useEffect(() => redraw(), [layout, size, palette, marked.hovered, marked.selected, redraw]);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = (): void => setSize({ width: box.clientWidth, height: box.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const setView = (next: TimeWindow, scrollY = viewport.current.scrollY): void => {
    fit.current = false;
    viewport.current = { ...next, scrollY: clampScroll(scrollY) };
    onMoved();
    redraw();
  };
  const zoomAround = (factor: number, px: number): void => setView(zoomWindow(layout, viewport.current, factor, px / Math.max(1, size.width)));
  const panBy = (dxPx: number, dyPx = 0): void => setView(panWindow(layout, viewport.current, dxPx / Math.max(1, size.width)), viewport.current.scrollY + dyPx);
  const resetView = (): void => {
    fit.current = true;
    viewport.current = { ...fitWindow(layout, size.width), scrollY: 0 };
    redraw();
  };

  // Wheel zooms about the pointer (a trackpad pinch arrives as a ctrl+wheel); shift or a sideways
  // swipe pans. React's wheel listener is passive, so this one is added by hand to keep the page still.
  const onWheel = useLatestCallback((e: WheelEvent) => {
    e.preventDefault();
    const rect = canvasRef.current?.getBoundingClientRect();
    const px = rect ? e.clientX - rect.left : 0;
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? size.height : 1;
    if (e.altKey) panBy(0, e.deltaY * unit);
    else if (e.shiftKey) panBy((e.deltaY || e.deltaX) * unit);
    else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) panBy(e.deltaX * unit);
    else zoomAround(Math.exp(e.deltaY * unit * (e.ctrlKey ? 0.01 : 0.002)), px);
  });
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fn = (e: WheelEvent) => onWheel(e);
    canvas.addEventListener('wheel', fn, { passive: false });
    return () => canvas.removeEventListener('wheel', fn);
  }, [onWheel]);

  const barUnder = (px: number, py: number): number | null => {
    const { x0, x1, scrollY } = viewport.current;
    const y = py + scrollY;
    if (py < AXIS_H) return null;
    const row = rowAtY(layout, y);
    if (row === null) return null;
    const perPx = (x1 - x0) / Math.max(1, size.width);
    return barAt(layout, row, x0 + px * perPx, 3 * perPx);
  };

  return { boxRef, canvasRef, size, viewport, setView, zoomAround, panBy, resetView, barUnder };
}

/** The row whose band holds content-y `y` (lanes are separated by a gap that holds no row). */
function rowAtY(layout: TimelineLayout, y: number): number | null {
  for (let li = 0; li < layout.lanes.length; li++) {
    const lane = layout.lanes[li];
    if (!lane) continue;
    const top = AXIS_H + lane.firstRow * ROW_H + li * LANE_GAP + LANE_GAP;
    if (y < top) return null;
    if (y < top + lane.rows * ROW_H) return lane.firstRow + Math.floor((y - top) / ROW_H);
  }
  return null;
}
