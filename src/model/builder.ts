// The one pass over the records that builds every index of a session: transcript items, merged
// calls, joins, counts, diagnostics and the ledger chain. Incremental: bytes can be pushed in any
// chunking and the session read (or its changes taken) at any time.
import type { ContentBlock, Direction } from '../ingest/acpTypes';
import { classify } from '../ingest/classify';
import type { DatabaseRead } from '../ingest/formats/opencode';
import { harnessOfFormat, untestedRelease } from '../ingest/harnesses';
import { readPermissionResult, readPromptResult } from '../ingest/fastPath';
import { readWith } from '../ingest/result';
import { RecordReader, describeType, readTextLog, type ByteRange, type RecordSink, type SkimmerKind } from '../ingest/reader';
import type { IngestRecord, LedgerToolCalled, NativeEntry, RecordBody, RpcId, Shape, ToolUpdate } from '../ingest/records';
import {
  isJsonObject, newSessionResultSchema, type JsonObject, terminalCreateResultSchema,
  terminalExitResultSchema, terminalOutputResultSchema,
} from '../ingest/schemas';
import { callKey, LEDGER_SCOPE, LEGACY_LEDGER_SCOPE, type CallScope } from './callKey';
import { ChainVerifier, type ChainInput } from './chain';
import { labelOf } from './labels';
import type { Session } from './session';
import {
  appendHistoryCopy, mergeLedgerCalled, mergeLedgerResult, mergeToolUpdate, newCall, withHistory, withInputEnd, withPermission, withPermissionOutcome,
  type AppendHistory, type MergeContext,
} from './merge';
import { callRow, type CallHistoryEntry, type PermissionRequest, type CallSummary, type ChainState, type InputFormat, type SourceLocation, type ToolCall, type TranscriptItem } from './types';
import { hasEnded } from './status';
import { readUsage } from './usage';

const EXCERPT_CHARS = 200;
/** How many different lists of permission options are shared; an input with more keeps the rest as they come. */
const MAX_OPTION_LISTS = 8;


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

export interface SessionChanges<Call extends CallSummary = ToolCall> {
  /**
   * The message taken last, grown since: its text from `textFrom` on and its blocks from
   * `blocksFrom` on (agents stream a message in thousands of chunks; handing it out whole each
   * time is quadratic). `items` then start after it.
   */
  grown?: GrownMessage;
  /** Index from which `items` replace the previously taken items. */
  itemsFrom: number;
  items: TranscriptItem[];
  /**
   * Calls created or changed since the last take, each with the part of its history not taken
   * before; or, taken as rows, each call's row (and no history).
   */
  calls: CallChange<Call>[];
}

/** What a message taken before has had appended since (see `SessionChanges.grown`). */
export interface GrownMessage {
  index: number;
  textFrom: number;
  text: string;
  blocksFrom: number;
  blocks: ContentBlock[];
}

/**
 * A call as it is now, except that its history holds only the entries from `historyFrom` on: a
 * call updated 200,000 times is not handed out whole at every take. Never changed afterwards.
 */
export interface CallChange<Call extends CallSummary = ToolCall> {
  call: Call;
  historyFrom: number;
}

type MessageItem = Extract<TranscriptItem, { type: 'message' }>;

export interface BuilderOptions {
  /**
   * `full` keeps every field of every call. `light` keeps what rows, filters and counts need and
   * leaves out the bulk (tool output content, raw output, ledger results): those are read again
   * from the source when a call is opened (`hydrateCall`). Large inputs are read light.
   */
  detail?: 'full' | 'light';
  /** A light read's skimmer: WebAssembly with SIMD (the default, where it runs) or JS (ingest/wasm/README.md). */
  skimmer?: SkimmerKind;
  /** Where the ledger chain is verified: by default here, by the builder's own `ChainVerifier`. */
  chain?: ChainInput;
}

export class SessionBuilder {
  readonly detail: 'full' | 'light';
  /**
   * The detail calls are read in: a database's rows (OpenCode's) are no lines a light call could
   * be read again from, so its calls are read whole whatever `detail` says.
   */
  private callDetail: 'full' | 'light';

  constructor(options: BuilderOptions = {}) {
    this.detail = options.detail ?? 'full';
    this.callDetail = this.detail;
    this.records = this.recordSink();
    this.reader = new RecordReader(this.records, { light: this.detail === 'light', skimmer: options.skimmer });
    if (this.reader.skimmerKind) this.session.diagnostics.skimmer = this.reader.skimmerKind;
    this.chain = options.chain ?? new ChainVerifier((warning) => this.session.diagnostics.warnings.push(warning));
  }

  readonly session: Session = {
    format: 'empty',
    counts: { lines: 0, events: 0, unknown: 0, bad: 0 },
    items: [],
    calls: new Map(),
    terminals: new Map(),
    diagnostics: { bad: [], warnings: [] },
    chain: null,
    sessionIds: [],
    ended: false,
  };

  /**
   * Where ingest's reader hands this builder its records. Records read once can be handed here
   * again, to time the fold alone (`npm run bench:fold`).
   */
  readonly records: RecordSink;
  /** Bytes → records (ingest's reader); this builder folds what it hands over. */
  private readonly reader: RecordReader;
  private readonly chain: ChainInput;
  private readonly shapes = new Set<Shape>();
  /** Unanswered requests by id, then by the direction they were sent (`''`: not said), latest last. */
  private readonly pending = new Map<number | string, Map<Direction | '', PendingRequest[]>>();
  private pendingSeq = 0;
  /** The first lists of permission options seen (`sharedOptions`). */
  private readonly optionLists: PermissionRequest['options'][] = [];
  private readonly lastUserItem = new Map<string | null, number>();
  /**
   * Calls changed since the last `takeChanges`. Kept only once something takes changes: before
   * the first take every call counts as changed, so a reader that never takes (the CLI,
   * `ingest()`) pays nothing for it.
   */
  private readonly changedCalls = new Set<string>();
  private takingChanges = false;
  private readonly sessionIdSet = new Set<string>();
  private readonly canonicalIds = new Map<string, string>();
  private lastId: string | null = null;
  /** The session id noted last: most records repeat it, so most are checked with one comparison. */
  private lastSessionId: string | null = null;
  /**
   * Calls by scope and id (the latest call of an id used again). Every merge writes into the
   * builder's own call (`owned`), so a key's call stays the same object and one lookup finds it.
   */
  private readonly callIndex = new Map<CallScope, Map<string, ToolCall>>();
  /** The scope looked up last and its calls: most updates are in the session of the one before. */
  private lastScope: CallScope | undefined;
  private lastScopeCalls: Map<string, ToolCall> | undefined;
  /** How much of each call's history was taken: a take hands out the rest. */
  private readonly historyTaken = new Map<string, number>();
  private itemsTaken = 0;
  /**
   * The last message's blocks, when this builder made that array and nobody has taken it since:
   * the next non-text chunk is pushed onto it (copying the list for every chunk made 50,000
   * image chunks quadratic). Taking changes hands it out, so the next chunk copies it once.
   */
  private ownedBlocks: ContentBlock[] | null = null;
  /** The latest time any record gave, for calls the input leaves open. */
  private lastTs: number | undefined;
  /** The first item replaced since the last take (a message grown, a native message's usage read again). */
  private itemChangedFrom = Infinity;
  /** The last item taken, when it is a message: how much of it was handed out. */
  private messageTaken: { index: number; text: number; blocks: number } | null = null;
  private valuesPushed = 0;
  /** Native logs (CONTRACTS §10): see `foldNative`. */
  private readonly native = new NativeState();
  /** Sub-agents' sessions, each with the id of the call that started it (CONTRACTS §11). */
  private readonly sessionParents = new Map<string, string>();

