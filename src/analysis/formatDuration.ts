// A duration as a person reads it, the same in the viewer, the CLI and an md report.

/**
 * A duration in ms, to two or three significant figures: 0.42 ms, 840 ms, 1.50 s, 12.4 s,
 * 3 min 05 s, 2 h 10 min. A duration is a difference of times read from the file, so it can be
 * anything: one that is not a finite, non-negative number is named as invalid. No duration (null): —.
 */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (!Number.isFinite(ms) || ms < 0) return `invalid duration (${String(ms)})`;
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 9_995) return `${(ms / 1000).toFixed(2)} s`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  // Rounded whole before it is split, so a minute never reads "60 s" (nor an hour "60 min").
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad2(seconds % 60)} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${pad2(minutes % 60)} min`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');
