// Claude Code's own session log (`~/.claude/projects/<project>/<session>.jsonl`), CONTRACTS §10.
// One entry per line; an assistant response is written as one entry per content block, each
// repeating the message's id and the usage known when it was written. Entry types grow with every
// release: whatever this adapter does not know is still an event, named by its type.
import { z } from 'zod';
import type { SourceLocation } from '../acpTypes';
import type { JsonPath } from '../keyOrder';
import type { NativeEntry, NativeUpdate } from '../records';
import { isJsonObject, type JsonObject } from '../schemas';
import { callUpdate, chunk, namedEvent, optBoolean, optObject, optString, planEntries, resultUpdate, timeOf } from './shared';

// Loose envelope: every field optional, a malformed one absent.
const entrySchema = z.object({
  type: z.string(),
  subtype: optString,
  uuid: optString,
  sessionId: optString,
  isSidechain: optBoolean,
  agentId: optString,
  isMeta: optBoolean,
  message: optObject,
  toolUseResult: z.unknown().optional(),
});

const messageSchema = z.object({
  id: optString,
  content: z.union([z.string(), z.array(z.unknown())]).optional().catch(undefined),
  usage: optObject,
});

// Strict per block; a block of another type (images, server tools, what comes next) is skipped:
// the entry is still an event and keeps it in its raw view.
const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thinking'), thinking: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.unknown(), is_error: optBoolean }),
]);

/** Entry types that are the harness's own bookkeeping, not the conversation: one quiet row with their neighbours. */
const BOOKKEEPING_TYPES: ReadonlySet<string> = new Set(['queue-operation', 'progress', 'last-prompt', 'file-history-snapshot', 'summary', 'custom-title', 'agent-name', 'permission-mode']);

/**
 * A slash command as Claude Code writes it in a user entry (`<command-name>/model</command-name>
 * <command-message>…</command-message><command-args>…</command-args>`), or what a local command
 * printed (`<local-command-stdout>…</local-command-stdout>`).
 */
function slashCommand(content: string): { name: string; text: string } | undefined {
  const name = /^\s*<command-name>([^<]*)<\/command-name>/.exec(content);
  if (name) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(content)?.[1]?.trim();
    return { name: 'command', text: `${name[1]!.trim()}${args ? ` ${args}` : ''}` };
  }
  const output = /^\s*<local-command-(stdout|stderr)>([\s\S]*)<\/local-command-\1>\s*$/.exec(content);
  if (output) return { name: `command ${output[1]!}`, text: output[2]!.trim().slice(0, 200) };
  return undefined;
}

/** The keys whose string value says what an entry of a kind rows do not show is about. */
const SUMMARY_KEYS = ['content', 'summary', 'lastPrompt', 'operation'] as const;

export function readClaudeEntry(value: JsonObject, text: string, loc: SourceLocation): { entry: NativeEntry; ts: number | undefined } {
  const ts = timeOf(value.timestamp);
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) return { entry: namedEvent(String(value.type), value, null), ts };
  const e = parsed.data;
  // A sub-agent's entries name their parent's session and the agent: they are the agent's own session.
  const sessionId = e.isSidechain === true && e.agentId !== undefined ? e.agentId : e.sessionId ?? null;
  const entry: NativeEntry = {
    kind: 'native', name: e.subtype === undefined ? e.type : `${e.type}/${e.subtype}`, sessionId, updates: [], raw: value,
  };
  if (e.uuid !== undefined) entry.uuid = e.uuid;
  const summary = summaryOf(value);
  if (summary !== undefined) entry.summary = summary;
  if (e.type === 'system' && e.subtype === 'compact_boundary') entry.compaction = true;
  const subagent = subagentOf(value, e.type);
  if (subagent) entry.subagent = subagent;

  if (BOOKKEEPING_TYPES.has(e.type)) entry.bookkeeping = true;
  if (subagent && e.type === 'progress') {
    const progress = agentProgress(value, subagent.sessionId, text);
    if (progress) return { entry: { ...entry, ...progress.entry }, ts: progress.ts ?? ts };
  }
  const message = e.message === undefined ? undefined : messageSchema.safeParse(e.message);
  if (!message?.success) {
    if (e.type === 'user') entry.bookkeeping = true;
    return { entry, ts };
  }
  const { id: messageId, content, usage } = message.data;
  // A slash command the user typed, and what it printed: shown as the command, not as a prompt.
  const command = typeof content === 'string' ? slashCommand(content) : undefined;
  if (e.type === 'user' && command) {
    entry.name = command.name;
    entry.summary = command.text;
    return { entry, ts };
  }
  // Each user entry is a message of its own, even when two follow each other.
  if (e.type === 'user' && e.isMeta !== true) entry.updates = userUpdates(content, e.toolUseResult, e.uuid ?? `line ${loc.line}`);
  else if (e.type === 'assistant') {
    entry.updates = assistantUpdates(content, messageId, text, ['message', 'content']);
    if (usage) entry.usage = messageId === undefined ? { counts: usage } : { messageId, counts: usage };
  }
  // A user entry that says nothing (a caveat the harness adds, an empty message): bookkeeping.
  if (e.type === 'user' && entry.updates.length === 0) entry.bookkeeping = true;
  return { entry, ts };
}

