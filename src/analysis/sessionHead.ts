// What a session file's first lines say about it: its format (the first line of a known shape),
// session id, working directory and start. `loupe ls` and `loupe index` read it from the file on
// disk (cli/sessions.ts), "Open folder…" from a picked file (library/folderFile.ts): one reading.
import { classify } from '../ingest/classify';
import { isJsonObject, type JsonObject } from '../ingest/json';

export interface SessionHead {
  format: string;
  sessionId: string | null;
  cwd: string | null;
  startMs: number | undefined;
}

/** A Codex rollout's first line holds the harness's whole instructions: read that far, no further. */
export const HEAD_MAX_BYTES = 2 * 1024 * 1024;
export const HEAD_LINES = 200;

export function emptyHead(): SessionHead {
  return { format: 'unknown', sessionId: null, cwd: null, startMs: undefined };
}

/** Everything a head can say has been said: no need to read further. */
export function headComplete(head: SessionHead): boolean {
  return head.format !== 'unknown' && head.sessionId !== null && head.cwd !== null && head.startMs !== undefined;
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
  if (head.format === 'unknown') {
    const shape = classify(value, text, { line, offset: 0, length: 0 }).shape;
    if (shape !== undefined) head.format = shape;
  }
  const payload = objectAt(value, 'payload');
  const msg = objectAt(value, 'msg') ?? objectAt(value, 'message') ?? value;
  const params = objectAt(msg, 'params');
  const result = objectAt(msg, 'result');
  head.sessionId ??=
    stringAt(value, 'sessionId') ?? (value.type === 'session_meta' ? stringAt(payload, 'id') : null) ?? stringAt(params, 'sessionId') ?? stringAt(result, 'sessionId');
  head.cwd ??= stringAt(value, 'cwd') ?? stringAt(payload, 'cwd') ?? stringAt(params, 'cwd');
  // The earliest time of the lines read: Claude Code writes queued-prompt entries before the prompt that started them.
  const time = stringAt(value, 'timestamp') ?? stringAt(value, 'at') ?? stringAt(payload, 'timestamp');
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

/** The directory the agent worked in, where the file says; else a Claude project folder's name (`parentFolder`). */
export function projectOf(head: SessionHead, parentFolder: string): string | null {
  return head.cwd ?? (head.format === 'claude-code' && parentFolder !== '' ? parentFolder : null);
}

/** tee names captures `2026-11-30T20-15-03-123Z_agent_pid.jsonl` (captureName). */
export function timeInCaptureName(name: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/.exec(name);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

function objectAt(value: JsonObject | undefined, key: string): JsonObject | undefined {
  const inner = value?.[key];
  return isJsonObject(inner) ? inner : undefined;
}

function stringAt(value: JsonObject | undefined, key: string): string | null {
  const inner = value?.[key];
  return typeof inner === 'string' && inner !== '' ? inner : null;
}
