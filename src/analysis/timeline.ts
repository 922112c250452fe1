// The timeline's layout: one lane per session, each call a bar from its start to its end, stacked
// into rows where calls overlap; turns as bands. Pure and columnar (typed arrays), so 100k calls lay
// out in one pass and the canvas that draws them reads numbers, not objects.
import { displayStatus } from '../model/status';
import { isToolCall, type CallSummary, type DisplayStatus, type TranscriptItem } from '../model/types';

/** Bar status codes, as stored in `TimelineLayout.status`. */
export const BAR_STATUS: readonly DisplayStatus[] = ['done', 'failed', 'running', 'pending', 'unfinished'];
const STATUS_CODE = new Map(BAR_STATUS.map((s, i) => [s, i]));

/** Most rows a lane stacks before overlapping calls share its last row. */
export const MAX_ROWS_PER_LANE = 12;

export interface TimelineLane {
  sessionId: string | null;
  /** First row of the lane in the whole timeline. */
  firstRow: number;
  rows: number;
  calls: number;
  /** Where each turn of this session ended, on the timeline's axis, in order. */
  turnEnds: number[];
}

export interface TimelineLayout {
  /**
   * `time`: the axis is the input's time in ms. `order`: the input has no times; calls are laid out
   * one unit each in order of first appearance, and durations are not invented.
   */
  axis: 'time' | 'order';
  /** Calls left off the axis: in time mode, calls the input gives no start time for. */
  untimed: number;
  /** Axis extent. */
  min: number;
  max: number;
  lanes: TimelineLane[];
  rows: number;
  /** Per bar (index = bar): */
  keys: string[];
  ids: string[];
  start: Float64Array;
  end: Float64Array;
  row: Int32Array;
  status: Uint8Array;
  /** Index into `labels`. */
  label: Int32Array;
  /** A permission wait inside the bar (NaN when none or the input has no times for it). */
  waitStart: Float64Array;
  waitEnd: Float64Array;
  labels: string[];
  /** Bar indices of each row, sorted by start: hit-testing searches these. */
  rowBars: Int32Array[];
  /** Longest bar in each row (for hit-testing: a bar starting this far left may still cover a point). */
  rowMaxSpan: Float64Array;
}

export interface TimelineInput {
  calls: Iterable<CallSummary>;
  items: Iterable<TranscriptItem>;
  sessionIds: Iterable<string>;
  ended: boolean;
}

