// The `loupe summarize --json` projection: what a terminal, a CI log or a test compares.
import type { Session } from './session';
import type { BadLine, CallStatus, ChainState, Counts, InputFormat, TerminalState, ToolCall } from './types';

export interface SummaryTerminal {
  output: string;
  /** null while the command has not exited (or the input never said). */
  exitCode: number | null;
}

export interface SummaryCall {
  id: string;
  session: string | null;
  label: string;
  subject: string | null;
  status: CallStatus;
  /**
   * The permission asked for this call: the kind of the option chosen (`allow_once`, `reject_always`, …,
   * or its id when the option was not offered), `cancelled`, `unanswered`; null when none was asked.
   */
  permission: string | null;
  /** The last terminal the call showed, with its output so far; null when it showed none. */
  terminal: SummaryTerminal | null;
}

export interface Summary {
  format: InputFormat;
  counts: Counts;
  calls: SummaryCall[];
  diagnostics: BadLine[];
  chain: ChainState | null;
}

export function summarize(session: Session): Summary {
  return {
    format: session.format,
    counts: { ...session.counts },
    calls: [...session.calls.values()].map((call) => ({
      id: call.id,
      session: call.sessionId,
      label: call.label,
      subject: call.subject,
      status: call.status ?? 'pending',
      permission: permissionOf(call),
      terminal: terminalOf(call, session.terminals),
    })),
    diagnostics: session.diagnostics.bad,
    chain: session.chain,
  };
}

function permissionOf(call: ToolCall): string | null {
  const permission = call.permission;
  if (!permission) return null;
  const outcome = permission.outcome;
  if (!outcome) return 'unanswered';
  if (outcome.outcome === 'cancelled') return 'cancelled';
  return permission.options.find((option) => option.optionId === outcome.optionId)?.kind ?? outcome.optionId;
}

function terminalOf(call: ToolCall, terminals: ReadonlyMap<string, TerminalState>): SummaryTerminal | null {
  const terminalId = call.terminalIds?.at(-1);
  const terminal = terminalId === undefined ? undefined : terminals.get(terminalId);
  if (!terminal) return null;
  return { output: terminal.output, exitCode: terminal.exitCode ?? null };
}
