// Numbers as the insight views print them.
import { formatNumber } from '../format';

/** A duration in ms, to two or three significant figures: 840 ms, 12.4 s, 3 min 05 s, 2 h 10 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(2) : s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}

/** A count or token number: grouped, and rounded if the input gave a fraction (see formatNumber). */
export function formatCount(n: number): string {
  return formatNumber(n);
}

export function formatShare(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}
