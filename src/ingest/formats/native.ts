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
    const { entry, ts } = readClaudeEntry(value, text, loc);
    return { loc, shape: 'claude-code', ts, dir: undefined, body: entry };
  }
  return undefined;
}
