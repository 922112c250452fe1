// zod schemas for the untrusted input, applied once here. Loose where the official parsers are
// loose: a malformed optional field becomes absent (`.catch(undefined)`) instead of rejecting the
// line; a malformed required field makes the record "unknown" (shown raw), never an exception.
import { z } from 'zod';
import type { ContentBlock, PlanEntry, ToolCallContent, ToolCallLocation } from './acpTypes';
import { isJsonObject, type JsonObject } from './json';

// No compiled parsers: zod's probe for them (`new Function`) is a violation report under the
// strict CSP the viewer ships with (no 'unsafe-eval'), even though zod catches it.
z.config({ jitless: true });

/** Optional fields read leniently: a value of another type is as good as absent. */
export const optString = z.string().optional().catch(undefined);
export const optNumber = z.number().optional().catch(undefined);
export const optBoolean = z.boolean().optional().catch(undefined);

export { isJsonObject, type JsonObject };
/** A plain object, kept as is (no copy): `_meta`, usage and other open-ended bags. */
const jsonObject = z.custom<JsonObject>(isJsonObject);
export const optObject = jsonObject.optional().catch(undefined);

// ---------------------------------------------------------------------------------------------
// Content

/** Known variants validated strictly; anything else kept whole as `unknown` for the raw view. */
function orUnknown<T>(known: z.ZodType<T>): z.ZodType<T | { type: 'unknown'; raw: unknown }, unknown> {
  return z.unknown().transform((value) => {
    const parsed = known.safeParse(value);
    return parsed.success ? parsed.data : { type: 'unknown' as const, raw: value };
  });
}

export const contentBlockSchema: z.ZodType<ContentBlock, unknown> = orUnknown(z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('image'), mimeType: z.string(), data: optString, uri: optString }),
    z.object({ type: z.literal('audio'), mimeType: z.string(), data: optString }),
    z.object({ type: z.literal('resource_link'), uri: z.string(), name: optString, title: optString, mimeType: optString }),
    z.object({
      type: z.literal('resource'),
      resource: z.object({ uri: z.string(), text: optString, blob: optString, mimeType: optString }),
    }),
  ]));

const toolCallContentSchema: z.ZodType<ToolCallContent, unknown> = orUnknown(z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('content'), content: contentBlockSchema }),
    z.object({ type: z.literal('diff'), path: z.string(), oldText: z.string().nullable().catch(null), newText: z.string() }),
    z.object({ type: z.literal('terminal'), terminalId: z.string() }),
  ]));

const locationSchema = z.object({ path: z.string(), line: optNumber });
const locationsSchema = z
  .array(z.unknown())
  .transform((items) => {
    const valid: ToolCallLocation[] = [];
    for (const item of items) {
      const parsed = locationSchema.safeParse(item);
      if (parsed.success) valid.push(parsed.data.line === undefined ? { path: parsed.data.path } : parsed.data);
    }
    return valid;
  })
  .optional()
  .catch(undefined);

// ---------------------------------------------------------------------------------------------
// Tool calls (ACP `ToolCall` / `ToolCallUpdate`, and a permission request's `toolCall`)

export const callStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed']);

export const toolCallFieldsSchema = z.object({
  toolCallId: z.string(),
  title: optString,
  kind: optString,
  status: callStatusSchema.optional().catch(undefined),
  name: optString,
  content: z.array(toolCallContentSchema).optional().catch(undefined),
  locations: locationsSchema,
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  _meta: optObject,
});
export type ToolCallFields = z.infer<typeof toolCallFieldsSchema>;

/** `_meta["x.ai/tool"]`, read loosely (CONTRACTS §3): a failure means "absent on this update". */
export const xaiToolSchema = z.object({
  version: z.literal(1),
  label: z.string().min(1),
  name: z.string(),
  kind: z.string().optional(),
  namespace: z.string().optional(),
  read_only: z.boolean().optional(),
  input: jsonObject.optional(),
});
export type XaiTool = z.infer<typeof xaiToolSchema>;

