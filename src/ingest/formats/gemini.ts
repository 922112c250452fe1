// Gemini CLI's own chat files (`~/.gemini/tmp/<project>/chats/session-<start>-<id8>.jsonl`),
// CONTRACTS §11. Gemini CLI's chat recording service appends one JSON object per line: a header
// `{sessionId, projectHash, startTime, lastUpdated, kind}`, `{"$set": {…}}` metadata patches (a
// `$set` of `messages` writes the whole history again), `{"$rewindTo": ID}` and message records
// `{id, timestamp, type, content, …}`. A record is written again, whole, each time it changes
// (its tool calls advance, its tokens arrive): the builder replaces it by id (`NativeEntry.record`).
// Older releases wrote one `session-*.json` object `{sessionId, projectHash, startTime,
// lastUpdated, messages: [...]}`: its head is read as a header and each message as a record.
import { z } from 'zod';
import type { SourceLocation } from '../acpTypes';
import type { IngestRecord, NativeEntry, NativeUpdate } from '../records';
import { isJsonObject, type JsonObject, optString } from '../schemas';
import { callUpdate, chunk, clip, namedEvent, planEntries, resultUpdate, timeOf } from './shared';

/** Keys of Claude Code entries and Codex lines: a line holding one is theirs, never a Gemini record. */
const OTHER_NATIVE_KEYS = ['payload', 'uuid', 'leafUuid', 'sessionId'] as const;

/** Whether a line (already known to hold none of the §1 shapes' keys) is a line of a Gemini CLI chat file. */
export function isGeminiLine(value: JsonObject): boolean {
  if (typeof value.$rewindTo === 'string' || isJsonObject(value.$set)) return true;
  if (isGeminiHeader(value)) return true;
  if (typeof value.id !== 'string' || typeof value.type !== 'string' || typeof value.timestamp !== 'string') return false;
  for (const key of OTHER_NATIVE_KEYS) if (key in value) return false;
  return true;
}

/** A header line (`{sessionId, projectHash, …}` without a `type`), or an older release's whole `session-*.json` object. */
function isGeminiHeader(value: JsonObject): boolean {
  return typeof value.sessionId === 'string' && typeof value.projectHash === 'string' && !('type' in value);
}

const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.unknown().optional(),
  result: z.unknown().optional(),
  status: optString,
  timestamp: optString,
  resultDisplay: z.unknown().optional(),
});

const recordSchema = z.object({
  id: z.string(),
  type: z.string(),
  content: z.unknown().optional(),
  displayContent: z.unknown().optional(),
  thoughts: z.array(z.unknown()).nullish().catch(undefined),
  toolCalls: z.array(z.unknown()).nullish().catch(undefined),
  tokens: z.custom<JsonObject>(isJsonObject).nullish().catch(undefined),
  model: optString,
});

export function readGeminiLine(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  const { entry, ts } = readGeminiEntry(value, text, []);
  return { loc, shape: 'gemini-cli', ts, dir: undefined, body: entry };
}

/**
 * One line (or, inside a `$set` or an old `.json` object, one record) as a native entry. `path`:
 * where the object is in the line's text, for the key order of a tool call's `args` (§6).
 */
function readGeminiEntry(value: JsonObject, text: string, path: (string | number)[]): { entry: NativeEntry; ts: number | undefined } {
  if (typeof value.$rewindTo === 'string') {
    return { entry: { kind: 'native', name: '$rewindTo', summary: `rewind to ${value.$rewindTo}`, rewindTo: value.$rewindTo, updates: [], raw: value }, ts: undefined };
  }
  if (isJsonObject(value.$set)) {
    const patch = value.$set;
    const entry: NativeEntry = { kind: 'native', name: '$set', summary: Object.keys(patch).join(', '), updates: [], raw: value };
    if (Array.isArray(patch.messages)) entry.records = recordsOf(patch.messages, text, [...path, '$set', 'messages']);
    return { entry, ts: timeOf(patch.lastUpdated) };
  }
  if (isGeminiHeader(value)) {
    const sessionId = value.sessionId as string;
    const entry: NativeEntry = { kind: 'native', name: 'session', summary: sessionId, sessionId, opens: sessionId, updates: [], raw: value };
    // An older release's whole file: its messages are its records.
    if (Array.isArray(value.messages) && value.messages.length > 0) entry.records = recordsOf(value.messages, text, [...path, 'messages']);
    return { entry, ts: timeOf(value.startTime) };
  }
  return readRecord(value, text, path);
}

function recordsOf(messages: unknown[], text: string, path: (string | number)[]): NativeEntry[] {
  const records: NativeEntry[] = [];
  messages.forEach((message, index) => {
    if (isJsonObject(message) && typeof message.id === 'string') records.push(readRecord(message, text, [...path, index]).entry);
  });
  return records;
}