  /** Readies the ledger chain's verifier (BLAKE3 is WASM). Await once before pushing ledger input. */
  async init(): Promise<void> {
    await this.chain.init();
  }

  /** Non-blank lines read so far (each one record: CONTRACTS §2). */
  get linesRead(): number {
    return this.session.counts.lines;
  }

  get bytesRead(): number {
    return this.reader.bytesRead;
  }

  push(chunk: Uint8Array): void {
    this.reader.push(chunk);
  }

  /** One already-parsed record (an embedder's own array); numbered like lines, from 1. */
  pushValue(value: unknown): void {
    this.valuesPushed++;
    const loc = { line: this.valuesPushed, offset: 0, length: 0 };
    this.session.counts.lines++;
    if (!isJsonObject(value)) {
      this.addBad(loc.line, 0, `JSON is not an object (${describeType(value)})`, safeStringify(value));
      return;
    }
    this.fold(classify(value, '', loc), null);
  }

  /**
   * The rows of a database read up front (OpenCode's, `ingest/formats/opencode.ts`): each row a
   * record or a bad record, numbered like lines; what the reader says of the file, as warnings.
   */
  pushDatabase(read: DatabaseRead): void {
    this.callDetail = 'full';
    for (const warning of read.warnings) this.session.diagnostics.warnings.push({ line: 0, message: warning });
    for (const row of read.rows) {
      if ('record' in row) this.records.record(row.record, null);
      else this.records.bad(row.bad.line, 0, row.bad.reason, row.bad.text);
    }
  }

