// Cline's own sessions (`~/.cline/data/sessions/<id>/<id>.messages.json`; a sub-agent's in
// `agent_<agentId>.messages.json` beside it), read from 3.0.65's own files. Each file is one
// pretty-printed object `{version, updated_at, agent, sessionId, origin, messages: [...],
// system_prompt}`, split by the reader (jsonDocument.ts) into records: the object without its
// messages (its head), each message, and the head again with the keys written after the messages.
// A message is Anthropic's shape with Cline's own fields: `{id, role, content: [blocks], ts,
// modelInfo?, metrics?, metadata?}`:
// - `assistant`: `text`, `thinking` and `tool_use {id, name, input}` blocks (each a `tool_call`, as
//   Cline's ACP mode sends it: its `kind` from Cline's own table); `metrics` is that response's usage;
//   `metadata.displayOnly` marks a message Cline wrote itself (an error it shows), not the model's;
// - `user`: the person's prompt (`text`), or `tool_result {tool_use_id, name, content}` blocks, each
//   its call's final update; `content` is a list of `{query, result, error?, success}` (one per
//   file, query or command of the call) or that object as a JSON string.
// Every record is an event; a role or a head never seen is named by what it is.
import { z } from 'zod';
import type { SourceLocation } from '../acpTypes';
import type { IngestRecord, NativeEntry, NativeUpdate, ToolUpdate } from '../records';
import { isJsonObject, type JsonObject, optObject, optString } from '../schemas';
import { isClineHead, isClineMessage, isClineSessionMeta } from './clineShapes';
import { callUpdate, clip, namedEvent, resultUpdate, textBlockChunks, textBlockSchema, textBlockTexts, thinkingBlockSchema } from './shared';

/**
 * The ACP `kind` Cline's ACP mode (`cline --acp`) gives each of its tools, as 3.0.65 has it; any
 * other is `other`. The label comes from the tool's name where CONTRACTS §5 knows it, else from this.
 */
const ACP_KINDS: Readonly<Record<string, string>> = {
  read_files: 'read', search_codebase: 'search', editor: 'edit', run_commands: 'execute',
  fetch_web_content: 'fetch', web_search: 'search', spawn_agent: 'think', skills: 'other',
};

export function isClineLine(value: JsonObject): boolean {
  return isClineHead(value) || isClineMessage(value) || isClineSessionMeta(value);
}

const originSchema = z.object({ mode: optString, version: optString, parentThreadId: optString, subagent: optString });
const headSchema = z.object({ sessionId: z.string(), agent: optString, origin: originSchema.catch({}), system_prompt: optString });
const messageSchema = z.object({
  id: optString,
  role: z.string(),
  content: z.array(z.unknown()),
  ts: z.number(),
  metrics: optObject,
  metadata: optObject,
});
const blockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  thinkingBlockSchema,
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown().optional() }),
  z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), name: optString, content: z.unknown().optional(), is_error: z.boolean().optional().catch(undefined) }),
]);
const itemSchema = z.object({ query: optString, result: optString, error: optString, success: z.boolean().optional().catch(undefined) });
type ResultItem = z.infer<typeof itemSchema>;

export function readClineLine(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  const { entry, ts } = isClineHead(value) ? { entry: headEntry(value), ts: undefined } : isClineMessage(value) ? messageEntry(value, text, loc) : { entry: metaEntry(value), ts: undefined };
  return { loc, shape: 'cline', ts, dir: undefined, body: entry };
}

function headEntry(value: JsonObject): NativeEntry {
  const parsed = headSchema.safeParse(value);
  if (!parsed.success) return namedEvent('session', value, undefined);
  const { sessionId, agent, origin, system_prompt: systemPrompt } = parsed.data;
  // The head is read again after the messages, with the system prompt Cline writes last: that one is shown.
  if (systemPrompt !== undefined) {
    return { kind: 'native', name: 'system_prompt', summary: clip(systemPrompt), sessionId, opens: sessionId, updates: [], raw: value };
  }
  const words = [agent, origin.mode, origin.version].filter((word): word is string => word !== undefined);
  const entry: NativeEntry = { kind: 'native', name: 'session', summary: words.join(', '), sessionId, opens: sessionId, updates: [], bookkeeping: true, raw: value };
  // A sub-agent's file names its parent's session; the call that started it is the one whose `task` is its first prompt.
  if (origin.mode === 'subagent' && origin.parentThreadId !== undefined) entry.spawnedBy = { sessionId: origin.parentThreadId };
  return entry;
}

