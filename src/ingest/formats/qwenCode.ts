// Qwen Code's own chat log (`~/.qwen/projects/<dashed cwd>/chats/<session>.jsonl`; a sub-agent's in
// `…/subagents/<session>/agent-<agentId>.jsonl`), read from 0.24.4's own files. Its chat recording
// service appends one record per line, Claude Code's envelope (`uuid`, `parentUuid`, `sessionId`,
// `timestamp`, `type`, `cwd`, `version`) around Gemini's content (`message: {role, parts}`):
// - `assistant`: `parts` of text, thoughts (`thought: true`) and `functionCall {id, name, args}`
//   (each a `tool_call`); `usageMetadata` is that response's usage (Gemini's token names);
// - `tool_result`: `parts` of `functionResponse {id, name, response: {output | error}}` (each the
//   final update of call `id`) and `toolCallResult {callId, status, resultDisplay, …}`;
// - `user`: the person's prompt, or with a `subtype` (`notification`, `cron`, `goal_runtime`) a
//   message Qwen Code wrote itself;
// - `system` with `subtype` and `systemPayload` (`ui_telemetry`, `attribution_snapshot`,
//   `chat_compression`, `custom_title`, … and what comes next): events.
// Every line is an event; whatever this adapter does not know is named by its type and subtype.
import { z } from 'zod';
import type { SourceLocation } from '../acpTypes';
import type { NativeEntry, NativeUpdate } from '../records';
import { isJsonObject, type JsonObject, optObject, optString } from '../schemas';
import { callUpdate, chunk, claudeEnvelopeFields, clip, namedEvent, planEntries, resultUpdate, timeOf } from './shared';

/**
 * Whether a line (already known to carry Claude Code's envelope keys) is Qwen Code's: what Claude
 * Code never writes. Qwen's main chat stamps every record with `provenance`; a sub-agent's file
 * does not, but its messages have Gemini's `parts`, and only Qwen writes `tool_result` records,
 * `toolCallResult` and `systemPayload`. `ClaudeEntryKeys` (native.ts) asks the same in its pass over
 * a line's keys: change the two together (claudeCode.test.ts holds that pass to the chain).
 */
export function isQwenLine(value: JsonObject): boolean {
  // Properties, not `in`: every Claude Code line is asked (a parsed value is never undefined).
  if (typeof value.provenance === 'string' || value.systemPayload !== undefined || value.toolCallResult !== undefined || value.usageMetadata !== undefined) return true;
  if (value.type === 'tool_result') return true;
  return isJsonObject(value.message) && Array.isArray(value.message.parts);
}

const entrySchema = z.object({
  ...claudeEnvelopeFields,
  message: optObject,
  usageMetadata: optObject,
  toolCallResult: optObject,
  systemPayload: optObject,
});

const functionCallSchema = z.object({ id: optString, name: z.string(), args: z.unknown().optional() });
const functionResponseSchema = z.object({ id: optString, name: optString, response: z.unknown().optional() });
const toolCallResultSchema = z.object({ callId: optString, status: optString, resultDisplay: z.unknown().optional() });

/** `user` subtypes that are what a person typed; the others are Qwen Code's own messages. */
const PERSON_SUBTYPES = new Set([undefined, 'mid_turn_user_message', 'realtime_message']);

export function readQwenEntry(value: JsonObject, text: string, loc: SourceLocation): { entry: NativeEntry; ts: number | undefined } {
  const ts = timeOf(value.timestamp);
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) return { entry: namedEvent(String(value.type), value, null), ts };
  const e = parsed.data;
  // A sub-agent's records name their parent's session and the agent: they are the agent's own session.
  const sessionId = e.isSidechain === true && e.agentId !== undefined ? e.agentId : e.sessionId ?? null;
  const entry: NativeEntry = {
    kind: 'native', name: e.subtype === undefined ? e.type : `${e.type}/${e.subtype}`, sessionId, updates: [], raw: value,
  };
  if (e.uuid !== undefined) entry.uuid = e.uuid;
  const messageId = e.uuid ?? `line ${loc.line}`;
  const parts = isJsonObject(e.message) && Array.isArray(e.message.parts) ? (e.message.parts as unknown[]) : [];

  if (e.type === 'assistant') {
    entry.updates = assistantUpdates(parts, messageId, text);
    if (e.usageMetadata) entry.usage = { messageId, counts: e.usageMetadata };
  } else if (e.type === 'tool_result') {
    entry.updates = resultUpdates(parts, e.toolCallResult);
  } else if (e.type === 'user') {
    const said = textsOf(parts).join('\n');
    if (PERSON_SUBTYPES.has(e.subtype)) {
      if (said !== '') entry.updates.push(chunk('user_message_chunk', said, messageId));
    } else if (said !== '') entry.summary = clip(said);
  } else if (e.type === 'system') {
    const summary = systemSummary(e.subtype, e.systemPayload);
    if (summary !== undefined) entry.summary = summary;
    if (e.subtype === 'chat_compression') entry.compaction = true;
  }
  return { entry, ts };
}

