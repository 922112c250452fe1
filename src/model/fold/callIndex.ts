// The session's calls as the fold finds and updates them: by scope and id in one lookup, a new call
// made (with its row in the transcript) when an id is new or comes back after its call ended, and
// every merge written into the builder's own call (`owned`: see ../README.md).
import type { ContentBlock, SourceLocation } from '../../ingest/acpTypes';
import { isJsonObject } from '../../ingest/schemas';
import type { IngestRecord, ToolUpdate } from '../../ingest/records';
import { callKey, LEDGER_SCOPE, LEGACY_LEDGER_SCOPE, type CallScope } from '../callKey';
import { appendHistoryCopy, mergeToolUpdate, newCall, NO_HISTORY, type AppendHistory, type MergeContext } from '../merge';
import type { Session } from '../session';
import { hasEnded } from '../status';
import type { CallHistoryEntry, ToolCall } from '../types';
import type { ChangeTracker } from './changes';
import type { Transcript } from './transcript';

export class CallIndex {
  /**
   * The detail calls are read in: a database's rows (OpenCode's) are no lines a light call could
   * be read again from, so its calls are read whole whatever the builder's `detail` says.
   */
  detail: 'full' | 'light';
  /**
   * Calls by scope and id (the latest call of an id used again). Every merge writes into the
   * builder's own call (`owned`), so a key's call stays the same object and one lookup finds it.
   */
  private readonly byScope = new Map<CallScope, Map<string, ToolCall>>();
  /** The scope looked up last and its calls: most updates are in the session of the one before. */
  private lastScope: CallScope | undefined;
  private lastScopeCalls: Map<string, ToolCall> | undefined;
  /** Sub-agents' sessions, each with the id of the call that started it (CONTRACTS §11). */
  private readonly sessionParents = new Map<string, string>();

  constructor(
    private readonly session: Session,
    private readonly transcript: Transcript,
    private readonly changes: ChangeTracker,
    detail: 'full' | 'light',
    /** False in a read for rows alone (FoldState's `keep`): no call keeps its updates' history. */
    private readonly keepHistory = true,
  ) {
    this.detail = detail;
  }

  /**
   * The call `id` of `scope` (session id, or the ledger), made when new; marked changed. Calls are
   * looked up by scope and then id: two flat strings cost much less than building and hashing a
   * joined key for every update.
   */
  callFor(scope: CallScope, id: string, sessionId: string | null, loc: SourceLocation, opens = false): ToolCall {
    let byId = scope === this.lastScope ? this.lastScopeCalls : this.byScope.get(scope);
    if (!byId) {
      byId = new Map();
      this.byScope.set(scope, byId);
    }
    this.lastScope = scope;
    this.lastScopeCalls = byId;
    let call = byId.get(id);
    // CONTRACTS §4: an id can come back. A `tool_call` naming a call that already ended opens a new
    // one (agents that number calls per turn); the ended call keeps what it had.
    const reopened = opens && call !== undefined && hasEnded(call);
    if (!call || reopened) {
      const calls = this.session.calls;
      const key = callKey(scope, id, reopened ? calls.size : undefined);
      const ledger = scope === LEDGER_SCOPE || scope === LEGACY_LEDGER_SCOPE;
      call = newCall(key, id, sessionId, calls.size, loc.line, this.detail, !ledger);
      byId.set(id, call);
      calls.set(key, call);
      this.transcript.add({ type: 'call', loc, callKey: key });
    }
    this.changes.callChanged(call.key);
    return call;
  }

  /** The call `id` of `scope` read so far, if any (not marked changed). */
  find(scope: CallScope, id: string): ToolCall | undefined {
    return this.byScope.get(scope)?.get(id);
  }

  /** CONTRACTS §4 (`mergeToolUpdate`): the call's state after one ACP tool update. */
  toolUpdate(sessionId: string | null, update: ToolUpdate, record: Pick<IngestRecord, 'loc' | 'ts' | 'dir'>, source: 'tool_call' | 'tool_call_update' | 'permission'): ToolCall {
    const call = this.callFor(sessionId ?? '', update.fields.toolCallId, sessionId, record.loc, source === 'tool_call');
    const merged = mergeToolUpdate(call, update, source, this.mergeContext(record));
    // A sub-agent's session names the call that started it (CONTRACTS §11); `_meta` may have said already.
    if (merged.parentId === undefined && sessionId !== null && this.sessionParents.size > 0) {
      const parentId = this.sessionParents.get(sessionId);
      if (parentId !== undefined && parentId !== merged.id) merged.parentId = parentId;
    }
    return merged;
  }

  /** A native line's exit code for a call read before (Codex's `exec_command_end`, an output's last line). */
  noteExitCode(scope: string, toolCallId: string, exitCode: number | null): void {
    const call = this.find(scope, toolCallId);
    if (call && call.exitCode !== exitCode) {
      call.exitCode = exitCode;
      this.changes.callChanged(call.key);
    }
  }

  /**
   * A Cline sub-agent's first prompt: its parent session's call whose input's `task` says the same
   * (the first not yet linked) started it (NativeEntry.spawnedBy).
   */
  linkSpawned(sessionId: string, parentSession: string, prompt: ContentBlock): void {
    if (prompt.type !== 'text') return;
    const taken = new Set(this.sessionParents.values());
    for (const call of this.byScope.get(parentSession)?.values() ?? []) {
      if (taken.has(call.id) || !isJsonObject(call.rawInput) || call.rawInput.task !== prompt.text) continue;
      return this.linkSubagent(sessionId, call.id);
    }
  }

  /**
   * The calls of `sessionId` were made by the sub-agent the call `parentId` started (CONTRACTS §11):
   * those read so far are marked, later ones when they come. The first call named wins.
   */
  linkSubagent(sessionId: string, parentId: string): void {
    if (this.sessionParents.has(sessionId)) return;
    this.sessionParents.set(sessionId, parentId);
    const calls = this.byScope.get(sessionId);
    if (!calls) return;
    for (const call of calls.values()) {
      if (call.parentId !== undefined || call.id === parentId) continue;
      call.parentId = parentId;
      this.changes.callChanged(call.key);
    }
  }

  /**
   * One context for every merge, set to each record in turn (the merges keep none of it but `loc`).
   * `owned`: a take hands out copies (`ChangeTracker`), never the builder's own calls, so every
   * merge writes into them in place.
   */
  private readonly context: MergeContext = { detail: 'full', loc: { line: 0, offset: 0, length: 0 }, ts: undefined, dir: undefined, appendHistory: undefined, owned: true };

  mergeContext(record: Pick<IngestRecord, 'loc' | 'ts' | 'dir'>): MergeContext {
    const context = this.context;
    context.detail = this.detail;
    context.loc = record.loc;
    context.ts = record.ts;
    context.dir = record.dir;
    context.appendHistory = this.keepHistory ? appendHistory : NO_HISTORY;
    return context;
  }
}

/**
 * A short history is rebuilt at its exact length (an array grown by `push` gets room for 17
 * entries, and most calls have two to four); a longer one grows in place: the builder never hands
 * out its own history arrays (a take copies the entries it has not handed out yet), and one of
 * eight or more entries was made by `appendHistoryCopy`, never a shared frozen one.
 */
const appendHistory: AppendHistory = (history, entry) => {
  if (history.length < 8) return appendHistoryCopy(history, entry);
  const owned = history as CallHistoryEntry[];
  owned.push(entry);
  return owned;
};
