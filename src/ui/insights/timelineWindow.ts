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
