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
 * formats/claudeCode.test.ts holds it to the chain on every fixture line and generated ones.
 */
export function isClaudeCodeEntry(value: JsonObject): boolean {
  return new ClaudeEntryKeys().read(value);
}

/**
 * A parsed line's keys, read in one pass: whether it is a Claude Code entry (`isClaudeCodeEntry`)
 * and the envelope fields the index's read uses (model/claudeCodeRead.ts). Asking for the twenty
 * keys a Claude Code entry does not have, one property at a time, was a lookup each on entries of
 * many shapes; going over the keys the entry has, by their length, takes a third of that time.
 * claudeEntryKeys.test.ts holds it to the same conditions read property by property.
 */
export class ClaudeEntryKeys {
  type: unknown;
  sessionId: unknown;
  uuid: unknown;
  isSidechain: unknown;
  agentId: unknown;
  isMeta: unknown;
  timestamp: unknown;
  message: unknown;
  toolUseResult: unknown;

  /** Whether `isClaudeCodeEntry(value)`; the fields are then `value`'s (undefined where absent). */
  read(value: JsonObject): boolean {
    this.type = this.sessionId = this.uuid = this.isSidechain = this.agentId = this.isMeta = this.timestamp = this.message = this.toolUseResult = undefined;
    // One of `sessionId`, `uuid`, `leafUuid` a string.
    let named = false;
    // `for…in` and not Object.keys: no array made, and `value[key]` read from the keys' own order.
    // Inherited keys are read too, as a property read would (a parsed value inherits none).
    for (const key in value) {
      switch (key.length) {
        case 1:
          if (key === 'v' && typeof value[key] === 'number') return false;
          break;
        case 2:
          if (key === 'id' && typeof value[key] === 'string') return false;
          break;
        case 3:
          if (key === 'dir' || key === 'msg' || key === 'seq') return false;
          break;
        case 4:
          if (key === 'type') this.type = value[key];
          else if (key === 'uuid') {
            this.uuid = value[key];
            if (typeof this.uuid === 'string') named = true;
          } else if (key === '$set') return false;
          break;
        case 6:
          if (key === 'isMeta') this.isMeta = value[key];
          else if (key === 'method' || key === 'update') return false;
          break;
        case 7:
          if (key === 'message') this.message = value[key];
          else if (key === 'agentId') this.agentId = value[key];
          else if (key === 'jsonrpc' || (key === 'payload' && isJsonObject(value[key]))) return false;
          break;
        case 8:
          if (key === 'leafUuid' && typeof value[key] === 'string') named = true;
          break;
        case 9:
          if (key === 'timestamp') this.timestamp = value[key];
          else if (key === 'sessionId') {
            this.sessionId = value[key];
            if (typeof this.sessionId === 'string') named = true;
          } else if (key === 'direction' || key === '$rewindTo') return false;
          break;
        case 10:
          if (key === '_direction' || ((key === 'session_id' || key === 'provenance') && typeof value[key] === 'string')) return false;
          break;
        case 11:
          if (key === 'isSidechain') this.isSidechain = value[key];
          break;
        case 13:
          if (key === 'toolUseResult') this.toolUseResult = value[key];
          else if (key === 'sessionUpdate' || key === 'systemPayload' || key === 'usageMetadata') return false;
          break;
        case 14:
          if (key === 'toolCallResult') return false;
          break;
      }
    }
    // Qwen Code's envelope is Claude Code's: its `tool_result` records and Gemini's `parts` (qwenCode.ts's `isQwenLine`).
    const message = this.message;
    return typeof this.type === 'string' && named && this.type !== 'tool_result' && !(isJsonObject(message) && Array.isArray(message.parts));
  }
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
