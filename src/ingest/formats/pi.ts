// Pi's own session files (`~/.pi/agent/sessions/--<dashed cwd>--/<time>_<session>.jsonl`,
// @mariozechner/pi-coding-agent, session format version 3). A header line
// `{type: "session", version, id, timestamp, cwd}` opens the session; every other line is an entry
// `{type, id, parentId, timestamp, …}` of a tree: a person who goes back (`/tree`) continues from an
// earlier entry, and the entries after it are left on a branch of their own in the same file.
// Tool calls are `toolCall` blocks of assistant messages, their results `toolResult` messages;
// whatever this adapter does not know is still an event named by its type (docs/harnesses/pi.md).
import { z } from 'zod';
import type { SourceLocation } from '../acpTypes';
import type { IngestRecord, NativeEntry, NativeUpdate } from '../records';
import { isJsonObject, type JsonObject, optBoolean, optObject, optString } from '../schemas';
import { callUpdate, chunk, clip, namedEvent, resultUpdate, textBlockChunks, textBlockSchema, textBlockTexts, thinkingBlockSchema, timeOf } from './shared';

/** Whether a line (already known to hold none of the §1 shapes' keys) is a line of a Pi session file. */
export function isPiLine(value: JsonObject): boolean {
  if (typeof value.type !== 'string' || typeof value.id !== 'string') return false;
  // Every entry names its parent (null for the first); Claude Code's say `parentUuid`, Gemini's records nothing.
  if (value.parentId === null || typeof value.parentId === 'string') return true;
  return value.type === 'session' && typeof value.version === 'number' && typeof value.cwd === 'string';
}

const messageSchema = z.object({
  role: z.string(),
  content: z.union([z.string(), z.array(z.unknown())]).optional().catch(undefined),
  usage: optObject,
  stopReason: optString,
  errorMessage: optString,
  toolCallId: optString,
  toolName: optString,
  isError: optBoolean,
  details: z.unknown().optional(),
  command: optString,
  exitCode: z.number().nullish().catch(undefined),
  summary: optString,
  customType: optString,
});

const blockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  thinkingBlockSchema,
  z.object({ type: z.literal('toolCall'), id: z.string(), name: z.string(), arguments: z.unknown().optional() }),
]);

/** Entry types whose one string field says what the entry is about. */
const SUMMARY_KEYS = ['summary', 'name', 'label', 'thinkingLevel', 'modelId', 'customType'] as const;

export function readPiLine(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  const { entry, ts } = readPiEntry(value, text);
  return { loc, shape: 'pi', ts, dir: undefined, body: entry };
}

function readPiEntry(value: JsonObject, text: string): { entry: NativeEntry; ts: number | undefined } {
  const ts = timeOf(value.timestamp);
  const type = String(value.type);
  const id = value.id as string;
  if (type === 'session' && !('parentId' in value)) {
    const parent = typeof value.parentSession === 'string' ? `, forked from ${value.parentSession}` : '';
    const cwd = typeof value.cwd === 'string' ? value.cwd : '';
    return { entry: { kind: 'native', name: 'session', summary: `${cwd}${parent}`, sessionId: id, opens: id, updates: [], raw: value }, ts };
  }
  const parentId = typeof value.parentId === 'string' ? value.parentId : null;
  const entry: NativeEntry = { kind: 'native', name: type, updates: [], tree: { id, parentId }, raw: value };
  if (type === 'compaction') entry.compaction = true;
  if (type === 'model_change' && typeof value.provider === 'string' && typeof value.modelId === 'string') entry.summary = `${value.provider}/${value.modelId}`;
  else entry.summary = summaryOf(value);
  if (type !== 'message' || !isJsonObject(value.message)) return { entry, ts };
  const parsed = messageSchema.safeParse(value.message);
  if (!parsed.success) return { entry: { ...namedEvent(type, value, undefined), tree: { id, parentId } }, ts };
  const m = parsed.data;
  entry.name = `message/${m.role}`;
  switch (m.role) {
    case 'user':
      entry.updates = textUpdates(m.content, 'user_message_chunk', id);
      break;
    case 'assistant':
      entry.updates = assistantUpdates(m.content, id, text);
      if (m.usage) entry.usage = { messageId: id, counts: m.usage };
      // An error or abort ends the response: said where the row shows it.
      if (m.errorMessage !== undefined) entry.summary = `${m.stopReason ?? 'error'}: ${clip(m.errorMessage)}`;
      break;
    case 'toolResult':
      if (m.toolCallId !== undefined) entry.updates = [resultOf(m.toolCallId, m.toolName, m.isError === true, m.content, value.message)];
      break;
    case 'bashExecution':
      // A command the person ran themselves (`!cmd`): not the agent's call.
      entry.summary = `! ${m.command ?? ''}${typeof m.exitCode === 'number' ? ` (exit ${m.exitCode})` : ''}`;
      break;
    case 'branchSummary':
    case 'compactionSummary':
      if (m.summary !== undefined) entry.summary = clip(m.summary);
      break;
    default: {
      // `custom` (an extension's message) and roles to come: an event with its text.
      const said = textBlockTexts(m.content).join('\n');
      if (said !== '') entry.summary = clip(m.customType === undefined ? said : `${m.customType}: ${said}`);
    }
  }
  return { entry, ts };
}

function assistantUpdates(content: string | unknown[] | undefined, messageId: string, text: string): NativeUpdate[] {
  if (typeof content === 'string') return content === '' ? [] : [chunk('agent_message_chunk', content, messageId)];
  const updates: NativeUpdate[] = [];
  (content ?? []).forEach((item, index) => {
    const block = blockSchema.safeParse(item);
    if (!block.success) return;
    const b = block.data;
    if (b.type === 'text' || b.type === 'thinking') {
      updates.push(...textBlockChunks(b, 'agent_message_chunk', messageId));
    } else {
      updates.push({ type: 'call', update: callUpdate(b.id, b.name, b.arguments, text, ['message', 'content', index, 'arguments']) });
    }
  });
  return updates;
}

/**
 * A `toolResult` message as its call's final update: failed when Pi marks it `isError` (a tool
 * that threw: a command that exited non-zero, timed out or was aborted, an edit that did not
 * apply) or when its text says `Command exited with code N`, N ≠ 0. The output is the message,
 * with that `exitCode` where the text gives one.
 */
function resultOf(callId: string, toolName: string | undefined, isError: boolean, content: string | unknown[] | undefined, message: JsonObject): NativeUpdate {
  const output = textBlockTexts(content).join('\n');
  const exitCode = toolName === 'bash' ? exitCodeOf(output) : undefined;
  const failed = isError || (exitCode !== undefined && exitCode !== 0);
  const rawOutput = exitCode === undefined ? message : { ...message, exitCode };
  return { type: 'result', update: resultUpdate(callId, failed, output === '' && content === undefined ? undefined : output, rawOutput) };
}

/** The `Command exited with code N` Pi's bash tool ends a failed command's output with. */
export function exitCodeOf(output: string): number | undefined {
  const match = /^Command exited with code (-?\d+)\s*$/m.exec(output);
  return match ? Number(match[1]) : undefined;
}

function textUpdates(content: string | unknown[] | undefined, tag: 'user_message_chunk', messageId: string): NativeUpdate[] {
  const texts = textBlockTexts(content);
  return texts.length === 0 ? [] : [chunk(tag, texts.join('\n'), messageId)];
}

function summaryOf(value: JsonObject): string | undefined {
  for (const key of SUMMARY_KEYS) {
    const v = value[key];
    if (typeof v === 'string') return clip(v);
  }
  return undefined;
}


