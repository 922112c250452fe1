// One record, classified on its own (CONTRACTS §1): which shape it is, validated per variant.
// Never throws: whatever it is handed ends as a record (event or unknown) or a bad line.
import { parseIsoTime } from './isoTime';
import { parseObject } from './json';
import type { Direction, SourceLocation } from './acpTypes';
import { hasIntegerLikeKey, sourceKeyOrder, type JsonPath } from './keyOrder';
import {
  readChunk, readLedgerLine, readModelReturned, readPermissionParams, readPromptParams, readToolCalled, readToolCallFields, readToolResult, readXaiTool,
} from './fastPath';
import { fail, ok, readWith, type Result } from './result';
import { isClaudeCodeEntry, readClaudeCodeLine, readNative } from './formats/native';
import { KNOWN_METHODS, KNOWN_SESSION_UPDATES, SESSION_UPDATE_METHODS } from './acpMethods';
import type { EnvelopeRead, IngestRecord, LedgerBody, RecordBody, RpcId, SessionUpdate, Shape, ToolUpdate } from './records';
import {
  currentModeSchema, isJsonObject, noticeSchema,
  planSchema, terminalCreateParamsSchema, terminalRefParamsSchema,
  turnCompletedSchema, usageUpdateSchema,
  type JsonObject,
} from './schemas';

/**
 * `text` is the record's JSON text, read again only in the rare case where key order matters
 * (an object with integer-like keys; see keyOrder.ts).
 */
export function classify(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  try {
    return classifyObject(value, text, loc);
  } catch (error) {
    // Validation never throws by design; this guards the promise that ingest never throws.
    return record(loc, undefined, undefined, undefined, { kind: 'unknown', reason: `could not be read: ${String(error)}`, value });
  }
}

/** Every record is built here, so all have one shape (one hidden class for the fold to read). */
/** A capture line's direction as a literal: the parsed one is a string of its own on every line, and each call keeps its first. */
function directionOf(dir: 'client->agent' | 'agent->client'): Direction {
  return dir === 'client->agent' ? 'client->agent' : 'agent->client';
}

function record(loc: SourceLocation, shape: Shape | undefined, ts: number | undefined, dir: Direction | undefined, body: RecordBody): IngestRecord {
  return { loc, shape, ts, dir, body };
}

const ROOT: JsonPath = [];
const MSG: JsonPath = ['msg'];
const MESSAGE: JsonPath = ['message'];

function classifyObject(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  // Most lines people index are Claude Code's: known without trying every shape before it.
  return isClaudeCodeEntry(value) ? readClaudeCodeLine(value, text, loc) : classifyByShape(value, text, loc);
}

/** Each shape tried in turn (CONTRACTS §1); exported for the test that holds `isClaudeCodeEntry` to it. */
export function classifyByShape(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  if (value.jsonrpc === '2.0') return record(loc, 'acp-jsonrpc', undefined, undefined, classifyRpc(value, text, ROOT));

  if (isJsonObject(value.msg) && (value.dir === 'client->agent' || value.dir === 'agent->client')) {
    const ts = typeof value.t_ms === 'number' ? value.t_ms : undefined;
    return record(loc, 'acp-capture', ts, directionOf(value.dir), classifyRpc(value.msg, text, MSG));
  }
  if (typeof value.text === 'string' && !('msg' in value)) {
    // What `loupe tee` records besides messages: agent stderr lines, and frames that were not JSON.
    const ts = typeof value.t_ms === 'number' ? value.t_ms : undefined;
    if (value.dir === 'stderr') return record(loc, 'acp-capture', ts, undefined, { kind: 'stderr', text: value.text });
    if (value.dir === 'client->agent' || value.dir === 'agent->client') {
      return record(loc, 'acp-capture', ts, directionOf(value.dir), { kind: 'frame', text: value.text });
    }
  }

  // Other recorders' capture lines (CONTRACTS §1): acpx session logs and ACP-inspector traces.
  if (isJsonObject(value.message) && (value.direction === 'outbound' || value.direction === 'inbound') && 'at' in value) {
    const dir: Direction = value.direction === 'outbound' ? 'client->agent' : 'agent->client';
    return record(loc, 'acpx-log', timeOf(value.at), dir, classifyRpc(value.message, text, MESSAGE));
  }
  if (typeof value.json === 'string' && (value.direction === 'fromClient' || value.direction === 'fromAgent')) {
    const msg = parseObject(value.json);
    if (!msg) return record(loc, undefined, undefined, undefined, { kind: 'unknown', reason: 'ACP-inspector trace whose json is not a JSON object', value });
    const dir: Direction = value.direction === 'fromClient' ? 'client->agent' : 'agent->client';
    return record(loc, 'inspector-trace', timeOf(value.ts), dir, classifyRpc(msg, value.json, ROOT));
  }

  if (typeof value._direction === 'string' && typeof value._type === 'string') return classifyZed(value, text, loc);

  if (typeof value.v === 'number' && typeof value.kind === 'string' && 'data' in value) return classifyLedger(value, text, loc);

  if (typeof value.method === 'string' && 'params' in value) {
    // Grok Build's persisted updates: a JSON-RPC notification without `jsonrpc`, with times.
    const params = value.params;
    const meta = isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
    const ts =
      typeof meta?.agentTimestampMs === 'number' ? meta.agentTimestampMs
      : typeof value.timestamp === 'number' ? value.timestamp * 1000
      : undefined;
    return record(loc, 'grok-updates', ts, undefined, classifyNotification(value.method, params, text, ROOT));
  }

  if (typeof value.sessionUpdate === 'string') {
    return record(loc, 'acp-updates', undefined, undefined, classifyUpdate(null, value, text, ROOT));
  }
  // `{update}` with or without `sessionId`: a `session/update`'s params as an agent logs them.
  if (isJsonObject(value.update) && ('sessionId' in value || typeof value.update.sessionUpdate === 'string')) {
    const sessionId = typeof value.sessionId === 'string' ? value.sessionId : null;
    return record(loc, 'acp-updates', undefined, undefined, classifyUpdate(sessionId, value.update, text, ['update']));
  }

  // Agents' own logs (CONTRACTS §10): one adapter per format, in formats/.
  const native = readNative(value, text, loc);
  if (native) return native;

  return record(loc, undefined, undefined, undefined, { kind: 'unknown', reason: 'matches no known record shape', value });
}

