// Claude Code's own session log (`~/.claude/projects/<project>/<session>.jsonl`), CONTRACTS §10.
// One entry per line; an assistant response is written as one entry per content block, each
// repeating the message's id and the usage known when it was written. Entry types grow with every
// release: whatever this adapter does not know is still an event, named by its type.
import type { SourceLocation } from '../acpTypes';
import type { JsonPath } from '../keyOrder';
import type { NativeEntry, NativeUpdate } from '../records';
import { isJsonObject, type JsonObject } from '../schemas';
import { callUpdate, chunk, clip, namedEvent, planEntries, resultUpdate, timeOf } from './shared';

// Read by hand, not by a schema: every line of a Claude Code log passes here, and a schema's parse
// (a copy of each object, a closure per field) was 12–15% of `loupe index`'s CPU profile. The shapes are
// the zod schemas in claudeCode.test.ts, which holds these readers to them on every fixture line
// and on generated ones.

/** The entry's envelope: `type` a string, every other field its type or absent (a malformed one absent). */
export interface ClaudeEnvelope {
  type: string;
  subtype: string | undefined;
  uuid: string | undefined;
  sessionId: string | undefined;
  isSidechain: boolean | undefined;
  agentId: string | undefined;
  isMeta: boolean | undefined;
  message: JsonObject | undefined;
  toolUseResult: unknown;
}

/** The envelope, or undefined when the entry has no string `type`. */
export function readEnvelope(value: JsonObject): ClaudeEnvelope | undefined {
  if (typeof value.type !== 'string') return undefined;
  return {
    type: value.type,
    subtype: optionalString(value.subtype),
    uuid: optionalString(value.uuid),
    sessionId: optionalString(value.sessionId),
    isSidechain: optionalBoolean(value.isSidechain),
    agentId: optionalString(value.agentId),
    isMeta: optionalBoolean(value.isMeta),
    message: isJsonObject(value.message) ? value.message : undefined,
    toolUseResult: value.toolUseResult,
  };
}

/** A message's id, content (a string or an array) and usage, each absent when malformed. */
export function readMessage(message: JsonObject): { id: string | undefined; content: string | unknown[] | undefined; usage: JsonObject | undefined } {
  const content = message.content;
  return {
    id: optionalString(message.id),
    content: typeof content === 'string' || Array.isArray(content) ? content : undefined,
    usage: isJsonObject(message.usage) ? message.usage : undefined,
  };
}

export type ClaudeBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: unknown; is_error: boolean | undefined };

/**
 * A content block of the four kinds read, each strict; undefined for a block of another type
 * (images, server tools, what comes next), skipped: the entry is still an event and keeps it in its raw view.
 */
export function readBlock(item: unknown): ClaudeBlock | undefined {
  if (!isJsonObject(item)) return undefined;
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? { type: 'text', text: item.text } : undefined;
    case 'thinking':
      return typeof item.thinking === 'string' ? { type: 'thinking', thinking: item.thinking } : undefined;
    case 'tool_use':
      return typeof item.id === 'string' && typeof item.name === 'string' ? { type: 'tool_use', id: item.id, name: item.name, input: item.input } : undefined;
    case 'tool_result':
      return typeof item.tool_use_id === 'string' ? { type: 'tool_result', tool_use_id: item.tool_use_id, content: item.content, is_error: optionalBoolean(item.is_error) } : undefined;
    default:
      return undefined;
  }
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const optionalBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

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
  if (output) return { name: `command ${output[1]!}`, text: clip(output[2]!.trim()) };
  return undefined;
}

export function readClaudeEntry(value: JsonObject, text: string, loc: SourceLocation): { entry: NativeEntry; ts: number | undefined } {
  const ts = timeOf(value.timestamp);
  const e = readEnvelope(value);
  if (!e) return { entry: namedEvent(String(value.type), value, null), ts };
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
  if (e.message === undefined) {
    if (e.type === 'user') entry.bookkeeping = true;
    return { entry, ts };
  }
  const parts = messageParts(e.type, e.isMeta, e.uuid, e.toolUseResult, e.message, text, loc.line);
  if (parts.command) {
    entry.name = parts.command.name;
    entry.summary = parts.command.text;
    return { entry, ts };
  }
  entry.updates = parts.updates;
  if (parts.usage) entry.usage = parts.usage;
  // A user entry that says nothing (a caveat the harness adds, an empty message): bookkeeping.
  if (e.type === 'user' && entry.updates.length === 0) entry.bookkeeping = true;
  return { entry, ts };
}

/** What an entry's message stands for: the updates, the usage, or the slash command a person typed. */
export interface ClaudeMessageParts {
  updates: NativeUpdate[];
  usage?: NonNullable<NativeEntry['usage']>;
  command?: { name: string; text: string };
}

