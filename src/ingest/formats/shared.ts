// What the native-log adapters (CONTRACTS §10) share: the ACP updates a native call and result stand for.
import { z } from 'zod';
import { parseIsoTime } from '../isoTime';
import type { ContentBlock, PlanEntry, ToolCallContent } from '../acpTypes';
import { hasIntegerLikeKey, sourceKeyOrder, type JsonPath } from '../keyOrder';
import type { EnvelopeRead, NativeEntry, NativeUpdate, ToolUpdate } from '../records';
import { isJsonObject, type JsonObject, optBoolean, optString } from '../schemas';

/** An entry whose own fields could not be read: still an event, named by its type (§10). */
export function namedEvent(name: string, raw: JsonObject, sessionId: string | null | undefined): NativeEntry {
  return { kind: 'native', name, sessionId, updates: [], raw };
}

/** An ISO-8601 time as milliseconds since the epoch. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = parseIsoTime(value);
  return Number.isFinite(ms) ? ms : undefined;
}

const ABSENT: EnvelopeRead = Object.freeze({ state: 'absent' });

/**
 * A native tool call as the `tool_call` its harness's ACP adapter would send: id, tool name and
 * input, pending. `text` and `path` find the input in the line when its key order matters (§6).
 */
export function callUpdate(id: string, name: string, rawInput: unknown, text: string, path: JsonPath): ToolUpdate {
  const rawInputKeyOrder = isJsonObject(rawInput) && hasIntegerLikeKey(rawInput) ? sourceKeyOrder(text, path) : undefined;
  const fields: ToolUpdate['fields'] = { toolCallId: id, name, status: 'pending', locations: undefined };
  if (rawInput !== undefined) fields.rawInput = rawInput;
  return { type: 'tool', tag: 'tool_call', fields, envelope: ABSENT, rawInputKeyOrder };
}

/** A native result as its call's final `tool_call_update`: status, the output as text content, and the output itself. */
export function resultUpdate(id: string, failed: boolean, text: string | undefined, rawOutput: unknown): ToolUpdate {
  const content: ToolCallContent[] | undefined = text === undefined ? undefined : [{ type: 'content', content: { type: 'text', text } }];
  const fields: ToolUpdate['fields'] = { toolCallId: id, status: failed ? 'failed' : 'completed', locations: undefined, content };
  if (rawOutput !== undefined) fields.rawOutput = rawOutput;
  return { type: 'tool', tag: 'tool_call_update', fields, envelope: ABSENT };
}

/**
 * A plan call's entries (Claude `todos`, Codex `plan`), as the ACP `plan` update its adapter sends; undefined when it names none.
 * Each item is `{content?: string, step?: string, status: string (else 'pending'), priority?: string (else none)}`,
 * skipped when `content` or `step` is there and not a string or neither is there: read by hand, as
 * the zod schema in shared.test.ts reads it (its parse was a tenth of reading a Claude message).
 */
export function planEntries(items: unknown): PlanEntry[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const entries: PlanEntry[] = [];
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    const { content, step, status, priority } = item;
    if ((content !== undefined && typeof content !== 'string') || (step !== undefined && typeof step !== 'string')) continue;
    const text = content ?? step;
    if (text === undefined) continue;
    const entry: PlanEntry = { content: text, status: typeof status === 'string' ? status : 'pending' };
    if (typeof priority === 'string') entry.priority = priority;
    entries.push(entry);
  }
  return entries;
}

/** An event's summary: its text, cut where a row has no room for more. */
export function clip(text: string): string {
  return text.length > 200 ? text.slice(0, 200) : text;
}

/** A message's text as the ACP chunk it stands for (a message id joins the chunks of one message). */
export function chunk(tag: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk', text: string, messageId: string | undefined): NativeUpdate {
  const content: ContentBlock = { type: 'text', text };
  return messageId === undefined ? { type: 'chunk', tag, content } : { type: 'chunk', tag, content, messageId };
}

/**
 * Claude Code's envelope keys that say whose record a line is (Qwen Code writes the same envelope):
 * the fields of an entry's zod object before each harness's own.
 */
export const claudeEnvelopeFields = {
  type: z.string(),
  subtype: optString,
  uuid: optString,
  sessionId: optString,
  isSidechain: optBoolean,
  agentId: optString,
};

/** Anthropic's `text` and `thinking` content blocks, as Cline and Pi write them. */
export const textBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
export const thinkingBlockSchema = z.object({ type: z.literal('thinking'), thinking: z.string() });

/** A text block as the person's or the agent's message chunk, a thinking block as the agent's thought; none when it is empty. */
export function textBlockChunks(
  block: z.infer<typeof textBlockSchema> | z.infer<typeof thinkingBlockSchema>,
  textTag: 'user_message_chunk' | 'agent_message_chunk',
  messageId: string,
): NativeUpdate[] {
  const [tag, text] = block.type === 'text' ? [textTag, block.text] : (['agent_thought_chunk', block.thinking] as const);
  return text === '' ? [] : [chunk(tag, text, messageId)];
}

/** A message's `content` (a string, or a list of blocks) as the texts of its `text` blocks. */
export function textBlockTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content) if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  return texts;
}
