// JSON-RPC requests and their responses (CONTRACTS §8): a request waits, by id and direction, for
// the response that answers it; the pair is one thing shown (a permission asked and answered, a
// prompt and its turn's end, a terminal created, polled and exited).
import type { Direction } from '../../ingest/acpTypes';
import { readPermissionResult, readPromptResult } from '../../ingest/fastPath';
import type { IngestRecord, RecordBody, RpcId } from '../../ingest/records';
import { readWith } from '../../ingest/result';
import { newSessionResultSchema, terminalCreateResultSchema, terminalExitResultSchema, terminalOutputResultSchema } from '../../ingest/schemas';
import { withPermission, withPermissionOutcome } from '../merge';
import type { TerminalState } from '../types';
import { readUsage } from '../usage';
import type { FoldState } from './foldState';

interface PendingRequest {
  /** Order of arrival: the most recent of the candidates is joined. */
  seq: number;
  method: string;
  dir?: Direction;
  line: number;
  sessionId?: string;
  callKey?: string;
  terminalId?: string;
  terminalCommand?: string;
}

/** Unanswered requests by id, then by the direction they were sent (`''`: not said), latest last. */
export class PendingRequests {
  private readonly byId = new Map<number | string, Map<Direction | '', PendingRequest[]>>();
  private seq = 0;

  /** A new request read, not yet waiting (`wait`): its method and where it was. */
  open(method: string, dir: Direction | undefined, line: number, sessionId: string | undefined): PendingRequest {
    return { seq: this.seq++, method, dir, line, sessionId };
  }

  wait(id: RpcId, request: PendingRequest): void {
    const key = rpcKey(id);
    let byDir = this.byId.get(key);
    if (!byDir) {
      byDir = new Map();
      this.byId.set(key, byDir);
    }
    const stack = byDir.get(request.dir ?? '');
    if (stack) stack.push(request);
    else byDir.set(request.dir ?? '', [request]);
  }

  /** CONTRACTS §8: the request a response answers; with a direction, one sent the other way. */
  take(id: RpcId | null, dir: Direction | undefined): PendingRequest | undefined {
    if (id === null) return undefined;
    const key = rpcKey(id);
    const byDir = this.byId.get(key);
    if (!byDir) return undefined;
    // The latest request sent the other way or with no direction: the top of one of at most
    // three stacks, so 40,000 requests with one id cost no scan.
    let taken: PendingRequest[] | undefined;
    for (const [sentDir, stack] of byDir) {
      if (dir !== undefined && sentDir === dir) continue;
      if (stack.length > 0 && (!taken || stack[stack.length - 1]!.seq > taken[taken.length - 1]!.seq)) taken = stack;
    }
    const request = taken?.pop();
    if (taken?.length === 0) {
      for (const [sentDir, stack] of byDir) if (stack === taken) byDir.delete(sentDir);
      if (byDir.size === 0) this.byId.delete(key);
    }
    return request;
  }
}

/** A request id as a key: a number as it is (no string made per request), a string marked apart from it (`1` is not `"1"`). */
const rpcKey = (id: RpcId): number | string => (typeof id === 'number' ? id : `s${id}`);

export function foldRequest(state: FoldState, record: IngestRecord, body: Extract<RecordBody, { kind: 'request' }>): void {
  const { ids, transcript } = state;
  const sessionId = body.sessionId === undefined ? undefined : ids.canonical(body.sessionId);
  const pending = state.requests.open(body.method, record.dir, record.loc.line, sessionId);
  if (sessionId !== undefined) ids.note(sessionId);
  switch (body.method) {
    case 'session/request_permission': {
      const permission = body.permission;
      if (permission?.toolCall) {
        const call = state.calls.toolUpdate(ids.canonical(permission.sessionId ?? null), permission.toolCall, record, 'permission');
        withPermission(call, { line: record.loc.line, options: state.optionLists.shared(permission.options) }, true);
        pending.callKey = call.key;
      } else {
        transcript.add({ type: 'event', loc: record.loc, name: body.method, raw: body.params });
      }
      break;
    }
    case 'session/prompt':
      transcript.addPrompt(sessionId ?? null, body.prompt ?? [], record.loc, record.ts);
      break;
    case 'terminal/create':
      pending.terminalCommand = body.terminalCommand;
      transcript.add({ type: 'event', loc: record.loc, name: body.method, summary: body.terminalCommand, raw: body.params });
      break;
    case 'terminal/output':
    case 'terminal/wait_for_exit':
      // Polling; what it returns is joined to the terminal, not shown as rows of its own.
      pending.terminalId = body.terminalId;
      break;
    default:
      pending.terminalId = body.terminalId;
      transcript.add({ type: 'event', loc: record.loc, name: body.method, raw: body.params });
  }
  state.requests.wait(body.id, pending);
}

