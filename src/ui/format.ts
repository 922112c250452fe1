import { promptTitle, type TranscriptItem } from '../model';
/** "1 call", "2 calls", "1,200 calls": a count and its noun, which takes an s unless the count is 1. */
export function countOf(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

/** One duration format for the viewer, the CLI and exports. */
export { formatDuration } from '../analysis/formatDuration';

export { formatBytes } from '../analysis/formatBytes';

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

/**
 * A number read from the input, or worked out from it, as a person reads it: whole numbers
 * grouped (12,345), others to two decimals (or three below 1), never 0.30000000000000004.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString('en', { maximumFractionDigits: Number.isInteger(n) ? 0 : Math.abs(n) < 1 ? 3 : 2 });
}

/**
 * An amount of money: two decimals, or up to four below 1 (a turn costs fractions of a cent), so
 * 0.006599999999999999 USD reads 0.0066 USD. What is too small to show says so.
 */
export function formatMoney(amount: number, currency: string): string {
  if (!Number.isFinite(amount)) return `${String(amount)} ${currency}`;
  const abs = Math.abs(amount);
  if (abs > 0 && abs < 0.0001) return `${amount < 0 ? '> -' : '< '}0.0001 ${currency}`;
  const text = amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: abs < 1 ? 4 : 2 });
  return `${text} ${currency}`;
}

/**
 * What a session is called where space is short (the header, the page's title): its file's name,
 * the last segment of a path or URL (`sessions/X_JB…/a39f….jsonl`, `https://host/runs/7.jsonl?raw=1`),
 * decoded (a name with no path, a File's, is itself); the whole source goes in a tooltip.
 */
export function shortSourceName(source: string): string {
  let path = source;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    try {
      path = new URL(source).pathname;
    } catch {
      // Not a URL after all: named by its text.
    }
  }
  const last = path.split(/[\\/]/).filter(Boolean).pop();
  if (!last) return source;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const TITLE_SCAN_ITEMS = 500;

/**
 * A session's title: its first prompt, on one line, without the harness's wrapping (the rule
 * `loupe ls` and the library title sessions by); a slash command only where no plain prompt is.
 */
export function sessionTitleOf(items: Iterable<TranscriptItem>): string | null {
  let command: string | null = null;
  let seen = 0;
  for (const item of items) {
    // A first prompt comes early: a session that has none is not read to its end on every change.
    if (++seen > TITLE_SCAN_ITEMS) break;
    if (item.type !== 'message' || item.role !== 'user') continue;
    const read = promptTitle(item.text);
    if (read === null) continue;
    if (!read.isCommand) return read.title;
    command ??= read.title;
  }
  return command;
}
