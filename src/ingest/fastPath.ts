// Fast paths for the hot variants (tool-call updates, message chunks, ledger lines). The zod
// schemas in schemas.ts are the contract; these guards accept only input that those schemas accept
// unchanged, and return the parsed object itself instead of a copy. Anything else (a null, a
// malformed optional field, an unknown content block) falls through to zod, which decides.
// `fastPath.test.ts` checks on random input that the two never disagree.
import type { ContentBlock, ToolCallContent } from './acpTypes';
import type { z } from 'zod';
import {
  callStatusSchema, chunkSchema, ledgerLineSchema, modelReturnedSchema, permissionParamsSchema, permissionResultSchema, promptParamsSchema,
  promptResultSchema, toolCalledSchema, toolCallFieldsSchema, toolResultSchema, xaiToolSchema,
} from './schemas';
import { isJsonObject, type JsonObject, type LedgerLine, type ToolCallFields, type XaiTool } from './schemas';
import { fail, ok, readWith, type Result } from './result';

const absentOrString = (value: unknown) => value === undefined || typeof value === 'string';
const absentOrNumber = (value: unknown) => value === undefined || typeof value === 'number';
const STATUSES: ReadonlySet<unknown> = new Set(callStatusSchema.options);

function isTextBlock(value: unknown): value is ContentBlock {
  return isJsonObject(value) && value.type === 'text' && typeof value.text === 'string';
}

function isPlainToolCallContent(value: unknown): value is ToolCallContent {
  if (!isJsonObject(value)) return false;
  switch (value.type) {
    case 'content':
      return isTextBlock(value.content);
    case 'diff':
      return typeof value.path === 'string' && typeof value.newText === 'string' && (value.oldText === null || typeof value.oldText === 'string');
    case 'terminal':
      return typeof value.terminalId === 'string';
    default:
      return false;
  }
}

function isPlainLocation(value: unknown): boolean {
  return isJsonObject(value) && typeof value.path === 'string' && (value.line === undefined || typeof value.line === 'number');
}

function everyItem(value: unknown, check: (item: unknown) => boolean): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!check(item)) return false;
  return true;
}

export function readToolCallFields(value: JsonObject): Result<ToolCallFields> {
  if (
    typeof value.toolCallId === 'string' && absentOrString(value.title) && absentOrString(value.kind) && absentOrString(value.name) &&
    (value.status === undefined || STATUSES.has(value.status)) && (value._meta === undefined || isJsonObject(value._meta)) &&
    everyItem(value.content, isPlainToolCallContent) && everyItem(value.locations, isPlainLocation)
  ) {
    return ok(value as ToolCallFields);
  }
  return readWith(toolCallFieldsSchema, value);
}

export function readChunk(value: JsonObject): Result<{ content: ContentBlock; messageId?: string }> {
  if (isTextBlock(value.content) && absentOrString(value.messageId)) return ok(value as { content: ContentBlock; messageId?: string });
  const parsed = chunkSchema.safeParse(value);
  return parsed.success ? ok(parsed.data) : fail(parsed.error.issues[0]?.message ?? 'invalid');
}

export function readXaiTool(value: unknown): Result<XaiTool> {
  if (
    isJsonObject(value) && value.version === 1 && typeof value.label === 'string' && value.label.length > 0 &&
    typeof value.name === 'string' && absentOrString(value.kind) && absentOrString(value.namespace) &&
    (value.read_only === undefined || typeof value.read_only === 'boolean') && (value.input === undefined || isJsonObject(value.input))
  ) {
    return ok(value as XaiTool);
  }
  return readWith(xaiToolSchema, value);
}

export function readLedgerLine(value: JsonObject): Result<LedgerLine> {
  if (
    typeof value.v === 'number' && typeof value.kind === 'string' && typeof value.seq === 'number' && absentOrNumber(value.t) &&
    absentOrString(value.run) && absentOrString(value.prev) && absentOrString(value.who) && absentOrString(value.addr) &&
    (value.ig === undefined || typeof value.ig === 'boolean')
  ) {
    return ok(value as LedgerLine);
  }
  return readWith(ledgerLineSchema, value);
}

