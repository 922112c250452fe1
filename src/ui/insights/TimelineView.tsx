import { useMemo, useState, type KeyboardEvent } from 'react';
import { useLiveSnapshot } from './useLiveSnapshot';
import { BAR_STATUS, timelineLayout, type TimelineLayout } from '../../analysis/timeline';
import type { CallSummary } from '../../model';
import type { SessionSnapshot } from '../../store/createSessionStore';
import { formatCount } from './format';
import { formatDuration } from '../format';
import { ROW_H, AXIS_H, type Viewport, rowTop, paletteFor } from './drawTimeline';
import styles from './timeline.module.css';
import { clampWindow } from './timelineWindow';
import { countOf } from '../format';
import { useTimelinePointers, type Hover } from './useTimelinePointers';
import { useTimelineViewport } from './useTimelineViewport';

export interface TimelineViewProps {
  snap: SessionSnapshot;
  dark: boolean;
  onOpenCall: (callKey: string) => void;
}

const ZOOM_STEP = 1.5;

/**
 * Calls as bars on a canvas, a lane per session. Wheel or pinch zooms, drag or arrow keys pan,
 * hovering shows a call, clicking opens it in the transcript.
 */
export function TimelineView({ snap, dark, onOpenCall }: TimelineViewProps) {
  const deferred = useLiveSnapshot(snap);
  const layout = useMemo(
    () => timelineLayout({ calls: deferred.calls.values(), items: deferred.items, sessionIds: deferred.sessionIds, ended: deferred.ended }),
    [deferred.calls, deferred.items, deferred.sessionIds, deferred.ended],
  );
  // The transcript's focused call is drawn selected.
  const cursorItem = snap.cursor !== null ? snap.items.get(snap.shownRows[snap.cursor] ?? -1) : undefined;
  const selectedKey = cursorItem?.type === 'call' ? cursorItem.callKey : null;
  const selectedBar = useMemo(() => (selectedKey === null ? -1 : layout.keys.indexOf(selectedKey)), [layout, selectedKey]);

  const [hover, setHover] = useState<Hover | null>(null);
  // The call stepped to with n / p, where its tooltip shows.
  const [keyHover, setKeyHover] = useState<Hover | null>(null);
  const keyBar = keyHover?.bar ?? null;
  const palette = useMemo(() => paletteFor(dark), [dark]);
  const view = useTimelineViewport(layout, palette, { hovered: hover?.bar ?? keyBar ?? -1, selected: selectedBar }, () => setHover(null));
  const { boxRef, canvasRef, size, viewport, setView, zoomAround, panBy, resetView } = view;
  const pointers = useTimelinePointers(layout, view, hover, setHover, () => setKeyHover(null), onOpenCall);

  // Keys: arrows pan, + and - zoom, 0 fits, n / p step through the calls in time order, Enter opens.
  const byStart = useMemo(() => {
    const order = Array.from({ length: layout.keys.length }, (_, i) => i);
    return order.sort((a, b) => (layout.start[a] ?? 0) - (layout.start[b] ?? 0) || a - b);
  }, [layout]);
  const showBar = (bar: number): void => {
    const { x0, x1, scrollY } = viewport.current;
    const s = layout.start[bar] ?? 0;
    const e = layout.end[bar] ?? s;
    const top = rowTop(layout, layout.row[bar] ?? 0);
    let nx0 = x0;
    let nx1 = x1;
    if (s < x0 || e > x1) {
      const span = x1 - x0;
      nx0 = s - span * 0.1;
      nx1 = nx0 + span;
    }
    const ny = top < scrollY + AXIS_H || top + ROW_H > scrollY + size.height ? top - size.height / 2 : scrollY;
    setView(clampWindow(layout, nx0, nx1), ny);
    setHover(null);
    setKeyHover({ bar, ...barPosition(layout, bar, viewport.current, size.width) });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const step = size.width / 5;
    switch (e.key) {
      case 'ArrowLeft':
        panBy(-step);
        break;
      case 'ArrowRight':
        panBy(step);
        break;
      case 'ArrowUp':
        panBy(0, -ROW_H * 3);
        break;
      case 'ArrowDown':
        panBy(0, ROW_H * 3);
        break;
      case '+':
      case '=':
        zoomAround(1 / ZOOM_STEP, size.width / 2);
        break;
      case '-':
      case '_':
        zoomAround(ZOOM_STEP, size.width / 2);
        break;
      case '0':
        resetView();
        break;
      case 'n':
      case 'p': {
        if (byStart.length === 0) return;
        const current = keyBar ?? (selectedBar >= 0 ? selectedBar : null);
        const at = current === null ? -1 : byStart.indexOf(current);
        const next = byStart[Math.max(0, Math.min(byStart.length - 1, at < 0 ? 0 : at + (e.key === 'n' ? 1 : -1)))];
        if (next !== undefined) showBar(next);
        break;
      }
      case 'Enter': {
        const bar = keyBar ?? hover?.bar ?? null;
        const key = bar === null ? undefined : layout.keys[bar];
        if (key === undefined) return;
        onOpenCall(key);
        break;
      }
      case 'Escape':
        if (keyBar === null && hover === null) return;
        setKeyHover(null);
        setHover(null);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  const tipBar = hover?.bar ?? keyBar;
  const tipCall = tipBar === null ? undefined : snap.calls.get(layout.keys[tipBar] ?? '');
  const tipPos = hover ?? keyHover;

  return (
    <div className={styles.root} data-testid="timeline-view" data-axis={layout.axis} data-bars={layout.keys.length}>
      <div className={styles.head}>
        {layout.axis === 'order' ? (
          <span className={styles.note} data-testid="timeline-no-times">
            The input has no times: calls are laid out in order, one slot each, and durations are not shown.
          </span>
        ) : layout.untimed > 0 ? (
          <span className={styles.note}>
            {layout.untimed === 1 ? '1 call without a start time is left off.' : `${formatCount(layout.untimed)} calls without a start time are left off.`}
          </span>
        ) : null}
        <span className={styles.grow} />
        <Legend layout={layout} palette={palette} />
        <button type="button" className={styles.button} onClick={resetView} title="Fit the whole session (0)">
          Fit
        </button>
      </div>
      <div ref={boxRef} className={styles.box}>
        <canvas
          ref={canvasRef}
          className={styles.canvas}
          width={Math.round(size.width * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1))}
          height={Math.round(size.height * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1))}
          style={{ width: size.width, height: size.height }}
          tabIndex={0}
          role="img"
          aria-label={`Timeline of ${countOf(layout.keys.length, 'call')} in ${countOf(layout.lanes.length, 'lane')}. Arrow keys pan, + and - zoom, 0 fits, n and p step through calls, Enter opens one.`}
          aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown + - 0 n p Enter"
          onPointerDown={pointers.onPointerDown}
          onPointerMove={pointers.onPointerMove}
          onPointerUp={pointers.onPointerUp}
          onPointerCancel={pointers.onPointerCancel}
          onPointerLeave={() => setHover(null)}
          onKeyDown={onKeyDown}
          onBlur={() => setKeyHover(null)}
        />
        {tipCall && tipPos && tipBar !== null ? <Tooltip call={tipCall} layout={layout} bar={tipBar} x={tipPos.x} y={tipPos.y} width={size.width} /> : null}
      </div>
    </div>
  );
}

