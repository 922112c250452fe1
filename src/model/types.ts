// The session model: what every input shape folds into. Pure data, no React, no DOM.
// Produced by `SessionBuilder` (builder.ts); read by the store, the UI and the CLI.

import type { CallStatus, ContentBlock, Direction, PlanEntry, SourceLocation, ToolCallContent, ToolCallLocation } from '../ingest/acpTypes';
import type { LedgerToolCalled, Shape } from '../ingest/records';
import type { XaiTool } from '../ingest/schemas';

export type { CallStatus, ContentBlock, Direction, PlanEntry, SourceLocation, ToolCallContent, ToolCallLocation };

/** What a person is shown: a call still pending or running when the input ended is `unfinished`. */
export type DisplayStatus = 'pending' | 'running' | 'done' | 'failed' | 'unfinished';

/** The `x.ai/tool` envelope as merged per field over the valid envelopes of one call (CONTRACTS §3). */
export interface XaiToolEnvelope extends XaiTool {
  /** Source-byte key order of `input`, present only when it differs from JS enumeration order. */
  inputKeyOrder?: string[] | undefined;
}

export type PermissionOutcome = { outcome: 'selected'; optionId: string; optionName?: string } | { outcome: 'cancelled' };

export interface PermissionRequest {
  line: number;
  options: { optionId: string; name: string; kind: string }[];
  /** Absent while unanswered. */
  outcome?: PermissionOutcome;
}

/**
 * One update that touched a call: where it was (its line, offset and length: the entry is its own
 * place, not an object beside it, as most updates are kept by nothing else), when, and which fields it set.
 */
export interface CallHistoryEntry extends SourceLocation {
  ts?: number;
  source: 'tool_call' | 'tool_call_update' | 'permission' | 'tool_called' | 'tool_result';
  /** Shared between entries that set the same fields, and frozen: never written. */
  fields: readonly string[];
  /** Set when this update's `x.ai/tool` envelope was present but invalid, with the reason. */
  invalidEnvelope?: string;
}

/**
 * What lists, filters, counts, search and insights need of a call: one row. A light read sends
 * only this to the page; opening the call fetches its `ToolCall`.
 */
export interface CallSummary {
  /** Unique within a session model: session id and tool-call id (or the ledger id / line). */
  key: string;
  /** The tool-call id as the input names it (`toolCallId`, ledger `id`, or `line:N` for a legacy ledger call). */
  id: string;
  sessionId: string | null;
  /** Index of the call in order of first appearance. */
  ordinal: number;
  firstLine: number;

  // Merged ACP fields (CONTRACTS §4) that rows show and filters read.
  title?: string;
  kind?: string;
  status?: CallStatus;
  name?: string;
  invalidEnvelopes: number;

  // Derived (CONTRACTS §5–§7), kept current after every update.
  label: string;
  subject: string | null;
  startMs?: number;
  endMs?: number;
  durationMs?: number;

  permission?: PermissionRequest;
  /** `light`: content, raw output and ledger results were left in the source; `hydrateCall` reads them. */
  detail: 'full' | 'light';
  /** Terminals its content has shown, in order (their output is in `Session.terminals`). */
  terminalIds?: string[];
  /** The direction of its first update, where the input says (capture lines, logs, Zed exports). */
  dir?: Direction;
  /**
   * For a call the input left open (no completion recorded) whose start time is known: the last
   * time the input gives, so a person sees how long it went on without a completion.
   */
  inputEndMs?: number;
  /**
   * The command's exit code where the input records it as data (CONTRACTS §11: a result's exit
   * code, Codex's `exec_command_end`, an output's `Exit code: N`); null: it exited without one.
   * A terminal's exit status is the session's (`Session.terminals`), read with `callExitCode`.
   */
  exitCode?: number | null;
  /** The id of the call that started the sub-agent that made this call (CONTRACTS §11), where the input says. */
  parentId?: string;
}

/** An opened call: its row and everything merged into it, with the updates that made it. */
export interface ToolCall extends CallSummary {
  rawInput?: unknown;
  rawInputKeyOrder?: string[];
  rawOutput?: unknown;
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
  meta: Record<string, unknown>;
  tool?: XaiToolEnvelope;

  // Ledger-only fields.
  ledger?: LedgerCallData;

  /** Appended to by the builder alone (a call handed out has a copy); a call without updates shares one frozen empty list. */
  history: readonly CallHistoryEntry[];
  /** In a light call: how many content blocks the last content update had. */
  contentBlocks?: number;
}

/** Whether a row is a whole call (a full read's, or one read again when opened), not only its summary. */
export function isToolCall(call: CallSummary): call is ToolCall {
  return 'history' in call;
}