/**
 * A line of a text log (`… OUT: {…}`, CONTRACTS §1), its message already parsed from `json`:
 * direction and time come from the line, the message is classified as any JSON-RPC message.
 */
export function classifyTextLog(msg: JsonObject, json: string, dir: Direction, ts: number | undefined, loc: SourceLocation): IngestRecord {
  try {
    return record(loc, 'text-log', ts, dir, classifyRpc(msg, json, ROOT));
  } catch (error) {
    return record(loc, undefined, undefined, undefined, { kind: 'unknown', reason: `could not be read: ${String(error)}`, value: msg });
  }
}

/** An ISO-8601 time, or a number of milliseconds since the epoch. */
function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const ms = parseIsoTime(value);
  return Number.isFinite(ms) ? ms : undefined;
}

function rpcIdOf(value: unknown): RpcId | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

function classifyRpc(msg: JsonObject, text: string, path: JsonPath): RecordBody {
  const id = rpcIdOf(msg.id);
  if (typeof msg.method === 'string') {
    if (id === undefined) return classifyNotification(msg.method, msg.params, text, path);
    return classifyRequest(id, msg.method, msg.params, text, path);
  }
  if ('result' in msg || 'error' in msg) {
    const error = isJsonObject(msg.error) ? readRpcError(msg.error) : undefined;
    return { kind: 'response', id: id ?? null, result: msg.result, error };
  }
  return { kind: 'unknown', reason: 'JSON-RPC message with neither a method nor a result', value: msg };
}

function readRpcError(error: JsonObject): { code?: number; message: string; data?: unknown } {
  return {
    code: typeof error.code === 'number' ? error.code : undefined,
    message: typeof error.message === 'string' ? error.message : JSON.stringify(error),
    data: error.data,
  };
}

function classifyNotification(method: string, params: unknown, text: string, path: JsonPath): RecordBody {
  if (SESSION_UPDATE_METHODS.has(method)) {
    if (!isJsonObject(params) || !isJsonObject(params.update)) {
      return { kind: 'unknown', reason: `${method} without an update object`, value: params };
    }
    const sessionId = typeof params.sessionId === 'string' ? params.sessionId : null;
    return classifyUpdate(sessionId, params.update, text, [...path, 'params', 'update']);
  }
  if (!KNOWN_METHODS.has(method)) return { kind: 'unknown', reason: `unknown method ${method}`, value: { method, params } };
  return { kind: 'notification', method, params };
}

