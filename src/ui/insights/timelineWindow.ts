// The time window the timeline shows, and its limits: never narrower than a thousandth of a unit
// (or the whole session, if that is shorter), never wider than twice the session, and never moved
// more than half a session past either end.

export interface TimeWindow {
  x0: number;
  x1: number;
}

/** The window nearest to [x0, x1] within the limits of a session spanning [min, max]. */
export function clampWindow({ min, max }: { min: number; max: number }, x0: number, x1: number): TimeWindow {
  const full = max - min;
  let span = Math.min(Math.max(x1 - x0, Math.min(full, 1e-3)), full * 2);
  if (!Number.isFinite(span) || span <= 0) span = 1;
  const lo = min - full / 2;
  const hi = max + full / 2;
  let start = (x0 + x1) / 2 - span / 2;
  // A window that is not a number (a gesture's NaN) would blank the canvas: the session's middle instead.
  if (!Number.isFinite(start)) start = (min + max) / 2 - span / 2;
  start = Math.max(lo, Math.min(start, hi - span));
  return { x0: start, x1: start + span };
}

/** `w` zoomed by `factor` (below 1: in) about the point `at` of the way across it (0 left, 1 right), which stays where it is unless a limit moves it. */
export function zoomWindow(bounds: { min: number; max: number }, w: TimeWindow, factor: number, at: number): TimeWindow {
  const t = w.x0 + (w.x1 - w.x0) * at;
  return clampWindow(bounds, t - (t - w.x0) * factor, t + (w.x1 - t) * factor);
}

/** `w` moved by `fraction` of its own width (negative: earlier). */
export function panWindow(bounds: { min: number; max: number }, w: TimeWindow, fraction: number): TimeWindow {
  const dx = (w.x1 - w.x0) * fraction;
  return clampWindow(bounds, w.x0 + dx, w.x1 + dx);
}

/** CSS pixels kept clear on each side of a fitted window, so the first and last bars (an instant one too) and ticks show whole. */
export const FIT_PAD_PX = 12;

/**
 * The window that fits a session spanning [min, max] into `widthPx`, with FIT_PAD_PX clear at each
 * end: fitted to [min, max] exactly, a call ending last ends on the canvas's last pixel, and one
 * that takes no time starts just past it and is not drawn at all.
 */
export function fitWindow({ min, max }: { min: number; max: number }, widthPx: number): TimeWindow {
  const span = max - min || 1;
  const inner = widthPx - 2 * FIT_PAD_PX;
  if (!(inner > 0)) return { x0: min, x1: min + span };
  const pad = (span * FIT_PAD_PX) / inner;
  return { x0: min - pad, x1: min + span + pad };
}

/**
 * The ticks of an axis of `step` counted from `origin`, at their x in a canvas `widthPx` wide showing
 * [x0, x1]: by index, not by adding the step up (which drifts past x1 and loses the last tick).
 */
export function axisTicks(w: TimeWindow, origin: number, step: number, widthPx: number): { t: number; x: number }[] {
  const span = w.x1 - w.x0;
  if (!(step > 0) || !(span > 0)) return [];
  const eps = 1e-9;
  const first = Math.ceil((w.x0 - origin) / step - eps);
  const last = Math.floor((w.x1 - origin) / step + eps);
  const ticks: { t: number; x: number }[] = [];
  for (let k = first; k <= last && ticks.length < 1000; k++) {
    const t = origin + k * step;
    ticks.push({ t, x: ((t - w.x0) / span) * widthPx });
  }
  return ticks;
}

/** Where a tick's label starts: right of the tick, or left of it where it would run past the canvas's right edge. */
export function tickLabelX(x: number, labelWidth: number, widthPx: number, gap = 3): number {
  return x + gap + labelWidth <= widthPx ? x + gap : Math.max(0, x - gap - labelWidth);
}
