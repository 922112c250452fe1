// Lines of agents' own logs (CONTRACTS §10), as their format's adapter read them: their updates are
// folded as the ACP updates they stand for; what only native logs have (entries read again, usage
// per message, plans sent as calls, sessions kept as trees, a release newer than those tested) is
// handled here, the same for every format. Gemini CLI's records, written again and rewound, are
// geminiFold.ts's.
import type { SourceLocation } from '../../ingest/acpTypes';
import { harnessOfFormat, untestedRelease } from '../../ingest/harnesses';
import type { IngestRecord, NativeEntry, NativeUpdate } from '../../ingest/records';
import type { JsonObject } from '../../ingest/schemas';
import { labelOf } from '../labels';
import type { ToolCall, TranscriptItem } from '../types';
import { readUsage } from '../usage';
import { EntryIds } from './entryIds';
import { plural } from './eventText';
import type { FoldState } from './foldState';
import { foldGemini, type GeminiRecord } from './geminiFold';

/** A session kept as a tree (Pi): each entry's parent, each entry's calls, and the entry read last. */
interface SessionTree {
  parents: Map<string, string | null>;
  calls: Map<string, ToolCall[]>;
  last: string | undefined;
}

/** What the fold keeps across native lines (CONTRACTS §10). */
export class NativeState {
  /** The session the last Codex `session_meta` opened: lines without their own id belong to it. */
  session: string | null = null;
  /** The release a native line names was looked at (once per input). */
  releaseNoted = false;
  /** Claude entries read so far, by uuid. */
  readonly uuids = new EntryIds();
  /** Codex: the forked thread whose copy of its parent's history may be being read (its `session_meta`'s time). */
  fork: { at: number; copying: boolean } | undefined;
  /** Codex multi-agent v2: by parent thread and path, the thread's session and the call that spawned it, as read so far. */
  readonly agentPaths = new Map<string, { child?: string; parentId?: string }>();
  /** Calls that were plans (by scope and id), whose results update nothing. */
  readonly planCalls = new Set<string>();
  /**
   * The usage item of each message (by scope, then message id), replaced by a later entry of the
   * message. Two lookups by the strings a line already has: a key joined from them was a fresh
   * string to hash for every assistant entry.
   */
  private readonly usageItems = new Map<string, Map<string, number>>();
  private lastUsageScope: string | undefined;
  private lastUsageItems: Map<string, number> | undefined;

  usageItemsOf(scope: string): Map<string, number> {
    if (scope === this.lastUsageScope && this.lastUsageItems) return this.lastUsageItems;
    let items = this.usageItems.get(scope);
    if (!items) {
      items = new Map();
      this.usageItems.set(scope, items);
    }
    this.lastUsageScope = scope;
    this.lastUsageItems = items;
    return items;
  }
  /** Cline sub-agent sessions whose first prompt is still to come, with the session that started them. */
  readonly spawnWaiting = new Map<string, string>();
  /** Gemini CLI records by session (scope) and record id, in the order of the session's history. */
  private readonly geminiRecords = new Map<string, Map<string, GeminiRecord>>();
  /** Sessions kept as trees (Pi), by scope. */
  private readonly trees = new Map<string, SessionTree>();

  treeOf(scope: string): SessionTree {
    let tree = this.trees.get(scope);
    if (!tree) {
      tree = { parents: new Map(), calls: new Map(), last: undefined };
      this.trees.set(scope, tree);
    }
    return tree;
  }

  geminiRecordsOf(scope: string): Map<string, GeminiRecord> {
    let records = this.geminiRecords.get(scope);
    if (!records) {
      records = new Map();
      this.geminiRecords.set(scope, records);
    }
    return records;
  }
}

/** A call labelled Plan is the plan it sets, as both harnesses' ACP adapters send it; its result updates nothing. */
export function isPlanCall(name: string | undefined, toolCallId: string): boolean {
  return labelOf({ tool: undefined, meta: {}, name, ledger: undefined, kind: undefined, id: toolCallId }) === 'Plan';
}

/**
 * One key for two strings, no two pairs alike whatever they hold (the first's length says where
 * it ends): a key per plan call, where `JSON.stringify` of the pair was part of 5% of reading a
 * Claude Code log.
 */
export const pairKey = (first: string, second: string): string => `${first.length}:${first}${second}`;


