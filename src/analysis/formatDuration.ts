// A duration as a person reads it, the same in the viewer, the CLI and an md report.

/** A duration in ms, to two or three significant figures: 840 ms, 12.4 s, 3 min 05 s, 2 h 10 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 0) return `−${formatDuration(-ms)}`;
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(2) : s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}
