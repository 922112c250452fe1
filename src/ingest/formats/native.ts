// Agents' own session logs (CONTRACTS §10): which lines are native, and what the adapters share.
// Each format is an adapter (ARCHITECTURE point 16): it recognises its lines and says what they
// stand for as the ACP updates the model already folds, so merge, labels and subjects stay one
// code path and a new harness is one module here.
import type { SourceLocation } from '../acpTypes';
import type { IngestRecord } from '../records';
import { isJsonObject, type JsonObject } from '../schemas';
import { readClaudeEntry } from './claudeCode';
import { isClineLine, readClineLine } from './cline';
import { readCodexLine } from './codex';
import { isGeminiLine, readGeminiLine } from './gemini';
import { isQwenLine, readQwenEntry } from './qwenCode';
import { isPiLine, readPiLine } from './pi';

/** Keys that mark the shapes of CONTRACTS §1: a line holding one is not native. */
const OTHER_SHAPE_KEYS = ['jsonrpc', 'method', 'msg', 'direction', '_direction', 'sessionUpdate', 'update', 'seq'] as const;

/**
 * Whether `classify` reads the line as a Claude Code entry, decided without the chain of shapes it
 * tries first (each ACP and capture shape, then Pi, Gemini, Cline, Codex and Qwen here): the keys
 * any of those looks for are absent, and the entry's own are there. Most lines of the logs people
 * index are Claude Code's, and the chain was a fifth of reading them. A sufficient condition, not
 * a second reading: `classify` asks it first and otherwise goes down the chain, and
 * formats/claudeCode.test.ts holds it to the chain on every fixture line and generated ones. The index asks
 * it in one pass over a line's keys (model/claudeCodeRead.ts, `ClaudeEntryKeys`): a key asked here
 * (or in `isQwenLine`) is asked there too, and named in claudeCodeEntryKeys.test.ts's keys.
 */
export function isClaudeCodeEntry(value: JsonObject): boolean {
  return (
    typeof value.type === 'string' &&
    (typeof value.sessionId === 'string' || typeof value.uuid === 'string' || typeof value.leafUuid === 'string') &&
    // Pi's entries and Gemini's records have a string `id`; Cline's session file a `session_id`; Codex a `payload`.
    typeof value.id !== 'string' && typeof value.session_id !== 'string' && !isJsonObject(value.payload) &&
    value.$rewindTo === undefined && value.$set === undefined &&
    // The keys of the ACP shapes and recorders' lines (classify.ts), and `v` of a ledger line. Read
    // as properties, not asked with `in` in a loop (a parsed value is never undefined, and none of
    // these names is on Object.prototype): the loop's lookups were a tenth of classifying a line.
    value.dir === undefined && typeof value.v !== 'number' && value.jsonrpc === undefined && value.method === undefined &&
    value.msg === undefined && value.direction === undefined && value._direction === undefined && value.sessionUpdate === undefined &&
    value.update === undefined && value.seq === undefined &&
    !isQwenLine(value)
  );
}

/** A line `isClaudeCodeEntry` accepts, as its record. */
export function readClaudeCodeLine(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  const { entry, ts } = readClaudeEntry(value, text, loc);
  return { loc, shape: 'claude-code', ts, dir: undefined, body: entry };
}

/** The line as a native record, or undefined when it is not one (CONTRACTS §10 "Recognising them"). */
export function readNative(value: JsonObject, text: string, loc: SourceLocation): IngestRecord | undefined {
  for (const key of OTHER_SHAPE_KEYS) if (key in value) return undefined;
  // Pi's session entries name their parent (`parentId`) and its header its `version` and `cwd`:
  // read before Gemini's records, which have an `id`, a `type` and a `timestamp` too.
  if (isPiLine(value)) return readPiLine(value, text, loc);
  // Gemini CLI chats (§11): headers, `$set` and `$rewindTo` lines have no `type`; its records have
  // an `id` and a `timestamp` and none of the Claude Code and Codex keys below.
  if (isGeminiLine(value)) return readGeminiLine(value, text, loc);
  // Cline's messages files: the head names `origin`, a message its `role` and `ts`, none a `type`.
  if (isClineLine(value)) return readClineLine(value, text, loc);
  if (typeof value.type !== 'string') return undefined;
  if (isJsonObject(value.payload)) {
    const { entry, ts } = readCodexLine(value, text, loc);
    return { loc, shape: 'codex', ts, dir: undefined, body: entry };
  }
  if (typeof value.uuid === 'string' || typeof value.sessionId === 'string' || typeof value.leafUuid === 'string') {
    // Qwen Code writes Claude Code's envelope around Gemini's content: told apart by what Claude never writes.
    if (isQwenLine(value)) {
      const { entry, ts } = readQwenEntry(value, text, loc);
      return { loc, shape: 'qwen-code', ts, dir: undefined, body: entry };
    }
    return readClaudeCodeLine(value, text, loc);
  }
  return undefined;
}