function classifyRequest(id: RpcId, method: string, params: unknown, text: string, path: JsonPath): RecordBody {
  if (!KNOWN_METHODS.has(method)) return { kind: 'unknown', reason: `unknown method ${method}`, value: { id, method, params } };
  const sessionId = isJsonObject(params) && typeof params.sessionId === 'string' ? params.sessionId : undefined;
  const body: Extract<RecordBody, { kind: 'request' }> = { kind: 'request', id, method, params, sessionId };
  switch (method) {
    case 'session/request_permission': {
      const parsed = readPermissionParams(params);
      if (parsed.ok) {
        const toolCall = isJsonObject(parsed.value.toolCall)
          ? readToolUpdate('tool_call_update', parsed.value.toolCall, text, [...path, 'params', 'toolCall'])
          : undefined;
        body.permission = {
          sessionId: parsed.value.sessionId,
          options: parsed.value.options,
          toolCall: toolCall?.ok ? toolCall.value : undefined,
        };
      }
      break;
    }
    case 'session/prompt': {
      const parsed = readPromptParams(params);
      if (parsed.ok) body.prompt = parsed.value.prompt;
      break;
    }
    case 'terminal/create': {
      const parsed = readWith(terminalCreateParamsSchema, params);
      if (parsed.ok) body.terminalCommand = [parsed.value.command, ...(parsed.value.args ?? [])].join(' ');
      break;
    }
    case 'terminal/output':
    case 'terminal/wait_for_exit':
    case 'terminal/kill':
    case 'terminal/release': {
      const parsed = readWith(terminalRefParamsSchema, params);
      if (parsed.ok) body.terminalId = parsed.value.terminalId;
      break;
    }
  }
  return body;
}

function classifyZed(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  // Zed names directions from its own side: "incoming" is what the agent sent to Zed.
  const dir: Direction | undefined =
    value._direction === 'incoming' ? 'agent->client' : value._direction === 'outgoing' ? 'client->agent' : undefined;
  const method = typeof value.method === 'string' ? value.method : undefined;
  const id = rpcIdOf(value.id);
  let body: RecordBody;
  switch (value._type) {
    case 'stderr':
      body = { kind: 'stderr', text: typeof value.params === 'string' ? value.params : JSON.stringify(value.params ?? value.message ?? '') };
      break;
    case 'response': {
      // The export puts a response's result (or its error object) in `params`.
      const params = value.params;
      const looksLikeError = isJsonObject(params) && typeof params.code === 'number' && typeof params.message === 'string' && Object.keys(params).length <= 3;
      body = looksLikeError
        ? { kind: 'response', id: id ?? null, error: readRpcError(params), method }
        : { kind: 'response', id: id ?? null, result: params, method };
      break;
    }
    case 'request':
      body = method === undefined || id === undefined
        ? { kind: 'unknown', reason: 'Zed request without a method or id', value }
        : classifyRequest(id, method, value.params, text, []);
      break;
    case 'notification':
      body = method === undefined
        ? { kind: 'unknown', reason: 'Zed notification without a method', value }
        : classifyNotification(method, value.params, text, []);
      break;
    default:
      body = { kind: 'unknown', reason: `unknown Zed entry type ${String(value._type)}`, value };
  }
  return record(loc, 'zed-export', undefined, dir, body);
}

function classifyUpdate(sessionId: string | null, update: JsonObject, text: string, path: JsonPath): RecordBody {
  const tag = update.sessionUpdate;
  if (typeof tag !== 'string') return { kind: 'unknown', reason: 'session update without a sessionUpdate tag', value: update };
  if (!KNOWN_SESSION_UPDATES.has(tag)) return { kind: 'unknown', reason: `unknown session update ${tag}`, value: update };
  const read = readUpdate(tag, update, text, path);
  if (!read.ok) return { kind: 'unknown', reason: read.error, value: update };
  return { kind: 'update', sessionId, update: read.value };
}

function readUpdate(tag: string, update: JsonObject, text: string, path: JsonPath): Result<SessionUpdate> {
  switch (tag) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const chunk = readChunk(update);
      if (!chunk.ok) return fail(`invalid ${tag}: ${chunk.error}`);
      return ok({ type: 'chunk', tag, content: chunk.value.content, messageId: chunk.value.messageId });
    }
    case 'tool_call':
    case 'tool_call_update':
      return readToolUpdate(tag, update, text, path);
    case 'plan': {
      const parsed = readWith(planSchema, update);
      if (!parsed.ok) return fail(`invalid plan: ${parsed.error}`);
      return ok({ type: 'plan', entries: parsed.value.entries });
    }
    case 'current_mode_update': {
      const parsed = readWith(currentModeSchema, update);
      if (!parsed.ok) return fail(`invalid current_mode_update: ${parsed.error}`);
      return ok({ type: 'mode', modeId: parsed.value.currentModeId });
    }
    case 'usage_update': {
      const parsed = readWith(usageUpdateSchema, update);
      if (!parsed.ok) return fail(`invalid usage_update: ${parsed.error}`);
      return ok({ type: 'usage', ...parsed.value });
    }
    case 'notice': {
      const parsed = readWith(noticeSchema, update);
      if (!parsed.ok) return fail(`invalid notice: ${parsed.error}`);
      return ok({ type: 'notice', ...parsed.value });
    }
    case 'turn_completed': {
      const parsed = readWith(turnCompletedSchema, update);
      if (!parsed.ok) return fail(`invalid turn_completed: ${parsed.error}`);
      const d = parsed.value;
      return ok({ type: 'turn_completed', stopReason: d.stop_reason, usage: d.usage, elapsedMs: d.elapsed_ms, promptId: d.prompt_id, agentResult: d.agent_result });
    }
    default:
      return ok({ type: 'other', tag, raw: update });
  }
}