/** A message record `{id, timestamp, type, content, …}`. */
function readRecord(value: JsonObject, text: string, path: (string | number)[]): { entry: NativeEntry; ts: number | undefined } {
  const ts = timeOf(value.timestamp);
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) return { entry: namedEvent(typeof value.type === 'string' ? value.type : 'record', value, undefined), ts };
  const r = parsed.data;
  const entry: NativeEntry = { kind: 'native', name: r.type, record: r.id, updates: [], raw: value };
  const texts = textsOf(r.content);
  if (r.type === 'user') {
    // Gemini CLI puts its own context in a user record (`<session_context>…`), and the tools'
    // results go back to the model as user records of `functionResponse` parts: neither is
    // something the user said.
    const said = texts.filter((t) => !isHarnessContext(t));
    if (said.length > 0) entry.updates.push(chunk('user_message_chunk', said.join('\n'), r.id));
    else entry.summary = texts.length > 0 ? clip(texts.join('\n')) : responsesOf(r.content);
  } else if (r.type === 'gemini') {
    const thoughts = thoughtsOf(r.thoughts ?? []);
    if (thoughts !== undefined) entry.updates.push(chunk('agent_thought_chunk', thoughts, r.id));
    if (texts.length > 0 && texts.join('') !== '') entry.updates.push(chunk('agent_message_chunk', texts.join(''), r.id));
    (r.toolCalls ?? []).forEach((item, index) => entry.updates.push(...toolCallUpdates(item, text, [...path, 'toolCalls', index])));
    if (r.tokens) entry.usage = { messageId: r.id, counts: r.tokens };
  } else {
    // `info`, `error`, `warning` (what Gemini CLI told the user) and types this reader does not
    // know: an event named by its type, with its text.
    const said = texts.join('\n');
    if (said !== '') entry.summary = clip(said);
  }
  return { entry, ts };
}

/** One entry of a `gemini` record's `toolCalls`: its `tool_call`, and its final update once it has a status. */
function toolCallUpdates(item: unknown, text: string, path: (string | number)[]): NativeUpdate[] {
  const parsed = toolCallSchema.safeParse(item);
  if (!parsed.success) return [];
  const c = parsed.data;
  const update = callUpdate(c.id, c.name, c.args, text, [...path, 'args']);
  const ts = timeOf(c.timestamp);
  // `write_todos` names each todo by its `description`.
  const todos = isJsonObject(c.args) && Array.isArray(c.args.todos) ? (c.args.todos as unknown[]).map((t) => (isJsonObject(t) && t.content === undefined ? { ...t, content: t.description } : t)) : undefined;
  const plan = planEntries(todos);
  const call: NativeUpdate = plan ? { type: 'call', update, plan } : { type: 'call', update };
  if (ts !== undefined) call.ts = ts;
  const status = c.status === undefined ? undefined : statusOf(c.status, c.name, c.result);
  if (status === undefined) return [call];
  const output = outputOf(c.result);
  const resultText = output ?? (typeof c.resultDisplay === 'string' ? c.resultDisplay : undefined);
  const result: NativeUpdate = { type: 'result', update: resultUpdate(c.id, status === 'failed', resultText, c.result ?? c.resultDisplay) };
  // A command's `Exit Code: N` is kept as data (CONTRACTS §11 "Exit codes"); a command that exited 0 writes none.
  const exitCode = c.name === 'run_shell_command' ? exitCodeOf(output) : undefined;
  return exitCode === undefined ? [call, result] : [call, result, { type: 'exit', toolCallId: c.id, exitCode }];
}

/**
 * §11: `success` → completed, `error` or `cancelled` → failed, anything else still pending (no
 * result yet). A `run_shell_command` whose output says `Exit Code: N`, N ≠ 0, failed: Gemini marks
 * it `success` (the tool ran).
 */
function statusOf(status: string, name: string, result: unknown): 'completed' | 'failed' | undefined {
  if (status === 'error' || status === 'cancelled') return 'failed';
  if (status !== 'success') return undefined;
  if (name === 'run_shell_command') {
    const code = exitCodeOf(outputOf(result));
    if (code !== undefined && code !== 0) return 'failed';
  }
  return 'completed';
}

/** The `Exit Code: N` line of a `run_shell_command`'s output, where it has one. */
export function exitCodeOf(output: string | undefined): number | undefined {
  if (output === undefined) return undefined;
  const match = /^Exit Code: (-?\d+)\s*$/m.exec(output);
  return match ? Number(match[1]) : undefined;
}

/** A tool call's `result` (`[{functionResponse: {response: {output | error}}}]`) as text. */
function outputOf(result: unknown): string | undefined {
  if (!Array.isArray(result)) return typeof result === 'string' ? result : undefined;
  const parts: string[] = [];
  for (const part of result) {
    if (!isJsonObject(part)) continue;
    const response = isJsonObject(part.functionResponse) && isJsonObject(part.functionResponse.response) ? part.functionResponse.response : undefined;
    if (typeof response?.output === 'string') parts.push(response.output);
    else if (typeof response?.error === 'string') parts.push(response.error);
    else if (typeof part.text === 'string') parts.push(part.text);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** A record's `content` (a string, a part, or a list of parts) as its text parts; thought parts are thoughts, not text. */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part);
    else if (isJsonObject(part) && typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
  }
  return texts;
}

/** `thoughts: [{subject, description, timestamp}]` as one text, or undefined when there are none. */
function thoughtsOf(thoughts: unknown[]): string | undefined {
  const texts: string[] = [];
  for (const thought of thoughts) {
    if (!isJsonObject(thought)) continue;
    const subject = typeof thought.subject === 'string' ? thought.subject.trim() : '';
    const description = typeof thought.description === 'string' ? thought.description.trim() : '';
    const text = subject !== '' && description !== '' ? `${subject}\n${description}` : subject || description;
    if (text !== '') texts.push(text);
  }
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/** A user record of tool results (`functionResponse` parts): which tools' results it carries. */
function responsesOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const names: string[] = [];
  for (const part of content) {
    const response = isJsonObject(part) && isJsonObject(part.functionResponse) ? part.functionResponse : undefined;
    if (typeof response?.name === 'string') names.push(response.name);
  }
  return names.length > 0 ? `tool results: ${names.join(', ')}` : undefined;
}


/** A text that is one tagged block, `<name>…</name>`: what Gemini CLI writes into user records itself. */
function isHarnessContext(text: string): boolean {
  return /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/.test(text);
}

