// The records ingest produces: one per non-blank line (or array element), already validated.
import type { ContentBlock, Direction, PlanEntry, SourceLocation } from './acpTypes';
import type { JsonObject, LedgerLine, ToolCallFields, XaiTool } from './schemas';

export type Shape =
  | 'acp-jsonrpc' | 'acp-capture' | 'acpx-log' | 'inspector-trace' | 'text-log' | 'zed-export' | 'grok-updates' | 'acp-updates' | 'ledger';
export type RpcId = string | number;

/** An `x.ai/tool` envelope as read on one update: valid, invalid (with why), or not there. */
export type EnvelopeRead =
  | { state: 'valid'; envelope: XaiTool; inputKeyOrder?: string[] }
  | { state: 'invalid'; reason: string }
  | { state: 'absent' };

export interface ToolUpdate {
  type: 'tool';
  tag: 'tool_call' | 'tool_call_update';
  fields: ToolCallFields;
  envelope: EnvelopeRead;
  rawInputKeyOrder?: string[];
}

export type SessionUpdate =
  | { type: 'chunk'; tag: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk'; content: ContentBlock; messageId?: string }
  | ToolUpdate
  | { type: 'plan'; entries: PlanEntry[] }
  | { type: 'mode'; modeId: string }
  | { type: 'usage'; used: number; size: number; cost?: { amount: number; currency: string } }
  | { type: 'notice'; title: string; severity?: string; description?: string }
  | { type: 'turn_completed'; stopReason?: string; usage?: JsonObject; elapsedMs?: number; promptId?: string; agentResult?: string }
  /** A known variant the transcript shows as a named event (commands, config, compaction, hooks, …). */
  | { type: 'other'; tag: string; raw: JsonObject };

export interface LedgerToolCalled {
  id?: string;
  name?: string;
  args?: unknown;
  argsKeyOrder?: string[];
  /** undefined: the record has no `subject` key; null: the record says it names nothing. */
  subject?: string | null;
  effect?: unknown;
  render?: unknown;
}

export type LedgerBody =
  | { type: 'tool_called'; call: LedgerToolCalled }
  | { type: 'tool_result'; toolUseId?: string; name?: string; result?: unknown; error?: unknown; hasResult: boolean; hasError: boolean; tookUs?: number }
  | { type: 'model_returned'; text: string; usage?: JsonObject }
  | { type: 'other' };

export type RecordBody =
  | { kind: 'update'; sessionId: string | null; update: SessionUpdate }
  | { kind: 'request'; id: RpcId; method: string; params: unknown; sessionId?: string; permission?: PermissionRequestParams; prompt?: ContentBlock[]; terminalCommand?: string; terminalId?: string }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: RpcId | null; result?: unknown; error?: { code?: number; message: string; data?: unknown }; method?: string }
  | { kind: 'ledger'; line: LedgerLine; body: LedgerBody }
  | { kind: 'stderr'; text: string }
  /** A line of recorded stdio traffic that was not a JSON object (`loupe tee` keeps it as text). */
  | { kind: 'frame'; text: string }
  | { kind: 'unknown'; reason: string; value: unknown };

export interface PermissionRequestParams {
  sessionId?: string;
  toolCall?: ToolUpdate;
  options: { optionId: string; name: string; kind: string }[];
}

export interface IngestRecord {
  loc: SourceLocation;
  shape?: Shape;
  /**
   * Milliseconds where the input gives a time: since the epoch (Grok `agentTimestampMs` or `timestamp`, acpx `at`,
   * inspector `ts`, a text log's leading date) or since the recording started (capture `t_ms`).
   */
  ts?: number;
  dir?: Direction;
  body: RecordBody;
}

/** A line that is not JSON, or JSON that is not an object (CONTRACTS §2). */
export interface BadRecord {
  line: number;
  offset: number;
  reason: string;
  excerpt: string;
}