function readToolUpdate(
  tag: 'tool_call' | 'tool_call_update',
  update: JsonObject,
  text: string,
  path: JsonPath,
): Result<ToolUpdate> {
  const parsed = readToolCallFields(update);
  if (!parsed.ok) {
    return fail(typeof update.toolCallId === 'string' ? `invalid ${tag}: ${parsed.error}` : `${tag} without a toolCallId`);
  }
  const fields = parsed.value;
  const envelope = readEnvelope(fields._meta, text, path);
  const rawInput = fields.rawInput;
  const rawInputKeyOrder =
    isJsonObject(rawInput) && hasIntegerLikeKey(rawInput) ? sourceKeyOrder(text, [...path, 'rawInput']) : undefined;
  return ok({ type: 'tool', tag, fields, envelope, rawInputKeyOrder });
}

/** Most updates carry no envelope: one shared reading for all of them. */
const ABSENT: EnvelopeRead = Object.freeze({ state: 'absent' });

function readEnvelope(meta: JsonObject | undefined, text: string, path: JsonPath): EnvelopeRead {
  if (!meta || !('x.ai/tool' in meta)) return ABSENT;
  const parsed = readXaiTool(meta['x.ai/tool']);
  if (!parsed.ok) return { state: 'invalid', reason: parsed.error };
  const input = parsed.value.input;
  const inputKeyOrder =
    input && hasIntegerLikeKey(input) ? sourceKeyOrder(text, [...path, '_meta', 'x.ai/tool', 'input']) : undefined;
  return { state: 'valid', envelope: parsed.value, inputKeyOrder };
}

function classifyLedger(value: JsonObject, text: string, loc: SourceLocation): IngestRecord {
  const parsed = readLedgerLine(value);
  if (!parsed.ok) {
    return record(loc, undefined, undefined, undefined, { kind: 'unknown', reason: `invalid ledger line: ${parsed.error}`, value });
  }
  const line = parsed.value;
  return record(loc, 'ledger', undefined, undefined, { kind: 'ledger', line, body: readLedgerBody(line.kind, line.data, text) });
}

function readLedgerBody(kind: string, data: unknown, text: string): LedgerBody {
  if (!isJsonObject(data)) return { type: 'other' };
  switch (kind) {
    case 'tool_called': {
      const parsed = readToolCalled(data);
      if (!parsed.ok) return { type: 'other' };
      const d = parsed.value;
      const subject = 'subject' in data ? (typeof data.subject === 'string' ? data.subject : data.subject === null ? null : undefined) : undefined;
      const argsKeyOrder = isJsonObject(d.args) && hasIntegerLikeKey(d.args) ? sourceKeyOrder(text, ['data', 'args']) : undefined;
      return { type: 'tool_called', call: { id: d.id, name: d.name ?? d.tool, args: d.args, argsKeyOrder, subject, effect: d.effect, render: d.render } };
    }
    case 'tool_result': {
      const parsed = readToolResult(data);
      if (!parsed.ok) return { type: 'other' };
      const d = parsed.value;
      return {
        type: 'tool_result', toolUseId: d.tool_use_id, name: d.name, result: d.result, error: d.error,
        hasResult: 'result' in data, hasError: 'error' in data && data.error !== null, tookUs: d.took_us,
      };
    }
    case 'model_returned': {
      const parsed = readModelReturned(data);
      if (!parsed.ok) return { type: 'other' };
      let text = '';
      for (const part of parsed.value.message?.content ?? []) {
        if (part.kind === undefined || part.kind === 'text') text += part.text ?? '';
      }
      return { type: 'model_returned', text, usage: parsed.value.usage };
    }
    default:
      return { type: 'other' };
  }
}