/**
 * What a row, the filters and the counts need of a call: what a light read's worker sends the page
 * instead of the whole call, so a large file costs the page little memory and time.
 */
export function callRow(c: ToolCall): CallSummary {
  const row: CallSummary = {
    key: c.key,
    id: c.id,
    sessionId: c.sessionId,
    ordinal: c.ordinal,
    firstLine: c.firstLine,
    invalidEnvelopes: c.invalidEnvelopes,
    label: c.label,
    subject: c.subject,
    detail: 'light',
  };
  if (c.title !== undefined) row.title = c.title;
  if (c.kind !== undefined) row.kind = c.kind;
  if (c.status !== undefined) row.status = c.status;
  if (c.name !== undefined) row.name = c.name;
  if (c.startMs !== undefined) row.startMs = c.startMs;
  if (c.endMs !== undefined) row.endMs = c.endMs;
  if (c.durationMs !== undefined) row.durationMs = c.durationMs;
  if (c.permission !== undefined) row.permission = c.permission;
  if (c.dir !== undefined) row.dir = c.dir;
  if (c.inputEndMs !== undefined) row.inputEndMs = c.inputEndMs;
  if (c.exitCode !== undefined) row.exitCode = c.exitCode;
  if (c.parentId !== undefined) row.parentId = c.parentId;
  // Their output is sent with the terminals: rows keep the link, so search finds it.
  if (c.terminalIds !== undefined) row.terminalIds = c.terminalIds;
  return row;
}

/** A person's note and bookmark on a call (kept per file, by call key; exported with the records). */
export interface CallNote {
  text: string;
  bookmarked: boolean;
}

/** The notes on one file's calls, by call key. */
export type FileNotes = Readonly<Record<string, CallNote>>;

/** A ledger call: what its `tool_called` said (CONTRACTS §4, §6) and what its `tool_result` returned. */
export interface LedgerCallData extends Omit<LedgerToolCalled, 'id'> {
  result?: unknown;
  error?: unknown;
  tookUs?: number;
}

export interface TerminalState {
  terminalId: string;
  command?: string;
  output: string;
  truncated: boolean;
  exitCode?: number | null;
  signal?: string | null;
}

/** Terminals by id, as views and search read them (a Map, or the store's immutable map). */
export interface TerminalLookup {
  get(terminalId: string): TerminalState | undefined;
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cachedReadTokens?: number;
  reasoningTokens?: number;
  /** Context window use from ACP `usage_update`. */
  used?: number;
  size?: number;
  cost?: { amount: number; currency: string };
  raw?: unknown;
}

/** One row of the transcript, in input order. */
export type TranscriptItem =
  | { type: 'message'; role: 'user' | 'agent' | 'thought'; loc: SourceLocation; sessionId: string | null; messageId?: string; blocks: readonly ContentBlock[]; text: string; ts?: number }
  | { type: 'call'; loc: SourceLocation; callKey: string }
  | { type: 'plan'; loc: SourceLocation; sessionId: string | null; entries: PlanEntry[] }
  | { type: 'mode'; loc: SourceLocation; sessionId: string | null; modeId: string }
  | { type: 'turn_end'; loc: SourceLocation; sessionId: string | null; stopReason: string; usage?: Usage; elapsedMs?: number; ts?: number }
  | { type: 'usage'; loc: SourceLocation; sessionId: string | null; usage: Usage }
  | { type: 'notice'; loc: SourceLocation; sessionId: string | null; title: string; detail?: string; severity?: string }
  /**
   * `sessionId`: set when the record names its session (a session update of a kind rows do not show).
   * `raw`: undefined where a light read left it in the source: an agent's own log entry, whose line
   * (`loc`) is its whole value.
   */
  | { type: 'event'; loc: SourceLocation; name: string; summary?: string; raw: unknown; sessionId?: string | null; bookkeeping?: true }
  | { type: 'unknown'; loc: SourceLocation; reason: string; raw: unknown };

export interface BadLine {
  line: number;
  offset: number;
  reason: string;
  /** At most 200 characters of the line. */
  excerpt: string;
}

export interface Counts {
  /** Non-blank lines (or elements of a top-level JSON array). */
  lines: number;
  events: number;
  unknown: number;
  bad: number;
}

export type ChainState =
  | { state: 'intact'; lines: number }
  | { state: 'broken'; lines: number; line: number; reason: string };

/** `unknown`: lines were read but none had a known shape (the counts say how many were unknown or bad). */
export type InputFormat = Shape | 'mixed' | 'unknown' | 'empty';

export interface Diagnostics {
  bad: BadLine[];
  /** Envelope problems, unjoined responses and other things a reader should know; never fatal. */
  warnings: { line: number; message: string }[];
}