export function foldNative(state: FoldState, record: IngestRecord, body: NativeEntry): void {
  const { native, ids, calls, transcript } = state;
  if (!native.releaseNoted && record.shape !== undefined) noteRelease(state, record.shape, body.raw, record.loc.line);
  if (foldForkCopy(state, record, body)) return;
  if (body.opens !== undefined) native.session = ids.canonical(body.opens);
  const sessionId = body.sessionId === undefined ? native.session : ids.canonical(body.sessionId);
  ids.note(sessionId);
  if (body.agentPath && sessionId !== null) joinAgentPath(state, `${ids.canonical(body.agentPath.parentSession)}\n${body.agentPath.path}`, { child: sessionId });
  if (body.spawnedPath && sessionId !== null) joinAgentPath(state, `${sessionId}\n${body.spawnedPath.path}`, { parentId: body.spawnedPath.callId });
  // Before the copy check: a Claude `progress` entry copying a message its sub-agent's file gave first still names the Task call.
  if (body.subagent) calls.linkSubagent(ids.canonical(body.subagent.sessionId), body.subagent.parentId);
  if (body.uuid !== undefined) {
    // Resumed sessions copy earlier entries: counted (the line is an event) but not folded again.
    // A message's usage still replaces what a copy read first said (a Claude `progress` copy of a
    // sub-agent's message has none: it was written when the response started).
    if (!native.uuids.add(body.uuid)) {
      if (body.usage?.messageId !== undefined) foldNativeUsage(state, body.usage, record.loc, sessionId);
      return;
    }
  }
  if (record.shape === 'gemini-cli') return foldGemini(state, record, body, sessionId);
  const loc = record.loc;
  if (body.spawnedBy && sessionId !== null) native.spawnWaiting.set(sessionId, ids.canonical(body.spawnedBy.sessionId));
  const treeCalls = body.tree ? foldTreeEntry(state, record, body.tree, sessionId) : undefined;
  let shown = foldNativeUpdates(state, record, body.updates, sessionId, treeCalls) || body.repeat === true;
  if (body.usage) {
    shown = true;
    foldNativeUsage(state, body.usage, loc, sessionId);
  }
  const raw = state.eventRaw(loc, body.raw);
  if (body.compaction === true) {
    shown = true;
    transcript.add({ type: 'event', loc, name: `compaction (${body.name})`, summary: body.summary, raw, sessionId });
  }
  // Every native line is an event, whatever its type: one that stands for nothing else is shown by its type.
  if (!shown) {
    const item: TranscriptItem = { type: 'event', loc, name: body.name, summary: body.summary, raw, sessionId };
    if (body.bookkeeping === true) item.bookkeeping = true;
    transcript.add(item);
  }
}

/** Where and when a native line was read: what folding its updates needs of its record. */
export type LineTimes = Pick<IngestRecord, 'loc' | 'ts' | 'dir'>;

/**
 * A native entry's updates folded as the ACP updates they stand for: messages, calls (a plan
 * call as its plan), results, exit codes. `treeCalls`: where a session kept as a tree lists the
 * entry's calls. True when any stands for something shown (an exit code alone does not).
 */
export function foldNativeUpdates(state: FoldState, record: LineTimes, updates: readonly NativeUpdate[], sessionId: string | null, treeCalls?: ToolCall[]): boolean {
  const { native, calls, transcript } = state;
  const loc = record.loc;
  const scope = sessionId ?? '';
  let shown = false;
  for (const update of updates) {
    if (update.type === 'exit') {
      // Said by a line of its own, shown as the event it is: the call keeps the code.
      calls.noteExitCode(scope, update.toolCallId, update.exitCode);
      continue;
    }
    shown = true;
    switch (update.type) {
      case 'chunk': {
        const role = update.tag === 'user_message_chunk' ? 'user' : update.tag === 'agent_message_chunk' ? 'agent' : 'thought';
        const spawnedBy = role === 'user' && sessionId !== null ? native.spawnWaiting.get(sessionId) : undefined;
        if (spawnedBy !== undefined && sessionId !== null) {
          native.spawnWaiting.delete(sessionId);
          calls.linkSpawned(sessionId, spawnedBy, update.content);
        }
        transcript.appendChunk(sessionId, role, update.content, update.messageId, loc, record.ts);
        break;
      }
      case 'call': {
        const { toolCallId, name } = update.update.fields;
        if (isPlanCall(name, toolCallId)) {
          native.planCalls.add(pairKey(scope, toolCallId));
          transcript.add({ type: 'plan', loc, sessionId, entries: update.plan ?? [] });
          break;
        }
        // A call's own time where the format gives one apart from its record's (an OpenCode tool part's start).
        const call = calls.toolUpdate(sessionId, update.update, update.ts === undefined ? record : { ...record, ts: update.ts }, 'tool_call');
        treeCalls?.push(call);
        // The format names the subject where §6 cannot read it (a Codex patch's files), as a ledger line names its own.
        if (update.subject !== undefined) call.subject = update.subject;
        break;
      }
      case 'result':
        if (native.planCalls.has(pairKey(scope, update.update.fields.toolCallId))) break;
        calls.toolUpdate(sessionId, update.update, record, 'tool_call_update');
        break;
      default: {
        const exhaustive: never = update;
        return exhaustive;
      }
    }
  }
  return shown;
}

/**
 * An entry of a session kept as a tree (Pi: `id`/`parentId`). An entry whose parent is not the
 * entry read before it starts a new branch: a person went back to its parent and continued from
 * there. The entries after the parent on the path left behind are abandoned (still read and
 * shown above, as they ran): an event says where the branch was left and which calls it held.
 * Returns the list the entry's own calls are added to.
 */
