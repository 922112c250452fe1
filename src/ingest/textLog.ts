// Text logs with one ACP message per line after a prefix (CONTRACTS §1): JetBrains IDEs write
// `2025-11-14 19:57:12,975 [     34]   FINE - AcpTransport - OUT: {…}`, OUT being client → agent.
import type { Direction } from './acpTypes';

export interface TextLogLine {
  dir: Direction;
  /** The message's JSON text (from its opening brace to the end of the line). */
  json: string;
  /** The line's leading `YYYY-MM-DD HH:MM:SS,mmm`, read as local time, in ms since the epoch. */
  ts?: number;
}

const MARKERS: readonly [string, Direction][] = [
  [' OUT: {', 'client->agent'],
  [' IN: {', 'agent->client'],
];
const LEADING_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[,.](\d{1,3}))?/;

/**
 * The message a text log line carries, or null when the line is not of that form. Only the shape
 * is checked here: whether the braces hold one JSON object is for the caller's parse to say.
 */
export function readTextLogLine(text: string): TextLogLine | null {
  let best: { at: number; marker: string; dir: Direction } | null = null;
  for (const [marker, dir] of MARKERS) {
    const at = text.indexOf(marker);
    if (at >= 0 && (best === null || at < best.at)) best = { at, marker, dir };
  }
  if (best === null || !text.trimEnd().endsWith('}')) return null;
  const json = text.slice(best.at + best.marker.length - 1);
  const time = LEADING_TIME.exec(text);
  let ts: number | undefined;
  if (time) {
    const [y, mo, d, h, mi, s] = time.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const ms = time[7] === undefined ? 0 : Number(time[7].padEnd(3, '0'));
    const local = new Date(y, mo - 1, d, h, mi, s, ms).getTime();
    if (Number.isFinite(local)) ts = local;
  }
  return { dir: best.dir, json, ts };
}
