import { useEffect, useMemo, useRef } from 'react';
import { useLiveSnapshot } from './useLiveSnapshot';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { compactionLines, usageSeries, type UsagePoint } from '../../analysis/insights';
import type { SessionSnapshot } from '../../store/createSessionStore';
import { formatCount } from './format';
import styles from './insights.module.css';
import { countOf, formatMoney } from '../format';

export interface UsageViewProps {
  snap: SessionSnapshot;
  dark: boolean;
}

const SERIES: { key: keyof UsagePoint; label: string; light: string; dark: string; scale: 'tokens' | 'context' }[] = [
  { key: 'inputTokens', label: 'Input', light: '#4e79a7', dark: '#6f9fd8', scale: 'tokens' },
  { key: 'outputTokens', label: 'Output', light: '#f28e2b', dark: '#f5a35a', scale: 'tokens' },
  { key: 'cachedReadTokens', label: 'Cached', light: '#59a14f', dark: '#7cc26f', scale: 'tokens' },
  { key: 'reasoningTokens', label: 'Reasoning', light: '#b07aa1', dark: '#c99bc0', scale: 'tokens' },
  { key: 'contextUsed', label: 'Context used', light: '#c4271b', dark: '#ff8a80', scale: 'context' },
];

/** Tokens per turn and the context window over the session: a chart (uPlot), and the numbers as a table. */
export function UsageView({ snap, dark }: UsageViewProps) {
  const deferred = useLiveSnapshot(snap);
  const points = useMemo(() => usageSeries(deferred.items), [deferred.items]);
  const compactions = useMemo(() => compactionLines(deferred.items), [deferred.items]);
  // The same series object while the points are the same, so the chart is not given new data each render.
  const shown = useMemo(() => SERIES.filter((s) => points.some((p) => p[s.key] !== null)), [points]);
  if (points.length === 0) {
    return (
      <div className={styles.empty} data-testid="usage-view">
        {snap.load.state === 'loading' ? 'Reading…' : 'The input reports no token usage (turn_completed usage, usage_update, prompt responses’ usage).'}
      </div>
    );
  }
  const hasCost = points.some((p) => p.cost !== null);
  const hasWindow = points.some((p) => p.contextSize !== null);
  const hasTotal = points.some((p) => p.totalTokens !== null);
  const sessions = new Set(points.map((p) => p.sessionId)).size;
  return (
    <div className={styles.scroll} data-testid="usage-view">
      <p className={styles.note}>
        {countOf(points.length, 'usage report')}
        {sessions > 1 ? ` from ${formatCount(sessions)} sessions` : ''}
        {compactions.length > 0 ? ` · ${countOf(compactions.length, 'compaction')} (dashed lines)` : ''}
      </p>
      <UsageChart points={points} series={shown} compactions={compactions} dark={dark} />
      <table className={styles.table} aria-label="Usage per turn">
        <thead>
          <tr>
            <th scope="col" className={styles.num}>#</th>
            <th scope="col">Report</th>
            {shown.map((s) => (
              <th key={s.key} scope="col" className={styles.num}>
                {s.label}
              </th>
            ))}
            {hasWindow ? <th scope="col" className={styles.num}>Window</th> : null}
            {hasTotal ? <th scope="col" className={styles.num}>Total</th> : null}
            {hasCost ? <th scope="col" className={styles.num}>Cost</th> : null}
            <th scope="col" className={styles.num}>Line</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            <tr key={p.line} data-line={p.line}>
              <td className={styles.num}>{i + 1}</td>
              <td>
                {p.turn !== null ? `Turn ${p.turn}` : p.contextUsed !== null ? 'Context update' : 'Response'}
                {p.stopReason ? <span className={styles.muted}> · {p.stopReason}</span> : null}
                {sessions > 1 && p.sessionId !== null ? <span className={styles.muted}> · {p.sessionId}</span> : null}
              </td>
              {shown.map((s) => {
                const v = p[s.key];
                return (
                  <td key={s.key} className={styles.num}>
                    {typeof v === 'number' ? formatCount(v) : <span className={styles.muted}>—</span>}
                  </td>
                );
              })}
              {hasWindow ? <td className={styles.num}>{p.contextSize === null ? '—' : formatCount(p.contextSize)}</td> : null}
              {hasTotal ? <td className={styles.num}>{p.totalTokens === null ? '—' : formatCount(p.totalTokens)}</td> : null}
              {hasCost ? <td className={styles.num}>{p.cost ? formatMoney(p.cost.amount, p.cost.currency) : '—'}</td> : null}
              <td className={styles.num}>{p.line}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function canDraw(): boolean {
  if (typeof document === 'undefined' || typeof matchMedia !== 'function') return false;
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

type Series = typeof SERIES;
const REPORT_TICK_STEPS = [1, 2, 5].flatMap((m) => [1, 10, 100, 1_000, 10_000, 100_000].map((p) => m * p)).sort((a, b) => a - b);
interface ChartData {
  data: uPlot.AlignedData;
  /** Compactions, as positions on the x axis. */
  marks: number[];
}

function UsageChart({ points, series, compactions, dark }: { points: UsagePoint[]; series: Series; compactions: number[]; dark: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const shape = `${series.map((s) => s.key).join()}|${dark ? 'dark' : 'light'}`;
  const data = useMemo<uPlot.AlignedData>(
    () => [points.map((_, i) => i + 1), ...series.map((s) => points.map((p) => p[s.key] as number | null))],
    [points, series],
  );
  // Compactions as the report index they came before.
  const marks = useMemo(() => compactions.map((line) => points.findIndex((p) => p.line > line) + 0.5).filter((x) => x > 0), [compactions, points]);
  const latest = useRef<ChartData>({ data, marks });

  useEffect(() => {
    const el = box.current;
    if (!el || !canDraw()) return;
    // Loaded when first drawn: uPlot reads the window as it is imported, and is not needed before.
    let cancelled = false;
    let cleanup = (): void => undefined;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const u = drawChart(UPlot, el, series, dark, latest);
      chart.current = u;
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => u.setSize({ width: Math.max(300, el.clientWidth), height: 260 }));
      observer?.observe(el);
      cleanup = () => {
        observer?.disconnect();
        u.destroy();
        chart.current = null;
      };
    });
    return () => {
      cancelled = true;
      cleanup();
    };
    // The chart is rebuilt when its series or theme change; new data alone is pushed below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);
  useEffect(() => {
    latest.current = { data, marks };
    chart.current?.setData(data);
  }, [data, marks]);
  return <div ref={box} className={styles.chart} data-testid="usage-chart" aria-label="Tokens per turn and context used (the table below has the numbers)" role="img" />;
}

function drawChart(UPlot: typeof uPlot, el: HTMLElement, series: Series, dark: boolean, latest: { readonly current: ChartData }): uPlot {
  const axisStroke = dark ? '#9aa3ad' : '#5d6673';
  const grid = { stroke: dark ? '#2c3036' : '#e3e6ea', width: 1 };
  const hasContext = series.some((s) => s.scale === 'context');
  return new UPlot(
    {
      width: Math.max(300, el.clientWidth),
      height: 260,
      scales: { x: { time: false } },
      axes: [
        // Reports are counted: ticks fall on whole reports only (uPlot would put 1.1, 1.2, … between two).
        { stroke: axisStroke, grid, label: 'Usage report', incrs: REPORT_TICK_STEPS },
        { scale: 'tokens', stroke: axisStroke, grid, label: 'Tokens per turn', size: 70 },
        ...(hasContext ? [{ scale: 'context', side: 1 as const, stroke: axisStroke, grid: { show: false }, label: 'Context used', size: 70 }] : []),
      ],
      series: [
        { label: 'Report' },
        ...series.map((s) => ({ label: s.label, scale: s.scale, stroke: dark ? s.dark : s.light, width: 2, points: { show: true, size: 5 }, spanGaps: true })),
      ],
      hooks: {
        draw: [
          (self: uPlot) => {
            const ctx = self.ctx;
            ctx.save();
            ctx.strokeStyle = axisStroke;
            ctx.setLineDash([4, 4]);
            for (const x of latest.current.marks) {
              const px = self.valToPos(x, 'x', true);
              ctx.beginPath();
              ctx.moveTo(px, self.bbox.top);
              ctx.lineTo(px, self.bbox.top + self.bbox.height);
              ctx.stroke();
            }
            ctx.restore();
          },
        ],
      },
    },
    latest.current.data,
    el,
  );
}
