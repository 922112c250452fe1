// The index's read of a Claude Code log (`loupe index`, CONTRACTS §10): what its rows need and
// nothing more. The bulk of a log is entries the rows never show (hook progress, queue
// operations, prompts repeated) and the dressing of the ones they do (summaries, raw views, event
// rows); `ingest` builds all of it, for the viewer. This read parses each line, and for the user
// and assistant entries hands their message to the Claude Code adapter's own reading
// (`messageParts`) and the updates it gives to the fold's own reducers (calls merged by
// CONTRACTS §4, messages, usage once per message), so a call's label, subject, status and times
// are decided where they always are. Whatever it does not cover (a line that is not a Claude Code
// entry or not JSON, a sub-agent's message copied into a `progress` entry) makes it give up, and the caller reads the file with
// `ingest`. The two give the same rows on every fixture and generated logs
// (analysis/claudeCodeRows.test.ts) and on Claude Code logs changed at random (cli/indexFile.test.ts).
import { timeOf } from '../ingest/formats/shared';
import { messageParts, subagentOf, type ClaudeMessageParts } from '../ingest/formats/claudeCode';
import { ClaudeEntryKeys } from '../ingest/formats/native';
import { MAX_LINE_BYTES } from '../ingest/lines';
import { isBlankText } from '../ingest/reader';
import { isJsonObject } from '../ingest/schemas';
import { FoldState, type FoldKeep } from './fold/foldState';
import { foldNativeUpdates, foldNativeUsage } from './fold/nativeFold';
import { endInput } from './fold/recordFold';
import type { Session } from './session';

/** Where a whole file's lines end and what their bytes say: TextDecoder's reading by default (a Node Buffer's is quicker: cli/bufferLines.ts). */
export interface LineSplitter {
  /** The offset of the next newline at or after `from`, or -1. */
  newline(from: number): number;
  /** The text of `bytes[start, end)`, as TextDecoder (UTF-8, invalid bytes replaced) reads it. */
  text(start: number, end: number): string;
}

export function decodedLines(bytes: Uint8Array): LineSplitter {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return { newline: (from) => bytes.indexOf(LF, from), text: (start, end) => decoder.decode(bytes.subarray(start, end)) };
}

const LF = 10;
const CR = 13;

/**
 * The session as far as rows need it (calls, messages, usage, session ids; no events), or null
 * when the bytes hold anything this read leaves to `ingest`. The file is in memory whole: its
 * lines are split as ingest's LineReader splits them (a BOM skipped, a CR before the LF left out,
 * a last line without one read), with none of its bookkeeping for chunks. `keep`: rows alone by
 * default (no call's history, no agent message's text; FoldState), the whole session for a test.
 */
export function readClaudeCodeForRows(bytes: Uint8Array, lines: LineSplitter = decodedLines(bytes), keep: FoldKeep = 'rows'): Session | null {
  const state = new FoldState('light', undefined, false, keep);
  const reader = new ClaudeLines(state);
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let line = 1; start < bytes.length && !reader.refused; line++) {
    const newline = lines.newline(start);
    const next = newline < 0 ? bytes.length : newline;
    const end = next > start && bytes[next - 1] === CR ? next - 1 : next;
    // A line past ingest's limit is a bad line there: its reading, not this one (the index reads
    // files whole only up to 8 MB; a caller may hand more).
    if (end - start > MAX_LINE_BYTES) return null;
    reader.line(end === start ? '' : lines.text(start, end), line, start, end - start);
    start = next + 1;
  }
  if (reader.refused || state.session.counts.lines === 0) return null;
  state.session.format = 'claude-code';
  endInput(state);
  return state.session;
}

/** A Claude Code log's lines folded one by one: `line` parses one; `fold` takes what cli/claudeCodeScanRead.ts picked from the WebAssembly pass's tables. */
export class ClaudeLines {
  refused = false;
  /** One object for every line's place and time, as the fold reads a record's. */
  private readonly times: { loc: { line: number; offset: number; length: number }; ts: number | undefined; dir: undefined } = {
    loc: { line: 0, offset: 0, length: 0 }, ts: undefined, dir: undefined,
  };

  private readonly entry = new ClaudeEntryKeys();

  constructor(readonly state: FoldState) {}

  line(text: string, line: number, offset: number, length: number): void {
    if (isBlankText(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.refuse();
    }
    const entry = this.entry;
    if (!isJsonObject(value) || !entry.read(value)) return this.refuse();
    const type = entry.type as string;
    // The sub-agent an entry names with the call that started it (CONTRACTS §11). A `progress`
    // entry naming one copies the sub-agent's message (the adapter's agentProgress): ingest's.
    const subagent = subagentOf(value, type);
    if (subagent && type === 'progress') return this.refuse();
    const uuid = typeof entry.uuid === 'string' ? entry.uuid : undefined;
    const message = entry.message;
    // Only a user's or the assistant's message stands for anything rows show.
    const parts = (type === 'user' || type === 'assistant') && isJsonObject(message)
      ? messageParts(type, typeof entry.isMeta === 'boolean' ? entry.isMeta : undefined, uuid, entry.toolUseResult, message, text, line)
      : undefined;
    this.fold(timeOf(entry.timestamp), entry.isSidechain, entry.agentId, entry.sessionId, uuid === undefined || this.state.native.uuids.add(uuid), subagent, parts, line, offset, length);
  }

  /**
   * An entry the guard accepts, as the fields it read (its `timestamp` as timeOf reads it) and its
   * message's parts. `fresh`: it has no uuid, or one not read before (`state.native.uuids`, where
   * the caller noted it).
   */
  fold(
    ts: number | undefined, isSidechain: unknown, agentId: unknown, entrySessionId: unknown, fresh: boolean,
    subagent: { sessionId: string; parentId: string } | undefined, parts: ClaudeMessageParts | undefined, line: number, offset: number, length: number,
  ): void {
    const state = this.state;
    const counts = state.session.counts;
    counts.lines++;
    counts.events++;
    if (ts !== undefined && ts > (state.lastTs ?? -Infinity)) state.lastTs = ts;
    // A sub-agent's own entries (`isSidechain` with its `agentId`) are its session, as readClaudeEntry has it.
    const own = isSidechain === true && typeof agentId === 'string' ? agentId : entrySessionId;
    const sessionId = state.ids.canonical(typeof own === 'string' ? own : null);
    state.ids.note(sessionId);
    // Before an entry read again is skipped, as the builder does: a copy still names the call.
    if (subagent) state.calls.linkSubagent(state.ids.canonical(subagent.sessionId), subagent.parentId);
    // The line's place is made only for what keeps it (a third of a log's lines keep nothing).
    if (!fresh) {
      // An entry read before (a resumed session copies them) is not folded again; its usage, the last word on its message, is.
      if (parts?.usage?.messageId !== undefined) foldNativeUsage(state, parts.usage, { line, offset, length }, sessionId);
      return;
    }
    // An entry that stands for no message, call or usage is an event: not kept, but it ends the message before it.
    if (!parts || (parts.updates.length === 0 && !parts.usage)) return state.transcript.eventNotKept();
    const times = this.times;
    times.loc = { line, offset, length };
    times.ts = ts;
    foldNativeUpdates(state, times, parts.updates, sessionId);
    if (parts.usage) foldNativeUsage(state, parts.usage, times.loc, sessionId);
  }

  private refuse(): void {
    this.refused = true;
  }
}
