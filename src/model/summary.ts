// The `loupe summarize --json` projection: what a terminal, a CI log or a test compares.
import type { Session } from './session';
import { displayStatus, exitedWithoutCompletion, hasEnded } from './status';
import type { BadLine, CallSummary, ChainState, Counts, Direction, DisplayStatus, InputFormat, TerminalState, ToolCall } from './types';

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
  /** As the viewer shows it: a call the input left pending or in progress is `unfinished` (CONTRACTS §7). */
  status: DisplayStatus;
  /**
   * The permission asked for this call: the kind of the option chosen (`allow_once`, `reject_always`, …,
   * or its id when the option was not offered), `cancelled`, `unanswered`; null when none was asked.
   */
  permission: string | null;
  /** The last terminal the call showed, with its output so far; null when it showed none. */
  terminal: SummaryTerminal | null;
  // Added later, after the first keys, so scripts reading those by position still work.
  /** Said beside the status where it explains it: an unfinished call whose command exited. */
  note: string | null;
  /** The direction of the call's first update, where the input says. */
  direction: Direction | null;
  /** How long it took, in ms, where the input has the times. */
  durationMs: number | null;
  /**
   * The command's exit code where the input records it (CONTRACTS §11: its terminal's exit status,
   * a result's exit code, a Codex `exec_command_end`, an output's `Exit code: N`); null otherwise.
   */
  exitCode: number | null;
  /** The id of the call (a Task/Agent call, a `spawn_agent`) whose sub-agent made this call; null for the session's own calls. */
  parent: string | null;
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
    calls: [...session.calls.values()].map((call) => {
      const state = lastTerminalOf(call, session.terminals);
      return {
        id: call.id,
        session: call.sessionId,
        label: call.label,
        subject: call.subject,
        status: displayStatus(call, session.ended),
        permission: permissionOf(call),
        terminal: state ? { output: state.output, exitCode: state.exitCode ?? null } : null,
        note: statusNote(call, state),
        direction: call.dir ?? null,
        durationMs: call.durationMs ?? null,
        exitCode: callExitCode(call, state) ?? null,
        parent: call.parentId ?? null,
      };
    }),
    diagnostics: session.diagnostics.bad,
    chain: session.chain,
  };
}

/**
 * The exit code a call's command ended with, where the input records it (CONTRACTS §11): its
 * terminal's exit status (the client's own word), else what its result said; undefined when
 * neither says, null when it exited without a code.
 */
export function callExitCode(call: Pick<CallSummary, 'exitCode'>, terminal: Pick<TerminalState, 'exitCode'> | undefined): number | null | undefined {
  return terminal?.exitCode !== undefined ? terminal.exitCode : call.exitCode;
}

/** `exitCode` undefined: the command has not exited (or the input never said); null: it exited without a code. */
export function statusNote(call: Pick<ToolCall, 'status'>, terminal: Pick<TerminalState, 'exitCode'> | undefined): string | null {
  if (hasEnded(call) || terminal?.exitCode === undefined) return null;
  return exitedWithoutCompletion(terminal.exitCode);
}

/** The kind of option a call's permission request was answered with (or its id), `unanswered` or `cancelled`; null when none was asked. */
export function permissionOf(call: ToolCall): string | null {
  const permission = call.permission;
  if (!permission) return null;
  const outcome = permission.outcome;
  if (!outcome) return 'unanswered';
  if (outcome.outcome === 'cancelled') return 'cancelled';
  return permission.options.find((option) => option.optionId === outcome.optionId)?.kind ?? outcome.optionId;
}

function lastTerminalOf(call: ToolCall, terminals: ReadonlyMap<string, TerminalState>): TerminalState | undefined {
  const terminalId = call.terminalIds?.at(-1);
  return terminalId === undefined ? undefined : terminals.get(terminalId);
}