export function timelineLayout({ calls, items, sessionIds, ended }: TimelineInput): TimelineLayout {
  const all: CallSummary[] = [];
  let timedCount = 0;
  let latest = -Infinity;
  for (const call of calls) {
    all.push(call);
    if (call.startMs !== undefined && Number.isFinite(call.startMs)) {
      timedCount++;
      latest = Math.max(latest, call.startMs, call.endMs ?? -Infinity, call.inputEndMs ?? -Infinity);
    }
  }
  // Time mode when calls have times; otherwise order. A call without a start in time mode is counted, not drawn.
  const axis: TimelineLayout['axis'] = timedCount > 0 ? 'time' : 'order';

  const laneIndex = new Map<string | null, number>();
  const lanes: TimelineLane[] = [];
  const laneOf = (id: string | null): number => {
    let i = laneIndex.get(id);
    if (i === undefined) {
      i = lanes.length;
      laneIndex.set(id, i);
      lanes.push({ sessionId: id, firstRow: 0, rows: 1, calls: 0, turnEnds: [] });
    }
    return i;
  };
  for (const id of sessionIds) laneOf(id);

  // Calls by lane as indices into `all`, with their extent in columns (no object per call).
  const perLane: number[][] = lanes.map(() => []);
  const callStart = new Float64Array(all.length);
  const callEnd = new Float64Array(all.length);
  for (let c = 0; c < all.length; c++) {
    const call = all[c];
    if (!call) continue;
    let start: number;
    let end: number;
    if (axis === 'time') {
      if (call.startMs === undefined || !Number.isFinite(call.startMs)) continue;
      start = call.startMs;
      // An open call runs to the latest time the input gives: it has gone on at least that long.
      end = call.endMs ?? (call.inputEndMs ?? latest);
      if (!(end >= start)) end = start;
    } else {
      // The call's own ordinal: the store's map does not iterate in input order.
      start = call.ordinal;
      end = call.ordinal + 1;
    }
    callStart[c] = start;
    callEnd[c] = end;
    (perLane[laneOf(call.sessionId)] ??= []).push(c);
  }

  // Turn ends per lane: a turn_end's time, or (without times) the number of calls before it.
  let callsSoFar = 0;
  for (const item of items) {
    if (item.type === 'call') {
      callsSoFar++;
      continue;
    }
    if (item.type !== 'turn_end') continue;
    const lane = laneIndex.get(item.sessionId);
    const at = axis === 'time' ? item.ts : callsSoFar;
    if (lane === undefined || at === undefined || !Number.isFinite(at)) continue;
    lanes[lane]?.turnEnds.push(at);
  }

  const labelIndex = new Map<string, number>();
  const labels: string[] = [];
  const n = perLane.reduce((sum, l) => sum + l.length, 0);
  const keys: string[] = new Array<string>(n);
  const ids: string[] = new Array<string>(n);
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const row = new Int32Array(n);
  const status = new Uint8Array(n);
  const label = new Int32Array(n);
  const waitStart = new Float64Array(n).fill(NaN);
  const waitEnd = new Float64Array(n).fill(NaN);
  let min = Infinity;
  let max = -Infinity;
  let bar = 0;
  let nextRow = 0;
  for (let li = 0; li < lanes.length; li++) {
    const lane = lanes[li];
    const pending = perLane[li] ?? [];
    if (!lane) continue;
    // Calls mostly arrive in start order: sort only when they did not.
    let sorted = true;
    for (let k = 1; k < pending.length && sorted; k++) {
      const a = pending[k - 1] ?? 0;
      const b = pending[k] ?? 0;
      sorted = (callStart[a] ?? 0) < (callStart[b] ?? 0) || ((callStart[a] ?? 0) === (callStart[b] ?? 0) && (callEnd[a] ?? 0) <= (callEnd[b] ?? 0));
    }
    if (!sorted) pending.sort((a, b) => (callStart[a] ?? 0) - (callStart[b] ?? 0) || (callEnd[a] ?? 0) - (callEnd[b] ?? 0));
    // Greedy interval partitioning: each bar goes in the first row free at its start.
    const rowEnds: number[] = [];
    lane.firstRow = nextRow;
    lane.calls = pending.length;
    for (const c of pending) {
      const call = all[c];
      if (!call) continue;
      const p = { start: callStart[c] ?? 0, end: callEnd[c] ?? 0 };
      let r = 0;
      while (r < rowEnds.length && (rowEnds[r] ?? Infinity) > p.start) r++;
      if (r >= MAX_ROWS_PER_LANE) r = MAX_ROWS_PER_LANE - 1;
      rowEnds[r] = Math.max(rowEnds[r] ?? -Infinity, p.end);
      keys[bar] = call.key;
      ids[bar] = call.id;
      start[bar] = p.start;
      end[bar] = p.end;
      row[bar] = nextRow + r;
      status[bar] = STATUS_CODE.get(displayStatus(call, ended)) ?? 0;
      let l = labelIndex.get(call.label);
      if (l === undefined) {
        l = labels.length;
        labelIndex.set(call.label, l);
        labels.push(call.label);
      }
      label[bar] = l;
      if (axis === 'time' && call.permission) {
        const wait = permissionWait(call);
        if (wait) {
          waitStart[bar] = wait[0];
          waitEnd[bar] = wait[1] ?? p.end;
        }
      }
      min = Math.min(min, p.start);
      max = Math.max(max, p.end);
      bar++;
    }
    lane.rows = Math.max(1, rowEnds.length);
    nextRow += lane.rows;
    for (const t of lane.turnEnds) {
      min = Math.min(min, t);
      max = Math.max(max, t);
    }
  }
  if (!Number.isFinite(min)) {
    min = 0;
    max = 1;
  } else if (max <= min) max = min + 1;

  const rowLists: number[][] = Array.from({ length: nextRow }, () => []);
  const rowMaxSpan = new Float64Array(nextRow);
  // Bars were placed lane by lane in start order, so each row's list comes out sorted by start.
  for (let i = 0; i < n; i++) {
    const r = row[i] ?? 0;
    rowLists[r]?.push(i);
    rowMaxSpan[r] = Math.max(rowMaxSpan[r] ?? 0, (end[i] ?? 0) - (start[i] ?? 0));
  }
  return {
    axis,
    untimed: axis === 'time' ? all.length - timedCount : 0,
    min,
    max,
    lanes,
    rows: nextRow,
    keys,
    ids,
    start,
    end,
    row,
    status,
    label,
    waitStart,
    waitEnd,
    labels,
    rowBars: rowLists.map((l) => Int32Array.from(l)),
    rowMaxSpan,
  };
}

/**
 * When the call waited for a person: from the permission request to the next update of the call
 * after it (the agent going on once answered); the end is null while it is still unanswered.
 */
function permissionWait(call: CallSummary): [number, number | null] | null {
  // A row of a light read has no history: its wait shows once the call is read whole.
  if (!isToolCall(call)) return null;
  const history = call.history;
  for (let i = 0; i < history.length; i++) {
    const h = history[i];
    if (h?.source !== 'permission' || h.ts === undefined) continue;
    for (let j = i + 1; j < history.length; j++) {
      const next = history[j];
      if (next?.ts !== undefined && next.ts >= h.ts) return [h.ts, next.ts];
    }
    return [h.ts, call.endMs ?? null];
  }
  return null;
}

/**
 * The bar at axis position `x` in `row`, or null. `slack` widens bars (in axis units) so a bar
 * thinner than a pixel can still be pointed at; the nearest of the bars covering `x` wins.
 */
export function barAt(layout: TimelineLayout, rowIndex: number, x: number, slack: number): number | null {
  const bars = layout.rowBars[rowIndex];
  if (!bars || bars.length === 0) return null;
  const span = (layout.rowMaxSpan[rowIndex] ?? 0) + slack;
  // The first bar that starts after x + slack; candidates are before it, back to x - span.
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((layout.start[bars[mid] ?? 0] ?? 0) <= x + slack) lo = mid + 1;
    else hi = mid;
  }
  let best: number | null = null;
  let bestDistance = Infinity;
  for (let k = lo - 1; k >= 0; k--) {
    const b = bars[k] ?? 0;
    const s = layout.start[b] ?? 0;
    if (s < x - span) break;
    const e = layout.end[b] ?? s;
    const distance = x < s ? s - x : x > e ? x - e : 0;
    if (distance <= slack && distance < bestDistance) {
      best = b;
      bestDistance = distance;
      if (distance === 0) break;
    }
  }
  return best;
}
