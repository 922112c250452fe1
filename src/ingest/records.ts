// The records ingest produces: one per non-blank line (or array element), already validated.
import type { ContentBlock, Direction, PlanEntry, SourceLocation } from './acpTypes';
import type { JsonObject, LedgerLine, ToolCallFields, XaiTool } from './schemas';

export type Shape =
  | 'acp-jsonrpc' | 'acp-capture' | 'acpx-log' | 'inspector-trace' | 'text-log' | 'zed-export' | 'grok-updates' | 'acp-updates' | 'ledger'
  // Agents' own session logs (CONTRACTS §10), read by the adapters in formats/.
  | 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'pi' | 'cline'
  // OpenCode's SQLite database: its rows as records (formats/opencode.ts).
  | 'opencode';
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
  | NativeEntry
  | { kind: 'unknown'; reason: string; value: unknown };

/**
 * One line of an agent's own log (CONTRACTS §10), as its format's adapter (formats/) read it: the
 * ACP-equivalent updates it stands for, plus what only native logs say. Always an event.
 */
export interface NativeEntry {
  kind: 'native';
  /** The entry's type as the log names it (`assistant`, `system/compact_boundary`, `event_msg/token_count`, …). */
  name: string;
  summary?: string;
  /**
   * The session the entry belongs to: a string names it, null says none, undefined means the
   * session the input's last `opens` named (a Codex line after its `session_meta`).
   */
  sessionId?: string | null;
  /** This line starts a session that later lines without their own id belong to (Codex `session_meta`). */
  opens?: string;
  /** A Claude entry's `uuid`: an entry read again (resumed sessions copy earlier ones) is counted, not folded twice. */
  uuid?: string;
  updates: NativeUpdate[];
  /**
   * Token counts the line reports: with `messageId` they replace the counts an earlier line gave for
   * that message (Claude writes one entry per block, each with the usage known then); without, they add up.
   */
  usage?: { messageId?: string; counts: JsonObject };
  /** A compaction boundary: shown as a marker. */
  compaction?: boolean;
  /** Says again what another line shows (Codex `agent_message` repeats a `message` item): counted, not shown twice. */
  repeat?: boolean;
  /**
   * Gemini CLI (CONTRACTS §11): the id of the record this entry writes. A record whose id was read
   * before in the session replaces it: its message is replaced, its usage counted once, its tool
   * calls are the same calls (a new one among them is a new call).
   */
  record?: string;
  /**
   * Gemini CLI: the records a `$set` of `messages` (or an older release's whole `.json` object)
   * lists. They replace the session's records: each is folded as a record, and the records it does
   * not list are no longer the session's (a later record with such an id is a new one).
   */
  records?: NativeEntry[];
  /** Gemini CLI `$rewindTo`: the record from which on (it included) the session's records are removed. */
  rewindTo?: string;
  /**
   * The line names the call that started a sub-agent and the sub-agent's session (CONTRACTS §11:
   * a Claude Task/Agent result or `progress` entry naming its `agentId`; a Codex `spawn_agent`
   * output naming the thread): that session's calls have the call as parent.
   */
  subagent?: { sessionId: string; parentId: string };
  /**
   * Cline: this line's session is a sub-agent that session `sessionId` started. Its file does not
   * name the call: the parent's call whose input's `task` is the sub-agent's first prompt is its
   * calls' parent.
   */
  spawnedBy?: { sessionId: string };
  /**
   * Codex: this `session_meta` opens a thread forked from the one named. Its rollout then copies
   * the parent's history: the parent's `session_meta` and every line stamped with the fork's own
   * time after it are counted, not folded again (CONTRACTS §11).
   */
  forkedFrom?: string;
  /** Codex (multi-agent v2): a sub-agent thread's `session_meta` names its parent thread and its path (`/root/helper_a`). */
  agentPath?: { parentSession: string; path: string };
  /** Codex (multi-agent v2): a `spawn_agent` output names the path of the thread it started (`task_name`); joined by path, the call is that thread's parent. */
  spawnedPath?: { path: string; callId: string };
  /**
   * The harness's own bookkeeping (Claude `queue-operation`, `progress`, `last-prompt`, a user entry
   * that says nothing; Codex `session_meta`, `turn_context`, `event_msg/task_started`, …): an event
   * like any line, shown folded with its neighbours as one quiet row.
   */
  bookkeeping?: boolean;
  /**
   * Pi: the entry's place in its session's tree. An entry whose parent is not the entry read just
   * before it starts a new branch: the entries after its parent on the path it leaves are abandoned.
   */
  tree?: { id: string; parentId: string | null };
  raw: JsonObject;
}

/** What a native line stands for, in the model's terms: ACP message chunks and tool-call updates. */
export type NativeUpdate =
  | Extract<SessionUpdate, { type: 'chunk' }>
  /**
   * A tool call (its ACP `tool_call`). `plan`: the plan its input sets, when it sets one (a call
   * labelled Plan is that plan, not a call, §10). `subject`: named by the format where §6 cannot
   * read it (a Codex patch's files). `ts`: the call's own time where the format gives one apart
   * from its line's (a Gemini tool call's `timestamp`).
   */
  | { type: 'call'; update: ToolUpdate; plan?: PlanEntry[]; subject?: string; ts?: number }
  /** A call's result (its final `tool_call_update`). */
  | { type: 'result'; update: ToolUpdate }
  /** A call's exit code, said by a line of its own (Codex `exec_command_end`); shown as the event it is. */
  | { type: 'exit'; toolCallId: string; exitCode: number | null };

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