// Ledger bodies: `data` of the three hot kinds. Their schemas only read a few typed keys (and
// never reject an object: a mistyped key becomes absent), so a body whose keys have the expected
// types is read in place; anything else is zod's to read.

export type ToolCalledData = z.infer<typeof toolCalledSchema>;
export type ToolResultData = z.infer<typeof toolResultSchema>;
export type ModelReturnedData = z.infer<typeof modelReturnedSchema>;

export function readToolCalled(data: JsonObject): Result<ToolCalledData> {
  if (absentOrString(data.id) && absentOrString(data.name) && absentOrString(data.tool)) return ok(data);
  return readWith(toolCalledSchema, data);
}

export function readToolResult(data: JsonObject): Result<ToolResultData> {
  if (absentOrString(data.tool_use_id) && absentOrString(data.name) && absentOrNumber(data.took_us)) return ok(data);
  return readWith(toolResultSchema, data);
}

function isTextPart(value: unknown): boolean {
  return isJsonObject(value) && absentOrString(value.kind) && absentOrString(value.text);
}

export function readModelReturned(data: JsonObject): Result<ModelReturnedData> {
  const message = data.message;
  if (
    (message === undefined || (isJsonObject(message) && Array.isArray(message.content) && everyItem(message.content, isTextPart))) &&
    (data.usage === undefined || isJsonObject(data.usage))
  ) {
    return ok(data);
  }
  return readWith(modelReturnedSchema, data);
}

// JSON-RPC requests and responses of every turn: prompts, permission requests and their answers.

export type PromptParams = z.infer<typeof promptParamsSchema>;
export type PermissionParams = z.infer<typeof permissionParamsSchema>;
export type PermissionResult = z.infer<typeof permissionResultSchema>;
export type PromptResult = z.infer<typeof promptResultSchema>;

/**
 * A prompt of text blocks only is read in place. zod would copy each block without its other
 * keys; the model reads nothing of a text block but its `text`, so the two readings fold alike.
 */
export function readPromptParams(value: unknown): Result<PromptParams> {
  if (isJsonObject(value) && absentOrString(value.sessionId) && Array.isArray(value.prompt) && everyItem(value.prompt, isTextBlock)) {
    return ok(value as PromptParams);
  }
  return readWith(promptParamsSchema, value);
}

function isPlainOption(value: unknown): boolean {
  return isJsonObject(value) && typeof value.optionId === 'string' && typeof value.name === 'string' && typeof value.kind === 'string';
}

/** Options are kept in the model, so they are built as zod builds them: these three keys only. */
export function readPermissionParams(value: unknown): Result<PermissionParams> {
  if (isJsonObject(value) && absentOrString(value.sessionId) && Array.isArray(value.options) && everyItem(value.options, isPlainOption)) {
    const options = (value.options as { optionId: string; name: string; kind: string }[]).map(({ optionId, name, kind }) => ({ optionId, name, kind }));
    return ok({ sessionId: value.sessionId, toolCall: value.toolCall, options });
  }
  return readWith(permissionParamsSchema, value);
}

export function readPermissionResult(value: unknown): Result<PermissionResult> {
  if (isJsonObject(value) && isJsonObject(value.outcome)) {
    const outcome = value.outcome;
    if ((outcome.outcome === 'selected' && typeof outcome.optionId === 'string') || outcome.outcome === 'cancelled') {
      return ok(value as PermissionResult);
    }
  }
  return readWith(permissionResultSchema, value);
}

export function readPromptResult(value: unknown): Result<PromptResult> {
  if (isJsonObject(value) && typeof value.stopReason === 'string' && (value.usage === undefined || isJsonObject(value.usage))) {
    return ok(value as PromptResult);
  }
  return readWith(promptResultSchema, value);
}
