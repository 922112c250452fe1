// What a session file's first lines say about it: its format (the first line of a known shape),
// session id, working directory, start and title. `loupe ls` and `loupe index` read it from a file
// on disk, "Open folder…" from a picked file: one reading, each harness adding what its own lines
// say (Harness.noteHead).
import { classify } from '../classify';
import { documentKindOf, JsonDocumentSplitter } from '../jsonDocument';
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

/**
 * A head read line by line: each line on its own, or, when the first two open a pretty-printed
 * document (an older Gemini CLI's `.json`, Cline's `.messages.json`), each of its records as the
 * reader splits them (jsonDocument.ts).
 */
export class HeadLines {
  readonly head = emptyHead();
  private lines = 0;
  /** A first line `{` alone: the next says whether it opens a document. */
  private held: string | null = null;
  private sniffing = true;
  private document: JsonDocumentSplitter | null = null;

  /** Adds the next line; true when the head says all it can (no need to read on). */
  push(text: string): boolean {
    this.lines++;
    if (this.document) {
      this.document.pushLine(text, this.lines, 0);
      return this.document.closed || headComplete(this.head);
    }
    if (this.sniffing && text.trim() !== '') {
      if (this.held === null && text.trim() === '{') {
        this.held = text;
        return false;
      }
      this.sniffing = false;
      const held = this.held;
      if (held !== null) {
        const kind = documentKindOf(held, text);
        if (kind !== null) {
          this.document = new JsonDocumentSplitter('messages', (part) => noteHeadLine(this.head, part.text, part.line), kind);
          this.document.pushLine(held, this.lines - 1, 0);
          this.document.pushLine(text, this.lines, 0);
          return headComplete(this.head);
        }
        noteHeadLine(this.head, held, this.lines - 1);
      }
    }
    noteHeadLine(this.head, text, this.lines);
    return headComplete(this.head);
  }
}

/** The head of a text's first lines (at most HEAD_LINES; a last line without a newline counts). */
export function headOfText(text: string): SessionHead {
  const lines = new HeadLines();
  let start = 0;
  for (let line = 1; line <= HEAD_LINES && start < text.length; line++) {
    const newline = text.indexOf('\n', start);
    if (lines.push(text.slice(start, newline < 0 ? text.length : newline)) || newline < 0) break;
    start = newline + 1;
  }
  return lines.head;
}

/** Adds what a harness's file beside the session says (Harness.headFileOf) to `head`: its text, one JSON object. */
export function noteHeadFile(head: SessionHead, text: string): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  if (isJsonObject(value)) harnessOfFormat(head.format)?.noteHead(head, value);
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