function userUpdates(content: string | unknown[] | undefined, toolUseResult: unknown, messageId: string): NativeUpdate[] {
  if (typeof content === 'string') return [chunk('user_message_chunk', content, messageId)];
  if (!content) return [];
  const updates: NativeUpdate[] = [];
  const results = content.filter((block) => isJsonObject(block) && block.type === 'tool_result').length;
  for (const item of content) {
    const block = blockSchema.safeParse(item);
    if (!block.success) continue;
    const b = block.data;
    if (b.type === 'text') updates.push(chunk('user_message_chunk', b.text, messageId));
    else if (b.type === 'tool_result') {
      // The entry's `toolUseResult` is the tool's own output; it belongs to the block only when there is one.
      const output = results === 1 && toolUseResult !== undefined ? toolUseResult : b.content;
      updates.push({ type: 'result', update: resultUpdate(b.tool_use_id, b.is_error === true, textOf(b.content), output) });
    }
  }
  return updates;
}

/** A sub-agent's message as a `progress` entry of the main log copies it: `data.message` {type, message, uuid, timestamp, toolUseResult}. */
const progressMessageSchema = z.object({
  type: z.enum(['user', 'assistant']),
  uuid: z.string(),
  timestamp: z.unknown().optional(),
  toolUseResult: z.unknown().optional(),
  message: messageSchema,
});

/**
 * What a running sub-agent did, from the main log's `agent_progress` entry that copies one of its
 * messages (§11): the message in the sub-agent's session, so its calls show under their Task call
 * while the sub-agent's own file is not there yet. The copy has the `uuid` of the entry in that
 * file, so whichever of the two is read second is counted, not folded again. Its usage is left
 * out: the copy is written when the response starts (`output_tokens` 1), and the file's entry,
 * skipped as the same entry, would not correct it.
 */
function agentProgress(value: JsonObject, agentId: string, text: string): { entry: Pick<NativeEntry, 'sessionId' | 'uuid' | 'updates'>; ts: number | undefined } | undefined {
  const data = value.data;
  const parsed = progressMessageSchema.safeParse(isJsonObject(data) ? data.message : undefined);
  if (!parsed.success) return undefined;
  const { type, uuid, timestamp, toolUseResult, message } = parsed.data;
  const updates = type === 'user'
    ? userUpdates(message.content, toolUseResult, uuid)
    : assistantUpdates(message.content, message.id, text, ['data', 'message', 'message', 'content']);
  if (updates.length === 0) return undefined;
  return { entry: { sessionId: agentId, uuid, updates }, ts: timeOf(timestamp) };
}

function assistantUpdates(content: string | unknown[] | undefined, messageId: string | undefined, text: string, contentPath: JsonPath): NativeUpdate[] {
  if (typeof content === 'string') return [chunk('agent_message_chunk', content, messageId)];
  if (!content) return [];
  const updates: NativeUpdate[] = [];
  content.forEach((item, index) => {
    const block = blockSchema.safeParse(item);
    if (!block.success) return;
    const b = block.data;
    if (b.type === 'text') updates.push(chunk('agent_message_chunk', b.text, messageId));
    else if (b.type === 'thinking') updates.push(chunk('agent_thought_chunk', b.thinking, messageId));
    else if (b.type === 'tool_use') {
      const update = callUpdate(b.id, b.name, b.input, text, [...contentPath, index, 'input']);
      const plan = isJsonObject(b.input) ? planEntries(b.input.todos) : undefined;
      updates.push(plan ? { type: 'call', update, plan } : { type: 'call', update });
    }
  });
  return updates;
}


/** A tool result's text: a string, or the text blocks of an array. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const block of content) if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * The sub-agent an entry names with the call that started it (§11): a `progress` entry's
 * `data.agentId` and `parentToolUseID`, or a Task/Agent result's `toolUseResult.agentId` and its
 * block's `tool_use_id`. The sub-agent's entries (`isSidechain`, `agentId`) are its own session.
 */
function subagentOf(value: JsonObject, type: string): { sessionId: string; parentId: string } | undefined {
  if (type === 'progress') {
    const data = value.data;
    const parentId = value.parentToolUseID;
    if (isJsonObject(data) && typeof data.agentId === 'string' && data.agentId !== '' && typeof parentId === 'string' && parentId !== '') return { sessionId: data.agentId, parentId };
    return undefined;
  }
  const result = value.toolUseResult;
  if (type !== 'user' || !isJsonObject(result) || typeof result.agentId !== 'string' || result.agentId === '') return undefined;
  const message = value.message;
  const content = isJsonObject(message) ? message.content : undefined;
  if (!Array.isArray(content)) return undefined;
  const blocks = content.filter((block): block is JsonObject => isJsonObject(block) && block.type === 'tool_result' && typeof block.tool_use_id === 'string');
  const block = blocks.length === 1 ? blocks[0] : undefined;
  return isJsonObject(block) && typeof block.tool_use_id === 'string' ? { sessionId: result.agentId, parentId: block.tool_use_id } : undefined;
}

function summaryOf(value: JsonObject): string | undefined {
  for (const key of SUMMARY_KEYS) {
    const v = value[key];
    if (typeof v === 'string') return v.length > 200 ? v.slice(0, 200) : v;
  }
  return undefined;
}