/**
 * Codex: a forked thread's rollout copies its parent's history after its own `session_meta`
 * (`forked_from_id`): the parent's `session_meta`, then the parent's lines, all stamped with the
 * fork's time. Those are counted, shown as one quiet row, and not folded again: the parent's own
 * rollout holds them (its calls, prompts and usage counted once). True when the line is such a copy.
 */
function foldForkCopy(state: FoldState, record: IngestRecord, body: NativeEntry): boolean {
  const native = state.native;
  if (body.opens !== undefined && body.forkedFrom !== undefined) {
    native.fork = record.ts === undefined ? undefined : { at: record.ts, copying: false };
    return false;
  }
  const fork = native.fork;
  if (!fork) return false;
  // The copy starts with the parent's session_meta, at the fork's time, and ends at the first line written after it.
  if (record.ts === undefined || record.ts > fork.at || (!fork.copying && body.opens === undefined)) {
    native.fork = undefined;
    return false;
  }
  fork.copying = true;
  state.transcript.add({ type: 'event', loc: record.loc, name: body.name, summary: 'copied from the thread it was forked from', raw: body.raw, sessionId: native.session, bookkeeping: true });
  return true;
}

/** Codex multi-agent v2: a thread's path, named by its `spawn_agent` call's output and by its own `session_meta`; once both are read, the call is its parent. */
function joinAgentPath(state: FoldState, key: string, side: { child: string } | { parentId: string }): void {
  const joined = { ...state.native.agentPaths.get(key), ...side };
  state.native.agentPaths.set(key, joined);
  if (joined.child !== undefined && joined.parentId !== undefined) state.calls.linkSubagent(joined.child, joined.parentId);
}

function foldTreeEntry(state: FoldState, record: IngestRecord, tree: { id: string; parentId: string | null }, sessionId: string | null): ToolCall[] {
  const sessionTree = state.native.treeOf(sessionId ?? '');
  const last = sessionTree.last;
  if (last !== undefined && tree.parentId !== last) {
    const kept = new Set<string>();
    for (let id: string | null | undefined = tree.parentId; id != null && !kept.has(id); id = sessionTree.parents.get(id)) kept.add(id);
    const left: string[] = [];
    let fork: string | null | undefined = last;
    for (; fork != null && !kept.has(fork) && !left.includes(fork); fork = sessionTree.parents.get(fork)) left.push(fork);
    const calls = left.reverse().flatMap((id) => sessionTree.calls.get(id) ?? []);
    const named = calls.map((call) => (call.subject === null ? call.label : `${call.label} ${call.subject}`));
    // Where the two paths part (the entry both go through last), and where the new one goes on from.
    const at = fork != null && kept.has(fork) ? fork : 'the start';
    const from = tree.parentId ?? 'the start';
    const summary = `branch abandoned at ${at}: ${plural(left.length, 'entry', 'entries')} after it left behind${named.length > 0 ? `, with ${plural(named.length, 'call')}: ${named.join('; ')}` : ''}; continued from ${from} by ${tree.id}`;
    state.transcript.add({ type: 'event', loc: record.loc, name: 'branch', summary, raw: { abandoned: left, calls: calls.map((call) => call.id), from: tree.parentId, next: tree.id }, sessionId });
  }
  sessionTree.parents.set(tree.id, tree.parentId);
  sessionTree.last = tree.id;
  const calls: ToolCall[] = [];
  sessionTree.calls.set(tree.id, calls);
  return calls;
}

export function foldNativeUsage(state: FoldState, usage: NonNullable<NativeEntry['usage']>, loc: SourceLocation, sessionId: string | null): void {
  const native = state.native;
  const read = readUsage(usage.counts) ?? {};
  // Rows read the counts, not the object they came from (FoldState's `keep`).
  if (state.keep === 'rows') read.raw = undefined;
  const item: TranscriptItem = { type: 'usage', loc, sessionId, usage: read };
  const messageId = usage.messageId;
  const items = messageId === undefined ? undefined : native.usageItemsOf(sessionId ?? '');
  const earlier = messageId === undefined ? undefined : items?.get(messageId);
  if (earlier !== undefined) {
    // Once per message, from its last entry (§10): each entry repeats the usage known when it was written.
    state.transcript.replace(earlier, item);
  } else {
    if (messageId !== undefined) items?.set(messageId, state.session.items.length);
    state.transcript.add(item);
  }
}

/** Once per input: a release newer than those Loupe was tested with is read as far as it is known, and said. */
function noteRelease(state: FoldState, format: string, raw: JsonObject, line: number): void {
  // Decided by the first line that names its release (or at once for a harness whose lines never do): not asked per line after.
  const harness = harnessOfFormat(format);
  if ((harness?.versionOf?.(raw) ?? null) === null) {
    if (harness?.versionOf === undefined) state.native.releaseNoted = true;
    return;
  }
  state.native.releaseNoted = true;
  const untested = untestedRelease(format, raw);
  if (untested === null) return;
  state.warn(
    line,
    `written by ${untested.name} ${untested.version}, newer than the releases Loupe was tested with (${untested.tested.join(', ')}): what is known is read, other entries are events`,
  );
}
