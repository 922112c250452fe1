// Draws a timeline layout on a 2D canvas. One pass over the bars per frame: bars off screen are
// skipped, and a bar thinner than a pixel is drawn only if its row's pixel is not painted yet, so a
// frame costs at most a few rectangles per pixel column whatever the number of calls.
import type { TimelineLayout } from '../../model/timeline';

export const AXIS_H = 22;
export const ROW_H = 14;
const BAR_H = 10;
export const LANE_GAP = 14;

export interface Viewport {
  /** Axis range shown across the canvas. */
  x0: number;
  x1: number;
  /** Content pixels scrolled off the top. */
  scrollY: number;
}

export interface Palette {
  labels: string[];
  bg: string;
  fg: string;
  muted: string;
  grid: string;
  band: string;
  failed: string;
  running: string;
  wait: string;
  focus: string;
}

const LIGHT_LABELS = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#5f6b8a', '#8cd17d'];
const DARK_LABELS = ['#6f9fd8', '#f5a35a', '#7cc26f', '#c99bc0', '#8fd0cb', '#f1d66b', '#c0987e', '#ffb3bb', '#98a6cc', '#a8e29b'];

export function paletteFor(dark: boolean): Palette {
  return dark
    ? { labels: DARK_LABELS, bg: '#17191c', fg: '#e3e5e8', muted: '#9aa3ad', grid: '#2c3036', band: 'rgba(255,255,255,0.035)', failed: '#ff6b5e', running: '#8ab4ff', wait: 'rgba(243,196,107,0.9)', focus: '#ffffff' }
    : { labels: LIGHT_LABELS, bg: '#ffffff', fg: '#1d2127', muted: '#5d6673', grid: '#e3e6ea', band: 'rgba(0,0,0,0.035)', failed: '#c4271b', running: '#1d4fa6', wait: 'rgba(138,90,0,0.85)', focus: '#111111' };
}

const laneOfRowCache = new WeakMap<TimelineLayout, Int32Array>();
function laneOfRow(layout: TimelineLayout): Int32Array {
  let lanes = laneOfRowCache.get(layout);
  if (!lanes) {
    lanes = new Int32Array(layout.rows);
    layout.lanes.forEach((lane, li) => lanes?.fill(li, lane.firstRow, lane.firstRow + lane.rows));
    laneOfRowCache.set(layout, lanes);
  }
  return lanes;
}

/** Content-y of a row's top (lanes are separated by a gap holding the lane's name). */
export function rowTop(layout: TimelineLayout, row: number): number {
  return AXIS_H + row * ROW_H + ((laneOfRow(layout)[row] ?? 0) + 1) * LANE_GAP;
}

// Status codes as in BAR_STATUS: done, failed, running, pending, unfinished.
const FAILED = 1;
const RUNNING = 2;
const PENDING = 3;
const UNFINISHED = 4;