// ---------------------------------------------------------------------------------------------
// Other session updates

export const chunkSchema = z.object({ content: contentBlockSchema, messageId: optString });

const planEntrySchema = z.object({ content: z.string(), priority: optString, status: z.string() });
export const planSchema = z.object({
  entries: z.array(z.unknown()).transform((items) => {
    const valid: PlanEntry[] = [];
    for (const item of items) {
      const parsed = planEntrySchema.safeParse(item);
      if (parsed.success) valid.push(parsed.data);
    }
    return valid;
  }),
});
export const currentModeSchema = z.object({ currentModeId: z.string() });
export const usageUpdateSchema = z.object({
  used: z.number(),
  size: z.number(),
  cost: z.object({ amount: z.number(), currency: z.string() }).optional().catch(undefined),
});
export const noticeSchema = z.object({ severity: optString, title: z.string(), description: optString });
/** Grok Build's `_x.ai/session/update` `turn_completed`. */
export const turnCompletedSchema = z.object({
  stop_reason: optString,
  usage: optObject,
  elapsed_ms: optNumber,
  prompt_id: optString,
  agent_result: optString,
});

// ---------------------------------------------------------------------------------------------
// JSON-RPC requests and responses the model joins (CONTRACTS §8)

export const permissionParamsSchema = z.object({
  sessionId: optString,
  toolCall: z.unknown().optional(),
  options: z
    .array(z.object({ optionId: z.string(), name: z.string().catch(''), kind: z.string().catch('') }))
    .catch([]),
});
export const promptParamsSchema = z.object({ sessionId: optString, prompt: z.array(contentBlockSchema).catch([]) });
export const terminalCreateParamsSchema = z.object({
  sessionId: optString,
  command: z.string(),
  args: z.array(z.string()).optional().catch(undefined),
});
export const terminalRefParamsSchema = z.object({ terminalId: z.string() });

export const permissionResultSchema = z.object({
  outcome: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('selected'), optionId: z.string() }),
    z.object({ outcome: z.literal('cancelled') }),
  ]),
});
export const promptResultSchema = z.object({ stopReason: z.string(), usage: optObject });
export const terminalCreateResultSchema = z.object({ terminalId: z.string() });
const exitStatusSchema = z.object({
  exitCode: z.number().nullable().optional().catch(undefined),
  signal: z.string().nullable().optional().catch(undefined),
});
export const terminalOutputResultSchema = z.object({
  output: z.string(),
  truncated: z.boolean().catch(false),
  exitStatus: exitStatusSchema.nullable().optional().catch(undefined),
});
export const terminalExitResultSchema = exitStatusSchema;
export const newSessionResultSchema = z.object({ sessionId: z.string() });

// ---------------------------------------------------------------------------------------------
// Ledger

export const ledgerLineSchema = z.looseObject({
  v: z.number(),
  // A line without `seq` is not a ledger line (CONTRACTS §1): unknown, not an event.
  seq: z.number(),
  kind: z.string(),
  data: z.unknown().optional(),
  run: optString,
  prev: optString,
  t: optNumber,
  who: optString,
  addr: optString,
  ig: optBoolean,
});
export type LedgerLine = z.infer<typeof ledgerLineSchema>;

export const toolCalledSchema = z.object({
  id: optString,
  name: optString,
  tool: optString,
  args: z.unknown().optional(),
  effect: z.unknown().optional(),
  render: z.unknown().optional(),
});
export const toolResultSchema = z.object({
  tool_use_id: optString,
  name: optString,
  result: z.unknown().optional(),
  error: z.unknown().optional(),
  took_us: optNumber,
});
const ledgerTextPartSchema = z.object({ kind: optString, text: optString });
export const modelReturnedSchema = z.object({
  message: z.object({ content: z.array(ledgerTextPartSchema.catch({ kind: undefined, text: undefined })).catch([]) }).optional().catch(undefined),
  usage: optObject,
});