/**
 * An entry's message as updates and usage: `readClaudeEntry`'s reading of it, and the index's
 * (model/claudeCodeRead.ts), which reads only what rows show and so no entry around it.
 */
export function messageParts(
  type: string, isMeta: boolean | undefined, uuid: string | undefined, toolUseResult: unknown, message: JsonObject, text: string, line: number,
): ClaudeMessageParts {
  const { id: messageId, content, usage } = readMessage(message);
  // A slash command the user typed, and what it printed: shown as the command, not as a prompt.
  const command = type === 'user' && typeof content === 'string' ? slashCommand(content) : undefined;
  if (command) return { updates: [], command };
  // Each user entry is a message of its own, even when two follow each other.
  if (type === 'user' && isMeta !== true) return { updates: userUpdates(content, toolUseResult, uuid ?? `line ${line}`) };
  if (type !== 'assistant') return { updates: [] };
  const updates = assistantUpdates(content, messageId, text, ['message', 'content']);
  if (!usage) return { updates };
  return { updates, usage: messageId === undefined ? { counts: usage } : { messageId, counts: usage } };
}

function userUpdates(content: string | unknown[] | undefined, toolUseResult: unknown, messageId: string): NativeUpdate[] {
  if (typeof content === 'string') return [chunk('user_message_chunk', content, messageId)];
  if (!content) return [];
  const updates: NativeUpdate[] = [];
  // Counted, not filtered: no array and no closure for every user entry.
  let results = 0;
  for (const block of content) if (isJsonObject(block) && block.type === 'tool_result') results++;
  for (const item of content) {
    const b = readBlock(item);
    if (!b) continue;
    if (b.type === 'text') updates.push(chunk('user_message_chunk', b.text, messageId));
    else if (b.type === 'tool_result') {
      // The entry's `toolUseResult` is the tool's own output; it belongs to the block only when there is one.
      const output = results === 1 && toolUseResult !== undefined ? toolUseResult : b.content;
      updates.push({ type: 'result', update: resultUpdate(b.tool_use_id, b.is_error === true, textOf(b.content), output) });
    }
  }
  return updates;
}

/**
 * What a running sub-agent did, from the main log's `agent_progress` entry that copies one of its
 * messages (§11; `data.message` {type, message, uuid, timestamp, toolUseResult}): the message in the
 * sub-agent's session, so its calls show under their Task call while the sub-agent's own file is
 * not there yet. The copy has the `uuid` of the entry in that file, so whichever of the two is read
 * second is counted, not folded again. Its usage is left out: the copy is written when the
 * response starts (`output_tokens` 1), and the file's entry, skipped as the same entry, would not
 * correct it.
 */
function agentProgress(value: JsonObject, agentId: string, text: string): { entry: Pick<NativeEntry, 'sessionId' | 'uuid' | 'updates'>; ts: number | undefined } | undefined {
  const data = value.data;
  const copied = isJsonObject(data) ? data.message : undefined;
  if (!isJsonObject(copied) || (copied.type !== 'user' && copied.type !== 'assistant') || typeof copied.uuid !== 'string' || !isJsonObject(copied.message)) return undefined;
  const message = readMessage(copied.message);
  const updates = copied.type === 'user'
    ? userUpdates(message.content, copied.toolUseResult, copied.uuid)
    : assistantUpdates(message.content, message.id, text, ['data', 'message', 'message', 'content']);
  if (updates.length === 0) return undefined;
  return { entry: { sessionId: agentId, uuid: copied.uuid, updates }, ts: timeOf(copied.timestamp) };
}

function assistantUpdates(content: string | unknown[] | undefined, messageId: string | undefined, text: string, contentPath: JsonPath): NativeUpdate[] {
  if (typeof content === 'string') return [chunk('agent_message_chunk', content, messageId)];
  if (!content) return [];
  const updates: NativeUpdate[] = [];
  content.forEach((item, index) => {
    const b = readBlock(item);
    if (!b) return;
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
export function subagentOf(value: JsonObject, type: string): { sessionId: string; parentId: string } | undefined {
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

/** What an entry of a kind rows do not show is about: the first of its `content`, `summary`, `lastPrompt`, `operation` that is a string. */
function summaryOf(value: JsonObject): string | undefined {
  // Each key read by name, not in a loop over the names: asked of every entry, a keyed read of
  // objects of many shapes is a slow lookup each.
  const summary =
    typeof value.content === 'string' ? value.content
    : typeof value.summary === 'string' ? value.summary
    : typeof value.lastPrompt === 'string' ? value.lastPrompt
    : typeof value.operation === 'string' ? value.operation
    : undefined;
  return summary === undefined ? undefined : clip(summary);
}