export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  layout: TimelineLayout,
  v: Viewport,
  opts: { width: number; height: number; palette: Palette; hovered: number; selected: number },
): void {
  const { width, height, palette } = opts;
  const span = v.x1 - v.x0 || 1;
  const scale = width / span;
  const toX = (x: number): number => (x - v.x0) * scale;
  const rowLane = laneOfRow(layout);
  ctx.fillStyle = palette.bg;
  ctx.fillRect(0, 0, width, height);

  // Lanes: name, separator, turn bands.
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  for (let li = 0; li < layout.lanes.length; li++) {
    const lane = layout.lanes[li];
    if (!lane) continue;
    const top = AXIS_H + lane.firstRow * ROW_H + li * LANE_GAP - v.scrollY;
    const bottom = top + LANE_GAP + lane.rows * ROW_H;
    if (bottom < AXIS_H || top > height) continue;
    let from = layout.min;
    lane.turnEnds.forEach((t, k) => {
      if (k % 2 === 0) {
        ctx.fillStyle = palette.band;
        const a = Math.max(0, toX(from));
        const b = Math.min(width, toX(t));
        if (b > a) ctx.fillRect(a, top + LANE_GAP, b - a, lane.rows * ROW_H);
      }
      from = t;
    });
    ctx.fillStyle = palette.grid;
    ctx.fillRect(0, top, width, 1);
    ctx.fillStyle = palette.muted;
    ctx.fillText(`${lane.sessionId ?? '(no session)'} · ${lane.calls.toLocaleString('en')} calls`, 4, top + LANE_GAP / 2 + 1);
  }

  // Bars.
  const lastPx = new Float64Array(layout.rows).fill(-Infinity);
  const n = layout.keys.length;
  const colours = palette.labels;
  let currentFill = '';
  const failed: number[] = [];
  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = layout.start[i] ?? 0;
    const e = layout.end[i] ?? s;
    if (e < v.x0 || s > v.x1) continue;
    const row = layout.row[i] ?? 0;
    const y = AXIS_H + row * ROW_H + ((rowLane[row] ?? 0) + 1) * LANE_GAP - v.scrollY + (ROW_H - BAR_H) / 2;
    if (y + BAR_H < AXIS_H || y > height) continue;
    const status = layout.status[i] ?? 0;
    if (status === FAILED) failed.push(i);
    else if (status === RUNNING || status === PENDING || status === UNFINISHED) {
      open.push(i);
      continue;
    }
    let x = toX(s);
    let w = (e - s) * scale;
    if (x < 0) {
      w += x;
      x = 0;
    }
    if (w < 1) {
      const px = Math.floor(x);
      if (px <= (lastPx[row] ?? -Infinity)) continue;
      lastPx[row] = px;
      w = 1;
    } else {
      lastPx[row] = Math.floor(x + w);
    }
    const fill = colours[(layout.label[i] ?? 0) % colours.length] ?? '#888';
    if (fill !== currentFill) {
      ctx.fillStyle = fill;
      currentFill = fill;
    }
    ctx.fillRect(x, y, Math.min(w, width - x), BAR_H);
  }
  // Open calls: running and pending half-filled with a live edge; unfinished hollow.
  for (const i of open) {
    const { x, y, w } = barBox(layout, i, v, scale, width, rowLane);
    const fill = colours[(layout.label[i] ?? 0) % colours.length] ?? '#888';
    const status = layout.status[i] ?? 0;
    if (status === UNFINISHED) {
      ctx.strokeStyle = fill;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(x + 0.75, y + 0.75, Math.max(1, w - 1.5), BAR_H - 1.5);
      ctx.setLineDash([]);
    } else {
      ctx.globalAlpha = 0.45;
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, w, BAR_H);
      ctx.globalAlpha = 1;
      ctx.fillStyle = palette.running;
      ctx.fillRect(x + w - 2, y - 1, 2, BAR_H + 2);
    }
  }
  // Failed calls: a red band under the bar, drawn even where thin bars were merged.
  ctx.fillStyle = palette.failed;
  for (const i of failed) {
    const { x, y, w } = barBox(layout, i, v, scale, width, rowLane);
    ctx.fillRect(x, y + BAR_H - 3, Math.max(w, 2), 3);
    ctx.fillRect(x, y, Math.max(w, 2), 1);
  }
  // Permission waits: a band through the middle of the bar.
  ctx.fillStyle = palette.wait;
  for (let i = 0; i < n; i++) {
    const ws = layout.waitStart[i] ?? NaN;
    if (Number.isNaN(ws)) continue;
    const we = layout.waitEnd[i] ?? ws;
    if (we < v.x0 || ws > v.x1) continue;
    const { y } = barBox(layout, i, v, scale, width, rowLane);
    const x = Math.max(0, toX(ws));
    ctx.fillRect(x, y + BAR_H / 2 - 1.5, Math.max(1, Math.min(width, toX(we)) - x), 3);
  }
  for (const [bar, line] of [[opts.selected, 2], [opts.hovered, 1.5]] as const) {
    if (bar < 0 || bar >= n) continue;
    const { x, y, w } = barBox(layout, bar, v, scale, width, rowLane);
    ctx.strokeStyle = palette.focus;
    ctx.lineWidth = line;
    ctx.strokeRect(x - 1.5, y - 1.5, Math.max(w, 1) + 3, BAR_H + 3);
  }

  drawAxis(ctx, layout, v, width, palette);
}

function barBox(layout: TimelineLayout, i: number, v: Viewport, scale: number, width: number, rowLane: Int32Array): { x: number; y: number; w: number } {
  const s = layout.start[i] ?? 0;
  const e = layout.end[i] ?? s;
  const row = layout.row[i] ?? 0;
  const y = AXIS_H + row * ROW_H + ((rowLane[row] ?? 0) + 1) * LANE_GAP - v.scrollY + (ROW_H - BAR_H) / 2;
  const x = Math.max(-2, (s - v.x0) * scale);
  const w = Math.max(1, Math.min(width + 2, (e - v.x0) * scale) - x);
  return { x, y, w };
}

const STEPS = [1, 2, 5];

/** A tick spacing of 1, 2 or 5 times a power of ten giving ticks at least `minPx` apart. */
export function tickStep(span: number, width: number, minPx = 90): number {
  const raw = (span * minPx) / Math.max(1, width);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  for (const s of STEPS) if (s * power >= raw) return s * power;
  return 10 * power;
}

function drawAxis(ctx: CanvasRenderingContext2D, layout: TimelineLayout, v: Viewport, width: number, palette: Palette): void {
  ctx.fillStyle = palette.bg;
  ctx.fillRect(0, 0, width, AXIS_H);
  ctx.fillStyle = palette.grid;
  ctx.fillRect(0, AXIS_H - 1, width, 1);
  const span = v.x1 - v.x0;
  const step = Math.max(layout.axis === 'order' ? 1 : 1e-3, tickStep(span, width));
  const first = Math.ceil((v.x0 - layout.min) / step) * step + layout.min;
  ctx.fillStyle = palette.muted;
  ctx.textBaseline = 'middle';
  for (let t = first; t <= v.x1; t += step) {
    const x = ((t - v.x0) / span) * width;
    ctx.fillRect(x, AXIS_H - 5, 1, 5);
    const rel = t - layout.min;
    ctx.fillText(layout.axis === 'order' ? `#${Math.round(rel + 1)}` : `+${axisTime(rel, step)}`, x + 3, AXIS_H / 2);
  }
}

function axisTime(ms: number, step: number): string {
  if (step < 1000) return `${(ms / 1000).toFixed(step < 10 ? 3 : step < 100 ? 2 : 1)} s`;
  if (step < 60_000) return `${(ms / 1000).toFixed(0)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min${ms % 60_000 ? ` ${Math.round((ms % 60_000) / 1000)} s` : ''}`;
}