function Tooltip({ call, layout, bar, x, y, width }: { call: CallSummary; layout: TimelineLayout; bar: number; x: number; y: number; width: number }) {
  const status = BAR_STATUS[layout.status[bar] ?? 0] ?? 'done';
  const wait = layout.waitEnd[bar]! - layout.waitStart[bar]!;
  const duration = layout.axis === 'time' ? (layout.end[bar] ?? 0) - (layout.start[bar] ?? 0) : null;
  const left = Math.min(x + 12, Math.max(0, width - 320));
  return (
    <div role="tooltip" className={styles.tooltip} data-call-id={call.id} style={{ left, top: y + 14 }}>
      <div className={styles.tipHead}>
        <strong>{call.label}</strong> <span className={styles.tipStatus} data-status={status}>{status}</span>
      </div>
      {call.subject !== null ? (
        <div className={styles.tipSubject}>{call.subject}</div>
      ) : call.title && call.title !== call.label ? (
        // Named as its transcript row names a call with no subject.
        <div className={styles.tipSubject}>{call.title}</div>
      ) : null}
      <div className={styles.tipMeta}>
        {duration === null ? 'no times in the input' : status === 'done' || status === 'failed' ? formatDuration(duration) : `${formatDuration(duration)} so far`}
        {Number.isFinite(wait) ? ` · waited ${formatDuration(wait)} for permission` : ''}
        {call.sessionId !== null ? ` · ${call.sessionId}` : ''}
      </div>
    </div>
  );
}

function Legend({ layout, palette }: { layout: TimelineLayout; palette: ReturnType<typeof paletteFor> }) {
  const shown = layout.labels.slice(0, 8);
  return (
    <span className={styles.legend} aria-label="Legend">
      {shown.map((label, i) => (
        <span key={label} className={styles.legendItem}>
          <span className={styles.swatch} style={{ background: palette.labels[i % palette.labels.length] }} />
          {label}
        </span>
      ))}
      {layout.labels.length > shown.length ? (
        <span className={styles.legendItem} data-testid="legend-more" title={layout.labels.slice(shown.length).join(', ')}>
          +{layout.labels.length - shown.length}
        </span>
      ) : null}
      <span className={styles.legendItem}>
        <span className={`${styles.swatch} ${styles.swFailed}`} /> failed
      </span>
      <span className={styles.legendItem}>
        <span className={`${styles.swatch} ${styles.swRunning}`} /> running
      </span>
      <span className={styles.legendItem}>
        <span className={`${styles.swatch} ${styles.swUnfinished}`} /> unfinished
      </span>
      <span className={styles.legendItem}>
        <span className={`${styles.swatch} ${styles.swWait}`} /> permission wait
      </span>
    </span>
  );
}

function barPosition(layout: TimelineLayout, bar: number, v: Viewport, width: number): { x: number; y: number } {
  const s = layout.start[bar] ?? 0;
  const x = ((s - v.x0) / (v.x1 - v.x0)) * width;
  return { x: Math.max(0, Math.min(width - 20, x)), y: rowTop(layout, layout.row[bar] ?? 0) - v.scrollY + ROW_H / 2 };
}
