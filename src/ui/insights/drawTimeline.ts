// Draws a timeline layout on a 2D canvas. One pass over the bars per frame into a pixel buffer: bars
// off screen are skipped, and a bar thinner than a pixel is painted only if its row's pixel is not
// painted yet, so a frame costs at most a few spans per pixel column whatever the number of calls.
import type { TimelineLayout } from '../../analysis/timeline';
import { countOf } from '../format';
import { axisTicks, tickLabelX } from './timelineWindow';

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

/** Colours as '#rrggbb' (the pixel buffer takes nothing else). */
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
    ? { labels: DARK_LABELS, bg: '#17191c', fg: '#e3e5e8', muted: '#9aa3ad', grid: '#2c3036', band: '#1f2226', failed: '#ff6b5e', running: '#8ab4ff', wait: '#f3c46b', focus: '#ffffff' }
    : { labels: LIGHT_LABELS, bg: '#ffffff', fg: '#1d2127', muted: '#5d6673', grid: '#e3e6ea', band: '#f5f6f8', failed: '#c4271b', running: '#1d4fa6', wait: '#8a5a00', focus: '#111111' };
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

/** A pixel buffer the size of the canvas, kept between frames. */
const buffers = new WeakMap<CanvasRenderingContext2D, ImageData>();

/** '#rrggbb' as a canvas pixel (RGBA bytes in a little-endian Uint32). */
function packed(hex: string): number {
  const v = Number.parseInt(hex.slice(1, 7), 16);
  return ((255 << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  layout: TimelineLayout,
  v: Viewport,
  opts: { width: number; height: number; dpr: number; palette: Palette; hovered: number; selected: number },
): void {
  const { width, height, palette, dpr } = opts;
  const span = v.x1 - v.x0 || 1;
  const scale = width / span;
  const toX = (x: number): number => (x - v.x0) * scale;
  const rowLane = laneOfRow(layout);

  // The dense part (background, bands, every bar) is painted into a pixel buffer and put on the
  // canvas once: tens of thousands of fillRect calls per frame cost more than the frame has.
  const W = ctx.canvas.width;
  const H = ctx.canvas.height;
  let image = buffers.get(ctx);
  if (image?.width !== W || image.height !== H) {
    image = ctx.createImageData(W, H);
    buffers.set(ctx, image);
  }
  const px = new Uint32Array(image.data.buffer);
  px.fill(packed(palette.bg));
  /** Fills a rectangle given in CSS pixels. */
  const fill = (x: number, y: number, w: number, h: number, colour: number): void => {
    const x0 = Math.max(0, Math.floor(x * dpr));
    const x1 = Math.min(W, Math.max(x0 + 1, Math.floor((x + w) * dpr)));
    const y0 = Math.max(0, Math.floor(y * dpr));
    const y1 = Math.min(H, Math.floor((y + h) * dpr));
    if (x1 <= x0) return;
    for (let row = y0; row < y1; row++) px.fill(colour, row * W + x0, row * W + x1);
  };

  const band = packed(palette.band);
  const grid = packed(palette.grid);
  const laneTitles: [string, number][] = [];
  for (let li = 0; li < layout.lanes.length; li++) {
    const lane = layout.lanes[li];
    if (!lane) continue;
    const top = AXIS_H + lane.firstRow * ROW_H + li * LANE_GAP - v.scrollY;
    const bottom = top + LANE_GAP + lane.rows * ROW_H;
    if (bottom < AXIS_H || top > height) continue;
    let from = layout.min;
    lane.turnEnds.forEach((t, k) => {
      if (k % 2 === 0) {
        const a = Math.max(0, toX(from));
        const b = Math.min(width, toX(t));
        if (b > a) fill(a, top + LANE_GAP, b - a, lane.rows * ROW_H, band);
      }
      from = t;
    });
    fill(0, top, width, 1, grid);
    laneTitles.push([`${lane.sessionId ?? '(no session)'} · ${countOf(lane.calls, 'call')}`, top + LANE_GAP / 2 + 1]);
  }

  // Bars, a row at a time: each bar is one span on the row's first scanline, which is then copied
  // down the bar's height. A bar thinner than a pixel is painted only if its pixel is not yet.
  const n = layout.keys.length;
  const colours = palette.labels.map(packed);
  const failedColour = packed(palette.failed);
  const waitColour = packed(palette.wait);
  const open: number[] = [];
  const failed: number[] = [];
  const barRows = Math.max(1, Math.round(BAR_H * dpr));
  for (let row = 0; row < layout.rows; row++) {
    const y = AXIS_H + row * ROW_H + ((rowLane[row] ?? 0) + 1) * LANE_GAP - v.scrollY + (ROW_H - BAR_H) / 2;
    if (y + BAR_H < AXIS_H || y > height) continue;
    const y0 = Math.floor(y * dpr);
    if (y0 < 0 || y0 >= H) continue;
    const bars = layout.rowBars[row];
    if (!bars) continue;
    // Bars are sorted by start: skip to the first that can reach the view.
    const from = v.x0 - (layout.rowMaxSpan[row] ?? 0);
    let lo = 0;
    let hi = bars.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((layout.start[bars[mid] ?? 0] ?? 0) < from) lo = mid + 1;
      else hi = mid;
    }
    const line = y0 * W;
    let painted = -1;
    for (let k = lo; k < bars.length; k++) {
      const i = bars[k] ?? 0;
      const s = layout.start[i] ?? 0;
      if (s > v.x1) break;
      const e = layout.end[i] ?? s;
      if (e < v.x0) continue;
      const status = layout.status[i] ?? 0;
      if (status === RUNNING || status === PENDING || status === UNFINISHED) {
        open.push(i);
        continue;
      }
      if (status === FAILED) failed.push(i);
      const a = Math.max(0, Math.floor((s - v.x0) * scale * dpr));
      let b = Math.min(W, Math.floor((e - v.x0) * scale * dpr));
      if (b <= a) b = a + 1;
      // Already painted to its end (by an earlier bar in this row): nothing of it would show.
      if (b - 1 <= painted && status !== FAILED) continue;
      px.fill(colours[(layout.label[i] ?? 0) % colours.length] ?? 0, line + a, line + Math.min(W, b));
      painted = Math.max(painted, b - 1);
    }
    for (let r = 1; r < barRows && y0 + r < H; r++) px.copyWithin(line + r * W, line, line + W);
  }
  // Failed calls: a red band under the bar and a line over it, never merged away.
  for (const i of failed) {
    const { x, y, w } = barBox(layout, i, v, scale, width, rowLane);
    fill(x, y + BAR_H - 3, Math.max(w, 2), 3, failedColour);
    fill(x, y, Math.max(w, 2), 1, failedColour);
  }
  // Permission waits: a band through the middle of the bar.
  for (let i = 0; i < n; i++) {
    const ws = layout.waitStart[i] ?? NaN;
    if (Number.isNaN(ws)) continue;
    const we = layout.waitEnd[i] ?? ws;
    if (we < v.x0 || ws > v.x1) continue;
    const { y } = barBox(layout, i, v, scale, width, rowLane);
    const x = Math.max(0, toX(ws));
    fill(x, y + BAR_H / 2 - 1.5, Math.max(1, Math.min(width, toX(we)) - x), 3, waitColour);
  }
  ctx.putImageData(image, 0, 0);

  // The few things left are drawn with the canvas API, in CSS pixels.
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = palette.muted;
  for (const [title, y] of laneTitles) ctx.fillText(title, 4, y);
  // Open calls: running and pending half-filled with a live edge; unfinished hollow and dashed.
  for (const i of open) {
    const { x, y, w } = barBox(layout, i, v, scale, width, rowLane);
    const colour = palette.labels[(layout.label[i] ?? 0) % palette.labels.length] ?? '#888';
    if ((layout.status[i] ?? 0) === UNFINISHED) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(x + 0.75, y + 0.75, Math.max(1, w - 1.5), BAR_H - 1.5);
      ctx.setLineDash([]);
    } else {
      ctx.globalAlpha = 0.45;
      ctx.fillStyle = colour;
      ctx.fillRect(x, y, w, BAR_H);
      ctx.globalAlpha = 1;
      ctx.fillStyle = palette.running;
      ctx.fillRect(x + w - 2, y - 1, 2, BAR_H + 2);
    }
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
  ctx.fillStyle = palette.muted;
  ctx.textBaseline = 'middle';
  for (const { t, x } of axisTicks(v, layout.min, step, width)) {
    // The tick at the right edge is drawn a pixel in, where it shows.
    ctx.fillRect(Math.min(x, width - 1), AXIS_H - 5, 1, 5);
    const rel = t - layout.min;
    const label = layout.axis === 'order' ? `#${Math.round(rel + 1)}` : `+${axisTime(rel, step)}`;
    ctx.fillText(label, tickLabelX(x, ctx.measureText(label).width, width), AXIS_H / 2);
  }
}

function axisTime(ms: number, step: number): string {
  if (step < 1000) return `${(ms / 1000).toFixed(step < 10 ? 3 : step < 100 ? 2 : 1)} s`;
  if (step < 60_000) return `${(ms / 1000).toFixed(0)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min${ms % 60_000 ? ` ${Math.round((ms % 60_000) / 1000)} s` : ''}`;
}