export function foldResponse(state: FoldState, record: IngestRecord, body: Extract<RecordBody, { kind: 'response' }>): void {
  const request = state.requests.take(body.id, record.dir);
  const method = request?.method ?? body.method;
  if (!request && body.method === undefined) state.warn(record.loc.line, `response to a request not in the input (id ${String(body.id)})`);
  if (body.error) {
    state.transcript.add({ type: 'event', loc: record.loc, name: `${method ?? 'request'} failed`, summary: body.error.message, raw: body.error });
    return;
  }
  const result = body.result;
  switch (method) {
    case 'session/request_permission': {
      const parsed = readPermissionResult(result);
      const call = request?.callKey ? state.session.calls.get(request.callKey) : undefined;
      if (parsed.ok && call?.permission) {
        withPermissionOutcome(call, parsed.value.outcome, true);
        state.changes.callChanged(call.key);
      }
      return;
    }
    case 'session/prompt': {
      const parsed = readPromptResult(result);
      const sessionId = request?.sessionId ?? null;
      state.transcript.turnEnded(sessionId);
      state.transcript.add({
        type: 'turn_end', loc: record.loc, sessionId, stopReason: parsed.ok ? parsed.value.stopReason : 'unknown',
        usage: parsed.ok ? readUsage(parsed.value.usage) : undefined, ts: record.ts,
      });
      return;
    }
    case 'session/new':
    case 'session/fork': {
      const parsed = readWith(newSessionResultSchema, result);
      if (parsed.ok) state.ids.note(parsed.value.sessionId);
      return;
    }
    case 'terminal/create': {
      const parsed = readWith(terminalCreateResultSchema, result);
      if (parsed.ok) {
        const { terminalId } = parsed.value;
        state.session.terminals.set(terminalId, { terminalId, command: request?.terminalCommand, output: '', truncated: false });
        state.changes.terminalChanged(terminalId);
      }
      return;
    }
    case 'terminal/output': {
      const parsed = readWith(terminalOutputResultSchema, result);
      if (parsed.ok && request?.terminalId) {
        const terminal = terminalOf(state, request.terminalId);
        terminal.output = parsed.value.output;
        terminal.truncated = parsed.value.truncated;
        if (parsed.value.exitStatus) setExitStatus(terminal, parsed.value.exitStatus);
      }
      return;
    }
    case 'terminal/wait_for_exit': {
      const parsed = readWith(terminalExitResultSchema, result);
      if (parsed.ok && request?.terminalId) setExitStatus(terminalOf(state, request.terminalId), parsed.value);
      return;
    }
    default:
      return;
  }
}

/** How a terminal's command ended, as `terminal/output` and `terminal/wait_for_exit` both report it. */
function setExitStatus(terminal: TerminalState, status: Pick<TerminalState, 'exitCode' | 'signal'>): void {
  terminal.exitCode = status.exitCode;
  terminal.signal = status.signal;
}

/** The terminal `terminalId` (made when its creation was not in the input), marked changed: the caller writes it. */
function terminalOf(state: FoldState, terminalId: string): TerminalState {
  const terminals = state.session.terminals;
  let terminal = terminals.get(terminalId);
  if (!terminal) {
    terminal = { terminalId, output: '', truncated: false };
    terminals.set(terminalId, terminal);
  }
  state.changes.terminalChanged(terminalId);
  return terminal;
}