  /** One record's text at a known location: used to read a call's lines again (`hydrateCall`). */
  pushRecordText(text: string, loc: SourceLocation): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const logged = readTextLog(text, loc);
      if (logged) this.fold(logged, null);
      return;
    }
    if (isJsonObject(value)) this.fold(classify(value, text, loc), null);
  }

  /** The chain's state as a verifier elsewhere (another worker) found it, with what it warned of. */
  chainVerified(state: ChainState | null, warnings: readonly { line: number; message: string }[]): void {
    this.session.chain = state;
    this.session.diagnostics.warnings.push(...warnings);
  }

  end(): void {
    this.reader.end();
    this.session.ended = true;
    // Every unfinished call now displays differently, and says how long the input went on after it started.
    for (const [key, call] of this.session.calls) {
      if (!hasEnded(call)) {
        if (call.startMs !== undefined && this.lastTs !== undefined) withInputEnd(call, this.lastTs, true);
        this.markChanged(key);
      }
    }
  }

  /**
   * What changed since the last take. `rows`: each changed call as its row (`callRow`), for a
   * reader that shows rows and reads a call whole only when it is opened (a light read's worker);
   * a builder is taken from one way only.
   */
  takeChanges(as?: 'calls'): SessionChanges;
  takeChanges(as: 'rows'): SessionChanges<CallSummary>;
  takeChanges(as: 'calls' | 'rows'): SessionChanges | SessionChanges<CallSummary>;
  takeChanges(as: 'calls' | 'rows' = 'calls'): SessionChanges | SessionChanges<CallSummary> {
    this.ownedBlocks = null;
    const items = this.session.items;
    let itemsFrom = Math.min(this.itemsTaken, this.itemChangedFrom);
    // Only the last message grows, and only by appending (`appendChunk`): what was taken of it is its start.
    let grown: GrownMessage | undefined;
    const taken = this.messageTaken;
    const now = taken && itemsFrom === taken.index ? items[taken.index] : undefined;
    if (taken && now?.type === 'message') {
      grown = { index: taken.index, textFrom: taken.text, text: now.text.slice(taken.text), blocksFrom: taken.blocks, blocks: now.blocks.slice(taken.blocks) };
      itemsFrom++;
    }
    const last = items[items.length - 1];
    this.messageTaken = last?.type === 'message' ? { index: items.length - 1, text: last.text.length, blocks: last.blocks.length } : null;
    const changed = this.takingChanges ? [...this.changedCalls].map((key) => this.session.calls.get(key)!) : [...this.session.calls.values()];
    const changes: SessionChanges | SessionChanges<CallSummary> = {
      ...(grown ? { grown } : {}),
      itemsFrom,
      items: items.slice(itemsFrom),
      // A row is a new object already: the call is not copied first, and no history is handed out.
      calls: as === 'rows' ? changed.map((call) => ({ call: callRow(call), historyFrom: 0 })) : changed.map((call) => this.change(call)),
    };
    this.changedCalls.clear();
    this.takingChanges = true;
    this.itemsTaken = items.length;
    this.itemChangedFrom = Infinity;
    return changes;
  }

  // -------------------------------------------------------------------------------------------
  // Records in

  private recordSink(): RecordSink {
    return {
      beginLine: (line) => this.chain.line(line),
      record: (record, bytes) => {
        this.session.counts.lines++;
        this.fold(record, bytes);
      },
      bad: (line, offset, reason, text) => {
        this.session.counts.lines++;
        this.addBad(line, offset, reason, text);
      },
      warning: (line, message) => this.session.diagnostics.warnings.push({ line, message }),
    };
  }

  private addBad(line: number, offset: number, reason: string, text: string): void {
    this.session.counts.bad++;
    if (this.shapes.size === 0) this.session.format = 'unknown';
    this.session.diagnostics.bad.push({ line, offset, reason: ownString(reason), excerpt: ownString(excerpt(text)) });
  }

  // -------------------------------------------------------------------------------------------
  // Records → session

  private fold(record: IngestRecord, bytes: ByteRange | null): void {
    const { counts } = this.session;
    const body = record.body;
    if (body.kind === 'unknown') {
      counts.unknown++;
      // Lines were read but none had a known shape: say so, not that the input was empty.
      if (this.shapes.size === 0) this.session.format = 'unknown';
      this.addItem({ type: 'unknown', loc: record.loc, reason: body.reason, raw: body.value });
      return;
    }
    counts.events++;
    if (record.shape && !this.shapes.has(record.shape)) {
      this.shapes.add(record.shape);
      this.session.format = formatOf(this.shapes);
    }
    if (record.ts !== undefined && record.ts > (this.lastTs ?? -Infinity) && Number.isFinite(record.ts)) this.lastTs = record.ts;
    this.foldEvent(record, body, bytes);
  }

  /** The exhaustive switch over record kinds: a new kind is a compile error here. */
  private foldEvent(record: IngestRecord, body: Exclude<RecordBody, { kind: 'unknown' }>, bytes: ByteRange | null): void {
    switch (body.kind) {
      case 'update':
        return this.foldUpdate(record, body);
      case 'request':
        return this.foldRequest(record, body);
      case 'notification':
        return this.addItem({ type: 'event', loc: record.loc, name: body.method, raw: body.params });
      case 'response':
        return this.foldResponse(record, body);
      case 'ledger':
        return this.foldLedger(record, body, bytes);
      case 'stderr':
        return this.addItem({ type: 'event', loc: record.loc, name: 'stderr', summary: body.text, raw: body.text });
      case 'native':
        return this.foldNative(record, body);
      case 'frame':
        this.session.diagnostics.warnings.push({ line: record.loc.line, message: `${record.dir ?? 'a'} frame that is not JSON` });
        return this.addItem({ type: 'event', loc: record.loc, name: 'frame (not JSON)', summary: body.text, raw: body.text });
      default: {
        const exhaustive: never = body;
        return exhaustive;
      }
    }
  }

  private foldUpdate(record: IngestRecord, body: Extract<RecordBody, { kind: 'update' }>): void {
    const update = body.update;
    const sessionId = this.canonicalId(body.sessionId);
    this.noteSession(sessionId);
    const loc = record.loc;
    switch (update.type) {
      case 'chunk': {
        const role = update.tag === 'user_message_chunk' ? 'user' : update.tag === 'agent_message_chunk' ? 'agent' : 'thought';
        return this.appendChunk(sessionId, role, update.content, update.messageId, loc, record.ts);
      }
      case 'tool':
        this.applyToolUpdate(sessionId, update, record, update.tag);
        return;
      case 'plan':
        return this.addItem({ type: 'plan', loc, sessionId, entries: update.entries });
      case 'mode':
        return this.addItem({ type: 'mode', loc, sessionId, modeId: update.modeId });
      case 'usage':
        return this.addItem({ type: 'usage', loc, sessionId, usage: { used: update.used, size: update.size, cost: update.cost } });
      case 'notice':
        return this.addItem({ type: 'notice', loc, sessionId, title: update.title, detail: update.description, severity: update.severity });
      case 'turn_completed':
        this.lastUserItem.delete(sessionId);
        return this.addItem({
          type: 'turn_end', loc, sessionId, stopReason: update.stopReason ?? 'unknown', usage: readUsage(update.usage),
          elapsedMs: update.elapsedMs, ts: record.ts,
        });
      case 'other': {
        const child = update.tag === 'subagent_update' || update.tag === 'subagent_spawned' ? spawnedSession(update.raw) : undefined;
        if (child) this.linkSubagent(this.canonicalId(child.sessionId), child.parentId);
        return this.addItem({ type: 'event', loc, name: update.tag, summary: summarizeOther(update.raw), raw: update.raw, sessionId });
      }
      default: {
        const exhaustive: never = update;
        return exhaustive;
      }
    }
  }

  private appendChunk(
    sessionId: string | null, role: MessageItem['role'], block: ContentBlock, messageId: string | undefined,
    loc: SourceLocation, ts: number | undefined,
  ): void {
    const items = this.session.items;
    const last = items[items.length - 1];
    const text = block.type === 'text' ? block.text : '';
    if (last?.type === 'message' && last.role === role && last.sessionId === sessionId && last.messageId === messageId) {
      let blocks = last.blocks;
      if (block.type !== 'text') {
        if (blocks !== this.ownedBlocks) blocks = this.ownedBlocks = blocks.slice();
        blocks.push(block);
      }
      const index = items.length - 1;
      if (index >= this.itemsTaken) {
        // Nobody was handed this item yet (a reader that never takes, the CLI, is handed none):
        // written in place, not copied for each of a message's chunks.
        last.text += text;
        last.blocks = blocks;
        return;
      }
      // A new object, so a reader holding the old one sees the change.
      items[index] = messageWithText(last, last.text + text, blocks);
      this.itemChangedFrom = Math.min(this.itemChangedFrom, index);
      return;
    }
    if (role === 'user') this.lastUserItem.set(sessionId, items.length);
    // Most messages are text only: they share one empty list (a block added later copies it, see `ownedBlocks`).
    this.addItem({ type: 'message', role, loc, sessionId, messageId, blocks: block.type === 'text' ? NO_BLOCKS : [block], text, ts });
  }

  /**
   * Calls by scope (session id, or the ledger) and then id: looking up two flat strings is much
   * cheaper than building and hashing a joined key for every update.
   */
  private callFor(scope: CallScope, id: string, sessionId: string | null, loc: SourceLocation, opens = false): ToolCall {
    let byId = scope === this.lastScope ? this.lastScopeCalls : this.callIndex.get(scope);
    if (!byId) {
      byId = new Map();
      this.callIndex.set(scope, byId);
    }
    this.lastScope = scope;
    this.lastScopeCalls = byId;
    let call = byId.get(id);
    // CONTRACTS §4: an id can come back. A `tool_call` naming a call that already ended opens a new
    // one (agents that number calls per turn); the ended call keeps what it had.
    const reopened = opens && call !== undefined && hasEnded(call);
    if (!call || reopened) {
      const key = callKey(scope, id, reopened ? this.session.calls.size : undefined);
      const ledger = scope === LEDGER_SCOPE || scope === LEGACY_LEDGER_SCOPE;
      call = newCall(key, id, sessionId, this.session.calls.size, loc.line, this.callDetail, !ledger);
      byId.set(id, call);
      this.session.calls.set(key, call);
      this.addItem({ type: 'call', loc, callKey: key });
    }
    this.markChanged(call.key);
    return call;
  }

  /** What a take hands out of a call: a copy, with the history entries not taken before (see `CallChange`). */
  private change(call: ToolCall): CallChange {
    const historyFrom = this.historyTaken.get(call.key) ?? 0;
    this.historyTaken.set(call.key, call.history.length);
    return { call: withHistory(call, call.history.slice(historyFrom)), historyFrom };
  }

  /**
   * One context for every merge, set to each record in turn (the merges keep none of it but `loc`).
   * `owned`: a take hands out copies (`change`), never the builder's own calls, so every merge
   * writes into them in place.
   */
  private readonly context: MergeContext = { detail: 'full', loc: { line: 0, offset: 0, length: 0 }, ts: undefined, dir: undefined, appendHistory: undefined, owned: true };

  private mergeContext(record: IngestRecord): MergeContext {
    const context = this.context;
    context.detail = this.callDetail;
    context.loc = record.loc;
    context.ts = record.ts;
    context.dir = record.dir;
    context.appendHistory = this.appendHistory;
    return context;
  }

  /**
   * A short history is rebuilt at its exact length (an array grown by `push` gets room for 17
   * entries, and most calls have two to four); a longer one grows in place: the builder never
   * hands out its own history arrays (a take copies the entries it has not handed out yet).
   */
  private readonly appendHistory: AppendHistory = (history, entry) => {
    if (history.length < 8) return appendHistoryCopy(history, entry);
    const owned = history as CallHistoryEntry[];
    owned.push(entry);
    return owned;
  };

  /** CONTRACTS §4 (`mergeToolUpdate`): the call's state after one ACP tool update. */
  private applyToolUpdate(sessionId: string | null, update: ToolUpdate, record: IngestRecord, source: 'tool_call' | 'tool_call_update' | 'permission'): ToolCall {
    const call = this.callFor(sessionId ?? '', update.fields.toolCallId, sessionId, record.loc, source === 'tool_call');
    const merged = mergeToolUpdate(call, update, source, this.mergeContext(record));
    // A sub-agent's session names the call that started it (CONTRACTS §11); `_meta` may have said already.
    if (merged.parentId === undefined && sessionId !== null && this.sessionParents.size > 0) {
      const parentId = this.sessionParents.get(sessionId);
      if (parentId !== undefined && parentId !== merged.id) merged.parentId = parentId;
    }
    return merged;
  }

  /**
   * Codex: a forked thread's rollout copies its parent's history after its own `session_meta`
   * (`forked_from_id`): the parent's `session_meta`, then the parent's lines, all stamped with the
   * fork's time. Those are counted, shown as one quiet row, and not folded again: the parent's own
   * rollout holds them (its calls, prompts and usage counted once). True when the line is such a copy.
   */
  private foldForkCopy(record: IngestRecord, body: NativeEntry): boolean {
    const native = this.native;
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
    this.addItem({ type: 'event', loc: record.loc, name: body.name, summary: 'copied from the thread it was forked from', raw: body.raw, sessionId: native.session, bookkeeping: true });
    return true;
  }

  /** Codex multi-agent v2: a thread's path, named by its `spawn_agent` call's output and by its own `session_meta`; once both are read, the call is its parent. */
  private joinAgentPath(key: string, side: { child: string } | { parentId: string }): void {
    const joined = { ...this.native.agentPaths.get(key), ...side };
    this.native.agentPaths.set(key, joined);
    if (joined.child !== undefined && joined.parentId !== undefined) this.linkSubagent(joined.child, joined.parentId);
  }

  /**
   * The calls of `sessionId` were made by the sub-agent the call `parentId` started (CONTRACTS §11):
   * those read so far are marked, later ones when they come. The first call named wins.
   */
  private linkSubagent(sessionId: string, parentId: string): void {
    if (this.sessionParents.has(sessionId)) return;
    this.sessionParents.set(sessionId, parentId);
    const calls = this.callIndex.get(sessionId);
    if (!calls) return;
    for (const call of calls.values()) {
      if (call.parentId !== undefined || call.id === parentId) continue;
      call.parentId = parentId;
      this.markChanged(call.key);
    }
  }

  private foldRequest(record: IngestRecord, body: Extract<RecordBody, { kind: 'request' }>): void {
    const sessionId = body.sessionId === undefined ? undefined : this.canonicalId(body.sessionId);
    const pending: PendingRequest = { seq: this.pendingSeq++, method: body.method, dir: record.dir, line: record.loc.line, sessionId };
    if (sessionId !== undefined) this.noteSession(sessionId);
    switch (body.method) {
      case 'session/request_permission': {
        const permission = body.permission;
        if (permission?.toolCall) {
          const call = this.applyToolUpdate(this.canonicalId(permission.sessionId ?? null), permission.toolCall, record, 'permission');
          withPermission(call, { line: record.loc.line, options: this.sharedOptions(permission.options) }, true);
          pending.callKey = call.key;
        } else {
          this.addItem({ type: 'event', loc: record.loc, name: body.method, raw: body.params });
        }
        break;
      }
      case 'session/prompt':
        this.addPrompt(sessionId ?? null, body.prompt ?? [], record);
        break;
      case 'terminal/create':
        pending.terminalCommand = body.terminalCommand;
        this.addItem({ type: 'event', loc: record.loc, name: body.method, summary: body.terminalCommand, raw: body.params });
        break;
      case 'terminal/output':
      case 'terminal/wait_for_exit':
        // Polling; what it returns is joined to the terminal, not shown as rows of its own.
        pending.terminalId = body.terminalId;
        break;
      default:
        pending.terminalId = body.terminalId;
        this.addItem({ type: 'event', loc: record.loc, name: body.method, raw: body.params });
    }
    const key = rpcKey(body.id);
    let byDir = this.pending.get(key);
    if (!byDir) {
      byDir = new Map();
      this.pending.set(key, byDir);
    }
    const stack = byDir.get(record.dir ?? '');
    if (stack) stack.push(pending);
    else byDir.set(record.dir ?? '', [pending]);
  }

  /** A `session/prompt` is the user's turn, unless the same text already arrived as a user message chunk. */
  private addPrompt(sessionId: string | null, prompt: ContentBlock[], record: IngestRecord): void {
    const text = prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const lastIndex = this.lastUserItem.get(sessionId);
    const last = lastIndex === undefined ? undefined : this.session.items[lastIndex];
    if (last?.type === 'message' && last.text.trim() === text.trim()) return;
    this.lastUserItem.set(sessionId, this.session.items.length);
    this.addItem({
      type: 'message', role: 'user', loc: record.loc, sessionId, blocks: prompt.filter((block) => block.type !== 'text'), text, ts: record.ts,
    });
  }

  /**
   * The options of a permission request, as one list shared by every request that offers the same:
   * an agent offers the same few options each time, and each copy cost 500 bytes a request.
   */
  private sharedOptions(options: PermissionRequest['options']): PermissionRequest['options'] {
    for (const known of this.optionLists) if (sameOptions(known, options)) return known;
    if (this.optionLists.length < MAX_OPTION_LISTS) this.optionLists.push(options);
    return options;
  }

  /** CONTRACTS §8: join a response to its request; with a direction, to one sent the other way. */
  private takePending(id: RpcId | null, dir: Direction | undefined): PendingRequest | undefined {
    if (id === null) return undefined;
    const key = rpcKey(id);
    const byDir = this.pending.get(key);
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
      if (byDir.size === 0) this.pending.delete(key);
    }
    return request;
  }

  private foldResponse(record: IngestRecord, body: Extract<RecordBody, { kind: 'response' }>): void {
    const request = this.takePending(body.id, record.dir);
    const method = request?.method ?? body.method;
    if (!request && body.method === undefined) {
      this.session.diagnostics.warnings.push({ line: record.loc.line, message: `response to a request not in the input (id ${String(body.id)})` });
    }
    if (body.error) {
      this.addItem({ type: 'event', loc: record.loc, name: `${method ?? 'request'} failed`, summary: body.error.message, raw: body.error });
      return;
    }
    const result = body.result;
    switch (method) {
      case 'session/request_permission': {
        const parsed = readPermissionResult(result);
        const call = request?.callKey ? this.session.calls.get(request.callKey) : undefined;
        if (parsed.ok && call?.permission) {
          withPermissionOutcome(call, parsed.value.outcome, true);
          this.markChanged(call.key);
        }
        return;
      }
      case 'session/prompt': {
        const parsed = readPromptResult(result);
        const sessionId = request?.sessionId ?? null;
        this.lastUserItem.delete(sessionId);
        this.addItem({
          type: 'turn_end', loc: record.loc, sessionId, stopReason: parsed.ok ? parsed.value.stopReason : 'unknown',
          usage: parsed.ok ? readUsage(parsed.value.usage) : undefined, ts: record.ts,
        });
        return;
      }
      case 'session/new':
      case 'session/fork': {
        const parsed = readWith(newSessionResultSchema, result);
        if (parsed.ok) this.noteSession(parsed.value.sessionId);
        return;
      }
      case 'terminal/create': {
        const parsed = readWith(terminalCreateResultSchema, result);
        if (parsed.ok) {
          this.session.terminals.set(parsed.value.terminalId, { terminalId: parsed.value.terminalId, command: request?.terminalCommand, output: '', truncated: false });
        }
        return;
      }
      case 'terminal/output': {
        const parsed = readWith(terminalOutputResultSchema, result);
        if (parsed.ok && request?.terminalId) {
          const terminal = this.terminal(request.terminalId);
          terminal.output = parsed.value.output;
          terminal.truncated = parsed.value.truncated;
          if (parsed.value.exitStatus) {
            terminal.exitCode = parsed.value.exitStatus.exitCode;
            terminal.signal = parsed.value.exitStatus.signal;
          }
        }
        return;
      }
      case 'terminal/wait_for_exit': {
        const parsed = readWith(terminalExitResultSchema, result);
        if (parsed.ok && request?.terminalId) {
          const terminal = this.terminal(request.terminalId);
          terminal.exitCode = parsed.value.exitCode;
          terminal.signal = parsed.value.signal;
        }
        return;
      }
      default:
        return;
    }
  }

  private terminal(terminalId: string) {
    let terminal = this.session.terminals.get(terminalId);
    if (!terminal) {
      terminal = { terminalId, output: '', truncated: false };
      this.session.terminals.set(terminalId, terminal);
    }
    return terminal;
  }


  private foldLedger(record: IngestRecord, body: Extract<RecordBody, { kind: 'ledger' }>, bytes: ByteRange | null): void {
    const { line, body: ledger } = body;
    if (bytes) {
      this.chain.ledgerLine(record.loc.line, line.prev, bytes.source, bytes.start, bytes.end);
      this.session.chain = this.chain.state;
    }
    const run = this.canonicalId(line.run ?? null);
    const loc = record.loc;
    switch (ledger.type) {
      case 'tool_called':
        return this.applyLedgerCalled(run, ledger.call, record);
      case 'tool_result': {
        if (ledger.toolUseId === undefined) {
          this.addItem({ type: 'event', loc, name: line.kind, summary: 'result without a tool_use_id', raw: line.data });
          return;
        }
        const call = this.callFor(LEDGER_SCOPE, ledger.toolUseId, run, loc);
        mergeLedgerResult(call, ledger, this.mergeContext(record));
        return;
      }
      case 'model_returned':
        return this.addItem({ type: 'message', role: 'agent', loc, sessionId: run, blocks: [], text: ledger.text });
      case 'other':
        return this.addItem({ type: 'event', loc, name: line.kind, summary: summarizeOther(line.data), raw: line });
      default: {
        const exhaustive: never = ledger;
        return exhaustive;
      }
    }
  }

  /**
   * A line of an agent's own log (CONTRACTS §10), as its format's adapter read it: its updates are
   * folded as the ACP updates they stand for; what only native logs have (entries read again,
   * usage per message, plans sent as calls) is handled here, the same for every format.
   */
  private foldNative(record: IngestRecord, body: NativeEntry): void {
    const native = this.native;
    if (!native.releaseNoted && record.shape !== undefined) this.noteRelease(record.shape, body.raw, record.loc.line);
    if (this.foldForkCopy(record, body)) return;
    if (body.opens !== undefined) native.session = this.canonicalId(body.opens);
    const sessionId = body.sessionId === undefined ? native.session : this.canonicalId(body.sessionId);
    this.noteSession(sessionId);
    if (body.agentPath && sessionId !== null) this.joinAgentPath(`${this.canonicalId(body.agentPath.parentSession)}\n${body.agentPath.path}`, { child: sessionId });
    if (body.spawnedPath && sessionId !== null) this.joinAgentPath(`${sessionId}\n${body.spawnedPath.path}`, { parentId: body.spawnedPath.callId });
    // Before the copy check: a Claude `progress` entry copying a message its sub-agent's file gave first still names the Task call.
    if (body.subagent) this.linkSubagent(this.canonicalId(body.subagent.sessionId), body.subagent.parentId);
    if (body.uuid !== undefined) {
      // Resumed sessions copy earlier entries: counted (the line is an event) but not folded again.
      // A message's usage still replaces what a copy read first said (a Claude `progress` copy of a
      // sub-agent's message has none: it was written when the response started).
      if (native.uuids.has(body.uuid)) {
        if (body.usage?.messageId !== undefined) this.foldNativeUsage(body.usage, record.loc, sessionId);
        return;
      }
      native.uuids.add(body.uuid);
    }
    if (record.shape === 'gemini-cli') return this.foldGemini(record, body, sessionId);
    const loc = record.loc;
    const scope = sessionId ?? '';
    let shown = body.repeat === true;
    const treeCalls = body.tree ? this.foldTreeEntry(record, body.tree, sessionId) : undefined;
    for (const update of body.updates) {
      if (update.type === 'exit') {
        // Said by a line of its own, shown as the event it is: the call keeps the code.
        this.noteExitCode(scope, update.toolCallId, update.exitCode);
        continue;
      }
      shown = true;
      switch (update.type) {
        case 'chunk': {
          const role = update.tag === 'user_message_chunk' ? 'user' : update.tag === 'agent_message_chunk' ? 'agent' : 'thought';
          this.appendChunk(sessionId, role, update.content, update.messageId, loc, record.ts);
          break;
        }
        case 'call': {
          const { toolCallId, name } = update.update.fields;
          // A call labelled Plan is the plan it sets, as both harnesses' ACP adapters send it; its result updates nothing.
          if (labelOf({ tool: undefined, meta: {}, name, ledger: undefined, kind: undefined, id: toolCallId }) === 'Plan') {
            native.planCalls.add(JSON.stringify([scope, toolCallId]));
            this.addItem({ type: 'plan', loc, sessionId, entries: update.plan ?? [] });
            break;
          }
          // A call's own time where the format gives one apart from its record's (an OpenCode tool part's start).
          const call = this.applyToolUpdate(sessionId, update.update, update.ts === undefined ? record : { ...record, ts: update.ts }, 'tool_call');
          treeCalls?.push(call);
          // The format names the subject where §6 cannot read it (a Codex patch's files), as a ledger line names its own.
          if (update.subject !== undefined) call.subject = update.subject;
          break;
        }
        case 'result':
          if (native.planCalls.has(JSON.stringify([scope, update.update.fields.toolCallId]))) break;
          this.applyToolUpdate(sessionId, update.update, record, 'tool_call_update');
          break;
        default: {
          const exhaustive: never = update;
          return exhaustive;
        }
      }
    }
    if (body.usage) {
      shown = true;
      this.foldNativeUsage(body.usage, loc, sessionId);
    }
    if (body.compaction === true) {
      shown = true;
      this.addItem({ type: 'event', loc, name: `compaction (${body.name})`, summary: body.summary, raw: body.raw, sessionId });
    }
    // Every native line is an event, whatever its type: one that stands for nothing else is shown by its type.
    if (!shown) {
      const item: TranscriptItem = { type: 'event', loc, name: body.name, summary: body.summary, raw: body.raw, sessionId };
      if (body.bookkeeping === true) item.bookkeeping = true;
      this.addItem(item);
    }
  }

  /**
   * An entry of a session kept as a tree (Pi: `id`/`parentId`). An entry whose parent is not the
   * entry read before it starts a new branch: a person went back to its parent and continued from
   * there. The entries after the parent on the path left behind are abandoned (still read and
   * shown above, as they ran): an event says where the branch was left and which calls it held.
   * Returns the list the entry's own calls are added to.
   */
  private foldTreeEntry(record: IngestRecord, tree: { id: string; parentId: string | null }, sessionId: string | null): ToolCall[] {
    const state = this.native.treeOf(sessionId ?? '');
    const last = state.last;
    if (last !== undefined && tree.parentId !== last) {
      const kept = new Set<string>();
      for (let id: string | null | undefined = tree.parentId; id != null && !kept.has(id); id = state.parents.get(id)) kept.add(id);
      const left: string[] = [];
      let fork: string | null | undefined = last;
      for (; fork != null && !kept.has(fork) && !left.includes(fork); fork = state.parents.get(fork)) left.push(fork);
      const calls = left.reverse().flatMap((id) => state.calls.get(id) ?? []);
      const named = calls.map((call) => (call.subject === null ? call.label : `${call.label} ${call.subject}`));
      // Where the two paths part (the entry both go through last), and where the new one goes on from.
      const at = fork != null && kept.has(fork) ? fork : 'the start';
      const from = tree.parentId ?? 'the start';
      const summary = `branch abandoned at ${at}: ${plural(left.length, 'entry', 'entries')} after it left behind${named.length > 0 ? `, with ${plural(named.length, 'call')}: ${named.join('; ')}` : ''}; continued from ${from} by ${tree.id}`;
      this.addItem({ type: 'event', loc: record.loc, name: 'branch', summary, raw: { abandoned: left, calls: calls.map((call) => call.id), from: tree.parentId, next: tree.id }, sessionId });
    }
    state.parents.set(tree.id, tree.parentId);
    state.last = tree.id;
    const calls: ToolCall[] = [];
    state.calls.set(tree.id, calls);
    return calls;
  }

  private foldNativeUsage(usage: NonNullable<NativeEntry['usage']>, loc: SourceLocation, sessionId: string | null): void {
    const native = this.native;
    const item: TranscriptItem = { type: 'usage', loc, sessionId, usage: readUsage(usage.counts) ?? {} };
    const messageId = usage.messageId;
    const key = messageId === undefined ? undefined : JSON.stringify([sessionId ?? '', messageId]);
    const earlier = key === undefined ? undefined : native.usageItems.get(key);
    if (earlier !== undefined) {
      // Once per message, from its last entry (§10): each entry repeats the usage known when it was written.
      this.session.items[earlier] = item;
      this.itemChangedFrom = Math.min(this.itemChangedFrom, earlier);
    } else {
      if (key !== undefined) native.usageItems.set(key, this.session.items.length);
      this.addItem(item);
    }
  }

  /**
   * A line of a Gemini CLI chat file (CONTRACTS §11) that writes, replaces or removes records. The
   * session's records are kept by id in the order Gemini CLI's own reader keeps them: a record
   * written again replaces the earlier one (its message is replaced where it shows, its calls are
   * the same calls, its usage counted once); `$rewindTo` and a `$set` of `messages` remove
   * records from the session's history. What a removed record showed stays shown (its calls ran,
   * its tokens were spent): the line says what Gemini CLI no longer counts as the conversation.
   */
  /** Once per input: a release newer than those Loupe was tested with is read as far as it is known, and said. */
  private noteRelease(format: string, raw: JsonObject, line: number): void {
    // Decided by the first line that names its release (or at once for a harness whose lines never do): not asked per line after.
    const harness = harnessOfFormat(format);
    if ((harness?.versionOf?.(raw) ?? null) === null) {
      if (harness?.versionOf === undefined) this.native.releaseNoted = true;
      return;
    }
    this.native.releaseNoted = true;
    const untested = untestedRelease(format, raw);
    if (untested === null) return;
    this.session.diagnostics.warnings.push({
      line,
      message: `written by ${untested.name} ${untested.version}, newer than the releases Loupe was tested with (${untested.tested.join(', ')}): what is known is read, other entries are events`,
    });
  }

  /** A native line's exit code for a call read before (Codex's `exec_command_end`, an output's last line). */
  private noteExitCode(scope: string, toolCallId: string, exitCode: number | null): void {
    const call = this.callIndex.get(scope)?.get(toolCallId);
    if (call && call.exitCode !== exitCode) {
      call.exitCode = exitCode;
      this.markChanged(call.key);
    }
  }

  private foldGemini(record: IngestRecord, body: NativeEntry, sessionId: string | null): void {
    const records = this.native.geminiRecordsOf(sessionId ?? '');
    const loc = record.loc;
    if (body.record !== undefined) {
      // A record written again that changes nothing shown is counted (an event), not shown twice.
      this.foldGeminiRecord(record, body, sessionId, records);
      return;
    }
    let summary = body.summary;
    if (body.rewindTo !== undefined) {
      const ids = [...records.keys()];
      const at = ids.indexOf(body.rewindTo);
      // Gemini CLI's reader removes the record and every one after it; an id it does not know removes them all.
      const removed = at < 0 ? ids : ids.slice(at);
      for (const id of removed) records.delete(id);
      summary = at < 0
        ? `rewind to ${body.rewindTo}, a record not in the history: all ${removed.length} records removed from the history`
        : `rewind to ${body.rewindTo}: ${plural(removed.length, 'record')} removed from the history (shown above as read)`;
    } else if (body.records !== undefined) {
      // The history written again: these records, in this order, and no others.
      const listed = new Map<string, GeminiRecord | undefined>();
      for (const entry of body.records) if (entry.record !== undefined) listed.set(entry.record, records.get(entry.record));
      const removed = [...records.keys()].filter((id) => !listed.has(id)).length;
      records.clear();
      for (const [id, state] of listed) if (state) records.set(id, state);
      for (const entry of body.records) this.foldGeminiRecord(record, entry, sessionId, records);
      summary = `${summary ?? 'messages'}: the history written again (${plural(listed.size, 'record')}${removed > 0 ? `, ${removed} removed` : ''})`;
    } else if (body.name === '$set' && isJsonObject(body.raw.$set) && Object.keys(body.raw.$set).every((key) => key === 'lastUpdated')) {
      // A `$set` of `lastUpdated` alone follows nearly every record: counted, not a row of its own.
      return;
    }
    this.addItem({ type: 'event', loc, name: body.name, summary, raw: body.raw, sessionId });
  }

  /** One Gemini record, new or written again. */
  private foldGeminiRecord(record: IngestRecord, entry: NativeEntry, sessionId: string | null, records: Map<string, GeminiRecord>): void {
    const id = entry.record!;
    let state = records.get(id);
    if (!state) {
      state = { messages: new Map(), calls: new Set(), results: new Map(), written: 0 };
      // Re-inserted at the end: a record Gemini CLI writes after a rewind comes after what is left.
      records.set(id, state);
    }
    state.written++;
    const native = this.native;
    const scope = sessionId ?? '';
    const loc = record.loc;
    let shown = false;
    for (const update of entry.updates) {
      switch (update.type) {
        case 'exit':
          this.noteExitCode(scope, update.toolCallId, update.exitCode);
          break;
        case 'chunk': {
          const role = update.tag === 'user_message_chunk' ? 'user' : update.tag === 'agent_message_chunk' ? 'agent' : 'thought';
          const text = update.content.type === 'text' ? update.content.text : '';
          const at = state.messages.get(role);
          if (at === undefined) {
            this.appendChunk(sessionId, role, update.content, update.messageId, loc, record.ts);
            state.messages.set(role, this.session.items.length - 1);
            shown = true;
          } else if (this.replaceMessageText(at, text)) shown = true;
          break;
        }
        case 'call': {
          const { toolCallId, name } = update.update.fields;
          // The record written again lists its calls again: the same calls.
          if (state.calls.has(toolCallId)) break;
          state.calls.add(toolCallId);
          shown = true;
          if (labelOf({ tool: undefined, meta: {}, name, ledger: undefined, kind: undefined, id: toolCallId }) === 'Plan') {
            native.planCalls.add(JSON.stringify([scope, toolCallId]));
            this.addItem({ type: 'plan', loc, sessionId, entries: update.plan ?? [] });
            break;
          }
          // A call's own time, not its record's (a record gains calls long after it was started).
          this.applyToolUpdate(sessionId, update.update, update.ts === undefined ? record : { ...record, ts: update.ts }, 'tool_call');
          break;
        }
        case 'result': {
          const { toolCallId, status, content } = update.update.fields;
          if (native.planCalls.has(JSON.stringify([scope, toolCallId]))) break;
          const first = content?.[0];
          const said = `${status ?? ''}\n${first?.type === 'content' && first.content.type === 'text' ? first.content.text : ''}`;
          if (state.results.get(toolCallId) === said) break;
          state.results.set(toolCallId, said);
          shown = true;
          // No time: a tool call records one time only, which its `tool_call` took.
          this.applyToolUpdate(sessionId, update.update, { ...record, ts: undefined }, 'tool_call_update');
          break;
        }
        default: {
          const exhaustive: never = update;
          return exhaustive;
        }
      }
    }
    if (entry.usage) {
      this.foldNativeUsage(entry.usage, loc, sessionId);
      shown = true;
    }
    // A record that stands for nothing else (`info`, `error`, another type, a user record of tool
    // results) is shown by its type when first written.
    if (!shown && state.written === 1) this.addItem({ type: 'event', loc, name: entry.name, summary: entry.summary, raw: entry.raw, sessionId });
  }

  /** A message item's text replaced (a record written again said something else); false when it says the same. */
  private replaceMessageText(index: number, text: string): boolean {
    const item = this.session.items[index];
    if (item?.type !== 'message' || item.text === text) return false;
    if (item.blocks === this.ownedBlocks) this.ownedBlocks = null;
    this.session.items[index] = messageWithText(item, text, item.blocks);
    if (index < this.itemsTaken) {
      this.itemChangedFrom = Math.min(this.itemChangedFrom, index);
      // Replaced, not grown: a reader is sent the item again whole.
      if (this.messageTaken?.index === index) this.messageTaken = null;
    }
    return true;
  }

  private applyLedgerCalled(run: string | null, data: LedgerToolCalled, record: IngestRecord): void {
    // A legacy call without an id is keyed by its line (CONTRACTS §4).
    const call = data.id === undefined
      ? this.callFor(LEGACY_LEDGER_SCOPE, `line:${record.loc.line}`, run, record.loc)
      : this.callFor(LEDGER_SCOPE, data.id, run, record.loc);
    mergeLedgerCalled(call, data, this.mergeContext(record));
  }

  /**
   * One string per session id (or ledger run). Every record carries its own copy of it, and items
   * and calls keep it: the copies would add up to a few percent of the input.
   */
  private canonicalId(id: string): string;
  private canonicalId(id: string | null): string | null;
  private canonicalId(id: string | null): string | null {
    if (id === null) return null;
    if (id === this.lastId) return this.lastId;
    let canonical = this.canonicalIds.get(id);
    if (canonical === undefined) {
      canonical = id;
      this.canonicalIds.set(id, id);
    }
    this.lastId = canonical;
    return canonical;
  }

  private markChanged(key: string): void {
    if (this.takingChanges) this.changedCalls.add(key);
  }

  private noteSession(sessionId: string | null): void {
    if (sessionId === null || sessionId === this.lastSessionId) return;
    this.lastSessionId = sessionId;
    if (this.sessionIdSet.has(sessionId)) return;
    this.sessionIdSet.add(sessionId);
    this.session.sessionIds.push(sessionId);
  }

  private addItem(item: TranscriptItem): void {
    this.session.items.push(item);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * `{ ...last, text, blocks }` without the object spread (slow on an existing object): the same
 * keys in the same order for each of the three ways a message item is made (a chunk, a prompt,
 * a ledger `model_returned`).
 */
function messageWithText(last: MessageItem, text: string, blocks: ContentBlock[]): MessageItem {
  const { type, role, loc, sessionId } = last;
  if ('messageId' in last) return { type, role, loc, sessionId, messageId: last.messageId, blocks, text, ts: last.ts };
  if ('ts' in last) return { type, role, loc, sessionId, blocks, text, ts: last.ts };
  return { type, role, loc, sessionId, blocks, text };
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

function sameOptions(a: PermissionRequest['options'], b: PermissionRequest['options']): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    if (x.optionId !== y.optionId || x.name !== y.name || x.kind !== y.kind) return false;
  }
  return true;
}

