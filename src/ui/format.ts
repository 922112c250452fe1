/** "1 call", "2 calls", "1,200 calls": a count and its noun, which takes an s unless the count is 1. */
export function countOf(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** The largest magnitude a JS Date can hold (±100,000,000 days from the epoch). */
const MAX_DATE_MS = 8.64e15;

/**
 * An epoch time in ms as ISO text. Times come from the input file, so any number can arrive;
 * `Date#toISOString` throws on those out of range, which would take the whole view down.
 */
export function formatTime(ms: number): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return `invalid time (${String(ms)})`;
  return new Date(ms).toISOString();
}
