// Codex's own session log (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), CONTRACTS §10: one
// `{timestamp, type, payload}` per line. Lines carry no session id: the `session_meta` line opens
// the session the lines after it belong to. `event_msg` lines repeat what `response_item` lines
// say (messages) or report usage; whatever this adapter does not know is an event named by its type.
import { parseObject } from '../json';
import { z } from 'zod';
import type { SourceLocation } from '../acpTypes';
import { sourceKeyOrder, hasIntegerLikeKey } from '../keyOrder';
import type { NativeEntry, NativeUpdate, ToolUpdate } from '../records';
import { isJsonObject, type JsonObject, optObject, optString } from '../schemas';
import { callUpdate, planEntries, resultUpdate, timeOf } from './shared';

const payloadSchema = z.object({ type: optString });

const functionCallSchema = z.object({ name: z.string(), arguments: z.string(), call_id: z.string() });
const customToolCallSchema = z.object({ name: z.string(), input: z.string(), call_id: z.string() });
const localShellCallSchema = z.object({ call_id: z.string(), action: z.unknown() });
const outputSchema = z.object({ call_id: z.string(), output: z.unknown() });
const messageSchema = z.object({ role: z.string(), content: z.array(z.unknown()).catch([]) });
const reasoningSchema = z.object({ summary: z.array(z.unknown()).optional().catch(undefined), content: z.array(z.unknown()).nullish().catch(undefined) });
const sessionMetaSchema = z.object({
  id: z.string(),
  forked_from_id: z.string().nullish().catch(undefined),
  source: z.object({ subagent: z.object({ thread_spawn: z.object({ parent_thread_id: z.string(), agent_path: z.string().nullish() }) }) }).optional().catch(undefined),
});
const execEndSchema = z.object({ call_id: z.string(), exit_code: z.number().int().nullable() });
const tokenCountSchema = z.object({ info: z.object({ last_token_usage: optObject }).nullish().catch(undefined) });

/** Lines that are Codex's own bookkeeping, not the conversation: one quiet row with their neighbours. */
const BOOKKEEPING: ReadonlySet<string> = new Set([
  'session_meta', 'turn_context', 'event_msg/task_started', 'event_msg/task_complete', 'event_msg/turn_started', 'event_msg/turn_complete',
  'event_msg/exec_command_begin', 'event_msg/exec_command_end', 'event_msg/patch_apply_begin', 'event_msg/patch_apply_end', 'event_msg/mcp_tool_call_begin', 'event_msg/mcp_tool_call_end',
]);

/** `payload.type` values of `event_msg` that say again what a `response_item` line says. */
const REPEATS: ReadonlySet<string> = new Set(['agent_message', 'user_message', 'agent_reasoning', 'agent_reasoning_raw_content']);