function assistantUpdates(parts: unknown[], messageId: string, text: string): NativeUpdate[] {
  const updates: NativeUpdate[] = [];
  parts.forEach((part, index) => {
    if (!isJsonObject(part)) return;
    if (typeof part.text === 'string') {
      if (part.text !== '') updates.push(chunk(part.thought === true ? 'agent_thought_chunk' : 'agent_message_chunk', part.text, messageId));
      return;
    }
    const call = functionCallSchema.safeParse(part.functionCall);
    if (!call.success) return;
    const c = call.data;
    // Qwen Code gives every call an id; one without is still a call, named by where it is.
    const id = c.id ?? `${messageId}#${index}`;
    const update = callUpdate(id, c.name, c.args, text, ['message', 'parts', index, 'functionCall', 'args']);
    const plan = isJsonObject(c.args) ? planEntries(c.args.todos) : undefined;
    updates.push(plan ? { type: 'call', update, plan } : { type: 'call', update });
  });
  return updates;
}

/**
 * A `tool_result` record's `functionResponse` parts, each its call's final update. Status: the
 * record's `toolCallResult.status` (`success` → completed; `error`, `cancelled` → failed) where it
 * names the call; else (a sub-agent's file writes only `{callId, durationMs}`) failed when the
 * response is an `error`. A shell command that exited non-zero failed, whatever the status says.
 */
function resultUpdates(parts: unknown[], toolCallResult: JsonObject | undefined): NativeUpdate[] {
  const meta = toolCallResult === undefined ? undefined : toolCallResultSchema.safeParse(toolCallResult).data;
  const responses = parts.flatMap((part) => {
    if (!isJsonObject(part)) return [];
    const parsed = functionResponseSchema.safeParse(part.functionResponse);
    return parsed.success && parsed.data.id !== undefined ? [{ ...parsed.data, id: parsed.data.id }] : [];
  });
  return responses.map((r) => {
    const own = meta !== undefined && (meta.callId === r.id || (meta.callId === undefined && responses.length === 1)) ? meta : undefined;
    const response = isJsonObject(r.response) ? r.response : undefined;
    const output = typeof response?.output === 'string' ? response.output : undefined;
    const error = typeof response?.error === 'string' ? response.error : undefined;
    const failed = own?.status === 'success' ? false : own?.status === 'error' || own?.status === 'cancelled' ? true : error !== undefined && output === undefined;
    const exit = exitCodeOf(own?.resultDisplay, output ?? error);
    const rawOutput = own?.resultDisplay ?? r.response;
    const update = resultUpdate(r.id, failed || (exit !== undefined && exit !== 0), output ?? error, rawOutput);
    const agentId = agentIdOf(r.id, own?.resultDisplay);
    // The sub-agent's session, as Qwen Code names it: the Sessions view links it under this call.
    if (agentId !== undefined) update.fields._meta = { qwenCode: { agentId } };
    return { type: 'result', update };
  });
}

/**
 * The sub-agent an `agent` call started (`resultDisplay.type` `task_execution`): Qwen Code names it
 * `<subagentName>-<callId>` (its `deriveAgentId`), the `agentId` of the sub-agent's records.
 */
function agentIdOf(callId: string, display: unknown): string | undefined {
  if (!isJsonObject(display) || display.type !== 'task_execution' || typeof display.subagentName !== 'string') return undefined;
  return `${display.subagentName}-${callId}`;
}

/** A shell result's exit code: `resultDisplay.exitCode` (a `shell_result`), else the output's `Exit Code: N` line. */
export function exitCodeOf(display: unknown, output: string | undefined): number | undefined {
  if (isJsonObject(display) && display.type === 'shell_result' && typeof display.exitCode === 'number') return display.exitCode;
  if (output === undefined) return undefined;
  const match = /^Exit Code: (-?\d+)\s*$/m.exec(output);
  return match ? Number(match[1]) : undefined;
}

/** What a `system` record is about, for the event row: a telemetry event's name and tool, a title, a payload's keys. */
function systemSummary(subtype: string | undefined, payload: JsonObject | undefined): string | undefined {
  if (payload === undefined) return undefined;
  const ui = isJsonObject(payload.uiEvent) ? payload.uiEvent : undefined;
  if (ui !== undefined) {
    const words = [ui['event.name'], ui.function_name, ui.call_id, ui.status].filter((word): word is string => typeof word === 'string');
    return words.length > 0 ? clip(words.join(' ')) : undefined;
  }
  if (typeof payload.title === 'string') return clip(payload.title);
  const keys = Object.keys(payload);
  return keys.length > 0 ? clip(keys.join(', ')) : undefined;
}

/** The text parts of a message (thoughts are not text). */
function textsOf(parts: unknown[]): string[] {
  const texts: string[] = [];
  for (const part of parts) if (isJsonObject(part) && typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
  return texts;
}