const NO_BLOCKS: ContentBlock[] = Object.freeze([]) as unknown as ContentBlock[];

/** A request id as a key: a number as it is (no string made per request), a string marked apart from it (`1` is not `"1"`). */
const rpcKey = (id: RpcId): number | string => (typeof id === 'number' ? id : `s${id}`);

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text;
}

/**
 * The same characters in a string of their own. A line's text is a slice of its whole chunk's
 * text, and so are a slice of it and a JSON.parse error message quoting it: kept in the
 * diagnostics, either would keep that megabyte alive (with a bad line in every chunk, the whole
 * input). A string read back from its JSON is a fresh copy.
 */
function ownString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function summarizeOther(raw: unknown): string | undefined {
  if (!isJsonObject(raw)) return undefined;
  for (const key of ['title', 'event_name', 'name', 'goal', 'message', 'status']) {
    const value = raw[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * The child session an ACP sub-agent update announces and the call that spawned it, where it names
 * one (`toolCallId`, `parentToolCallId`, or `_meta.claudeCode.parentToolUseId`).
 */
function spawnedSession(raw: Record<string, unknown>): { sessionId: string; parentId: string } | undefined {
  const sessionId = raw.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '') return undefined;
  const meta = isJsonObject(raw._meta) && isJsonObject(raw._meta.claudeCode) ? raw._meta.claudeCode : undefined;
  for (const parentId of [raw.toolCallId, raw.parentToolCallId, raw.parentToolUseId, meta?.parentToolUseId]) {
    if (typeof parentId === 'string' && parentId !== '') return { sessionId, parentId };
  }
  return undefined;
}

/** What the builder keeps across native lines (CONTRACTS §10). */
class NativeState {
  /** The session the last Codex `session_meta` opened: lines without their own id belong to it. */
  session: string | null = null;
  /** The release a native line names was looked at (once per input). */
  releaseNoted = false;
  /** Claude entries read so far, by uuid. */
  readonly uuids = new Set<string>();
  /** Codex: the forked thread whose copy of its parent's history may be being read (its `session_meta`'s time). */
  fork: { at: number; copying: boolean } | undefined;
  /** Codex multi-agent v2: by parent thread and path, the thread's session and the call that spawned it, as read so far. */
  readonly agentPaths = new Map<string, { child?: string; parentId?: string }>();
  /** Calls that were plans (by scope and id), whose results update nothing. */
  readonly planCalls = new Set<string>();
  /** The usage item of each message (by scope and message id), replaced by a later entry of the message. */
  readonly usageItems = new Map<string, number>();
  /** Gemini CLI records by session (scope) and record id, in the order of the session's history. */
  private readonly geminiRecords = new Map<string, Map<string, GeminiRecord>>();

  /** Sessions kept as trees (Pi), by scope: each entry's parent, its calls, and the entry read last. */
  private readonly trees = new Map<string, { parents: Map<string, string | null>; calls: Map<string, ToolCall[]>; last: string | undefined }>();

  treeOf(scope: string): { parents: Map<string, string | null>; calls: Map<string, ToolCall[]>; last: string | undefined } {
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

/** What the builder showed of one Gemini CLI record, so the record written again replaces it. */
interface GeminiRecord {
  /** Its message items by role (`user`, `agent`, `thought`): their index in the transcript. */
  messages: Map<string, number>;
  /** Its tool calls' ids. */
  calls: Set<string>;
  /** Each call's result as last folded (status and text): the same result written again is not folded again. */
  results: Map<string, string>;
  /** How many times the record was written. */
  written: number;
}

function formatOf(shapes: ReadonlySet<Shape>): InputFormat {
  if (shapes.size === 0) return 'unknown';
  if (shapes.size > 1) return 'mixed';
  return [...shapes][0]!;
}