export function readCodexLine(value: JsonObject, text: string, loc: SourceLocation): { entry: NativeEntry; ts: number | undefined } {
  const ts = timeOf(value.timestamp);
  const type = String(value.type);
  const payload = isJsonObject(value.payload) ? value.payload : {};
  const inner = payloadSchema.safeParse(payload);
  const payloadType = inner.success ? inner.data.type : undefined;
  const entry: NativeEntry = { kind: 'native', name: payloadType === undefined ? type : `${type}/${payloadType}`, updates: [], raw: value };
  if (BOOKKEEPING.has(entry.name)) entry.bookkeeping = true;

  if (type === 'session_meta') {
    const meta = sessionMetaSchema.safeParse(payload);
    if (meta.success) {
      entry.opens = meta.data.id;
      entry.sessionId = meta.data.id;
      if (meta.data.forked_from_id) entry.forkedFrom = meta.data.forked_from_id;
      const spawn = meta.data.source?.subagent.thread_spawn;
      if (spawn?.agent_path) entry.agentPath = { parentSession: spawn.parent_thread_id, path: spawn.agent_path };
    }
  } else if (type === 'compacted') {
    entry.compaction = true;
  } else if (type === 'event_msg') {
    if (payloadType === 'token_count') {
      const usage = tokenCountSchema.safeParse(payload);
      // The running total starts from a parent's in a forked session: only the request's own counts add up.
      const last = usage.success ? usage.data.info?.last_token_usage : undefined;
      if (last) entry.usage = { counts: last };
    } else if (payloadType === 'context_compacted') {
      entry.compaction = true;
    } else if (payloadType === 'exec_command_end') {
      const end = execEndSchema.safeParse(payload);
      if (end.success) entry.updates = [{ type: 'exit', toolCallId: end.data.call_id, exitCode: end.data.exit_code }];
    } else if (payloadType !== undefined && REPEATS.has(payloadType)) {
      entry.repeat = true;
    }
    if (typeof payload.message === 'string') entry.summary = payload.message.length > 200 ? payload.message.slice(0, 200) : payload.message;
  } else if (type === 'response_item' && payloadType !== undefined) {
    entry.updates = responseItem(payloadType, payload, text, `line ${loc.line}`);
    // The harness's instructions and context (`developer` messages, `<environment_context>`): bookkeeping.
    if (payloadType === 'message' && entry.updates.length === 0) entry.bookkeeping = true;
    if (payloadType === 'function_call_output') {
      const spawned = spawnedThread(payload);
      if (spawned && 'sessionId' in spawned) entry.subagent = spawned;
      else if (spawned) entry.spawnedPath = spawned;
    }
  }
  return { entry, ts };
}

/** `messageId`: each message item is a message of its own, even when two follow each other. */
function responseItem(type: string, payload: JsonObject, text: string, messageId: string): NativeUpdate[] {
  switch (type) {
    case 'function_call': {
      const p = functionCallSchema.safeParse(payload);
      if (!p.success) return [];
      // `arguments` is JSON in a string: its own key order is the one subjects read (§6).
      const args = parseObject(p.data.arguments);
      const update = callUpdate(p.data.call_id, p.data.name, args, '', []);
      if (args && hasIntegerLikeKey(args)) update.rawInputKeyOrder = sourceKeyOrder(p.data.arguments, []);
      const plan = args ? planEntries(args.plan) : undefined;
      return [plan ? { type: 'call', update, plan } : { type: 'call', update }];
    }
    case 'custom_tool_call': {
      const p = customToolCallSchema.safeParse(payload);
      if (!p.success) return [];
      const update = callUpdate(p.data.call_id, p.data.name, { input: p.data.input }, text, []);
      const files = patchFiles(p.data.input);
      return [files === undefined ? { type: 'call', update } : { type: 'call', update, subject: files }];
    }
    case 'local_shell_call': {
      const p = localShellCallSchema.safeParse(payload);
      if (!p.success) return [];
      return [{ type: 'call', update: callUpdate(p.data.call_id, 'local_shell', p.data.action, text, ['payload', 'action']) }];
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const p = outputSchema.safeParse(payload);
      if (!p.success) return [];
      const exitCode = outputExitCode(p.data.output);
      const result: NativeUpdate = { type: 'result', update: outputUpdate(p.data.call_id, p.data.output) };
      // Every tool's output says its exit code the same way (an apply_patch's `Exit code: 0` too): the call keeps it (§11).
      return exitCode === undefined ? [result] : [result, { type: 'exit', toolCallId: p.data.call_id, exitCode }];
    }
    case 'message': {
      const p = messageSchema.safeParse(payload);
      if (!p.success) return [];
      const tag = p.data.role === 'user' ? 'user_message_chunk' : p.data.role === 'assistant' ? 'agent_message_chunk' : undefined;
      // Other roles (`developer`: the harness's instructions) are events.
      if (tag === undefined) return [];
      const texts = textsOf(p.data.content);
      // Codex puts its own context in user messages (`<environment_context>…`, `<turn_aborted>…`):
      // not something the user said, so an event, not a turn (Codex's own history view skips them too).
      if (tag === 'user_message_chunk' && texts.length > 0 && texts.every(isHarnessContext)) return [];
      return texts.length === 0 ? [] : [{ type: 'chunk', tag, content: { type: 'text', text: texts.join('\n') }, messageId }];
    }
    case 'reasoning': {
      const p = reasoningSchema.safeParse(payload);
      if (!p.success) return [];
      const texts = [...textsOf(p.data.summary ?? []), ...textsOf(p.data.content ?? [])];
      return texts.length === 0 ? [] : [{ type: 'chunk', tag: 'agent_thought_chunk', content: { type: 'text', text: texts.join('\n') }, messageId }];
    }
    default:
      return [];
  }
}