function metaEntry(value: JsonObject): NativeEntry {
  const sessionId = String(value.session_id);
  const status = typeof value.status === 'string' ? value.status : undefined;
  const exit = typeof value.exit_code === 'number' ? `exit ${value.exit_code}` : undefined;
  const summary = [status, exit, typeof value.cwd === 'string' ? value.cwd : undefined].filter((word): word is string => word !== undefined).join(', ');
  return { kind: 'native', name: 'session metadata', summary, sessionId, updates: [], bookkeeping: true, raw: value };
}

function messageEntry(value: JsonObject, text: string, loc: SourceLocation): { entry: NativeEntry; ts: number | undefined } {
  const parsed = messageSchema.safeParse(value);
  if (!parsed.success) return { entry: namedEvent('message', value, undefined), ts: undefined };
  const m = parsed.data;
  const messageId = m.id ?? `line ${loc.line}`;
  const entry: NativeEntry = { kind: 'native', name: m.role, updates: [], raw: value };
  // A message Cline shows but never sent the model (the error a failed response left): an event saying it.
  if (m.metadata?.displayOnly === true) {
    const role = typeof m.metadata.displayRole === 'string' ? m.metadata.displayRole : 'display';
    entry.name = `${m.role}/${role}`;
    const said = textBlockTexts(m.content).join('\n');
    if (said !== '') entry.summary = clip(said);
    return { entry, ts: m.ts };
  }
  if (m.role === 'assistant') {
    entry.updates = assistantUpdates(m.content, messageId, text);
    if (m.metrics) entry.usage = { messageId, counts: m.metrics };
  } else if (m.role === 'user') {
    entry.updates = userUpdates(m.content, messageId);
  } else {
    const said = textBlockTexts(m.content).join('\n');
    if (said !== '') entry.summary = clip(said);
  }
  return { entry, ts: m.ts };
}

function assistantUpdates(content: unknown[], messageId: string, text: string): NativeUpdate[] {
  const updates: NativeUpdate[] = [];
  content.forEach((item, index) => {
    const block = blockSchema.safeParse(item);
    if (!block.success) return;
    const b = block.data;
    if (b.type === 'text' || b.type === 'thinking') {
      updates.push(...textBlockChunks(b, 'agent_message_chunk', messageId));
    } else if (b.type === 'tool_use') {
      const update = callUpdate(b.id, b.name, b.input, text, ['content', index, 'input']);
      update.fields.kind = ACP_KINDS[b.name] ?? 'other';
      updates.push({ type: 'call', update });
    }
  });
  return updates;
}

function userUpdates(content: unknown[], messageId: string): NativeUpdate[] {
  const updates: NativeUpdate[] = [];
  for (const item of content) {
    const block = blockSchema.safeParse(item);
    if (!block.success) continue;
    const b = block.data;
    if (b.type === 'text') {
      updates.push(...textBlockChunks(b, 'user_message_chunk', messageId));
    } else if (b.type === 'tool_result') {
      updates.push(...resultUpdates(b.tool_use_id, b.content, b.is_error === true));
    }
  }
  return updates;
}

/**
 * A `tool_result` as its call's final update, with its exit code where a command's result says
 * one. Failed when Cline marks an item `success: false` (a file it could not read, an edit that
 * found no text, a command that exited non-zero: Cline's ACP mode would say `completed`, as the
 * tool itself did not throw, but the other harnesses' failing commands are failed too, §11) or
 * the block `is_error`.
 */
function resultUpdates(id: string, content: unknown, isError: boolean): NativeUpdate[] {
  const rawOutput = typeof content === 'string' ? parseObject(content) ?? content : content;
  const items = (Array.isArray(rawOutput) ? rawOutput : [rawOutput]).flatMap((item): ResultItem[] => {
    const parsed = itemSchema.safeParse(item);
    return parsed.success && isJsonObject(item) ? [parsed.data] : [];
  });
  const failed = isError || items.some((item) => item.success === false);
  const texts = items.flatMap((item) => [item.result, item.error].filter((said): said is string => said !== undefined && said !== ''));
  const output = items.length > 0 ? texts.join('\n') : typeof content === 'string' ? content : undefined;
  const result: ToolUpdate = resultUpdate(id, failed, output, rawOutput);
  const updates: NativeUpdate[] = [{ type: 'result', update: result }];
  const exitCode = exitCodeOf(items);
  if (exitCode !== undefined) updates.push({ type: 'exit', toolCallId: id, exitCode });
  return updates;
}

/** `Command exited with code N` (a command's `error`, and its result's first line): the first non-zero one of the call's commands. */
export function exitCodeOf(items: readonly ResultItem[]): number | undefined {
  for (const item of items) {
    const match = /Command exited with code (-?\d+)/.exec(item.error ?? item.result ?? '');
    if (match) return Number(match[1]);
  }
  return undefined;
}

function parseObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) || Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
