// What a session file's first lines say about it: its format (the first line of a known shape),
// session id, working directory, start and title. `loupe ls` and `loupe index` read it from a file
// on disk, "Open folder…" from a picked file: one reading, each harness adding what its own lines
// say (Harness.noteHead).
import { classify } from '../classify';
import { isJsonObject } from '../json';
import { harnessOfFormat } from './index';
import { objectAt, stringAt } from './headFields';
import type { SessionHead } from './types';

/** A Codex rollout's first line holds the harness's whole instructions: read that far, no further. */
export const HEAD_MAX_BYTES = 2 * 1024 * 1024;
export const HEAD_LINES = 200;

export function emptyHead(): SessionHead {
  return { format: 'unknown', sessionId: null, cwd: null, startMs: undefined, title: null, titleIsCommand: false };
}

/** Everything a head can say has been said: no need to read further. */
export function headComplete(head: SessionHead): boolean {
  return head.format !== 'unknown' && head.sessionId !== null && head.cwd !== null && head.startMs !== undefined && head.title !== null && !head.titleIsCommand;
}

/** Adds what line `line` (1-based) says to `head`; a line that is not a JSON object says nothing. */
export function noteHeadLine(head: SessionHead, text: string, line: number): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  if (!isJsonObject(value)) return;
  const shape = classify(value, text, { line, offset: 0, length: 0 }).shape;
  if (head.format === 'unknown' && shape !== undefined) head.format = shape;
  harnessOfFormat(shape ?? head.format)?.noteHead(head, value);
  // The earliest time of the lines read: Claude Code writes queued-prompt entries before the prompt that started them.
  const payload = objectAt(value, 'payload');
  const time = stringAt(value, 'timestamp') ?? stringAt(value, 'at') ?? stringAt(payload, 'timestamp') ?? stringAt(value, 'startTime');
  const ms = time === null ? NaN : Date.parse(time);
  if (Number.isFinite(ms) && (head.startMs === undefined || ms < head.startMs)) head.startMs = ms;
}

/** The head of a text's first lines (at most HEAD_LINES; a last line without a newline counts). */
export function headOfText(text: string): SessionHead {
  const head = emptyHead();
  let start = 0;
  for (let line = 1; line <= HEAD_LINES && start < text.length; line++) {
    const newline = text.indexOf('\n', start);
    noteHeadLine(head, text.slice(start, newline < 0 ? text.length : newline), line);
    if (headComplete(head) || newline < 0) break;
    start = newline + 1;
  }
  return head;
}

/** The directory the agent worked in, where the file says; else what the harness's folder names say. */
export function projectOf(head: SessionHead, path: string): string | null {
  return head.cwd ?? harnessOfFormat(head.format)?.projectFromPath?.(path) ?? null;
}

/** tee names captures `2026-11-30T20-15-03-123Z_agent_pid.jsonl` (captureName). */
export function timeInCaptureName(name: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/.exec(name);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}