/** §10: a result is failed when its command exited non-zero, when it was aborted, or when it says `success: false`. */
function outputUpdate(callId: string, output: unknown): ToolUpdate {
  const text = typeof output === 'string' ? output : isJsonObject(output) && typeof output.content === 'string' ? output.content : undefined;
  return resultUpdate(callId, outputFailed(output), text, output);
}

export function outputFailed(output: unknown): boolean {
  if (isJsonObject(output)) return output.success === false;
  if (typeof output !== 'string') return false;
  if (output.startsWith('aborted')) return true;
  const exitCode = outputExitCode(output);
  return exitCode !== undefined && exitCode !== 0;
}

/** The exit code an output says (§10): JSON `metadata.exit_code`, else a line `Process exited with code N`, else a leading `Exit code: N`. */
export function outputExitCode(output: unknown): number | undefined {
  if (typeof output !== 'string') return undefined;
  const parsed = parseObject(output);
  if (parsed) {
    const metadata = parsed.metadata;
    if (isJsonObject(metadata) && typeof metadata.exit_code === 'number') return metadata.exit_code;
  }
  const exited = /^Process exited with code (-?\d+)$/m.exec(output);
  if (exited) return Number(exited[1]);
  const leading = /^Exit code: (-?\d+)/.exec(output);
  if (leading) return Number(leading[1]);
  return undefined;
}

/**
 * A `spawn_agent` call's output names the thread it started (`{"agent_id": …}`): that thread's
 * rollout (whose `session_meta` names this one as `parent_thread_id`) is the call's sub-agent (§11).
 * Multi-agent v2 (Codex 0.137) names its path instead (`{"task_name": "/root/helper_a"}`), which
 * the thread's `session_meta` names as `agent_path`.
 */
function spawnedThread(payload: JsonObject): { sessionId: string; parentId: string } | { path: string; callId: string } | undefined {
  const p = outputSchema.safeParse(payload);
  if (!p.success || typeof p.data.output !== 'string' || !(p.data.output.includes('agent_id') || p.data.output.includes('task_name'))) return undefined;
  const output = parseObject(p.data.output);
  const agentId = output?.agent_id;
  if (typeof agentId === 'string' && agentId !== '') return { sessionId: agentId, parentId: p.data.call_id };
  const path = output?.task_name;
  return typeof path === 'string' && path !== '' ? { path, callId: p.data.call_id } : undefined;
}

/** The files a patch names (`*** Add File: `, `*** Update File: `, `*** Delete File: `), joined with spaces; undefined when it is not a patch. */
export function patchFiles(input: string): string | undefined {
  if (!input.trimStart().startsWith('*** Begin Patch')) return undefined;
  const files: string[] = [];
  for (const line of input.split('\n')) {
    const match = /^\*\*\* (?:Add|Update|Delete) File: (.*)$/.exec(line.replace(/\r$/, ''));
    if (match?.[1] !== undefined) files.push(match[1].trim());
  }
  return files.length > 0 ? files.join(' ') : undefined;
}

/** A text that is one tagged block, `<name>…</name>`: what Codex writes into user messages itself. */
function isHarnessContext(text: string): boolean {
  return /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/.test(text);
}

function textsOf(blocks: unknown[]): string[] {
  const texts: string[] = [];
  for (const block of blocks) if (isJsonObject(block) && typeof block.text === 'string') texts.push(block.text);
  return texts;
}
