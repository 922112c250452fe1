// What changed since the last take: which calls and terminals, how much of each call's history and
// of the transcript was handed out. The fold marks; a take (`SessionBuilder.takeChanges`, and the
// delta made from it) hands out the rest and starts again. Nothing here reads records.
import type { ContentBlock } from '../../ingest/acpTypes';
import { withHistory } from '../merge';
import type { Session } from '../session';
import { callRow, type CallSummary, type TerminalState, type ToolCall, type TranscriptItem } from '../types';

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

/** How a take hands out calls: whole (with the history not taken before), or as rows (`callRow`). */
export type TakenAs = 'calls' | 'rows';

export class ChangeTracker {
  /**
   * Calls changed since the last take. Kept only once something takes changes: before the first
   * take every call counts as changed, so a reader that never takes (the CLI, `ingest()`) pays
   * nothing for it.
   */
  private readonly changedCalls = new Set<string>();
  private taking = false;
  /** How much of each call's history was taken: a take hands out the rest. */
  private readonly historyTaken = new Map<string, number>();
  /** Terminals written since the last take of them (few: kept whatever the reader). */
  private readonly changedTerminals = new Set<string>();
  /** Items handed out: one at or past this index has never been (so can be written in place). */
  itemsTaken = 0;
  /** The first item replaced since the last take (a message grown, a native message's usage read again). */
  private itemChangedFrom = Infinity;
  /** The last item taken, when it is a message: how much of it was handed out. */
  private messageTaken: { index: number; text: number; blocks: number } | null = null;

  callChanged(key: string): void {
    if (this.taking) this.changedCalls.add(key);
  }

  terminalChanged(terminalId: string): void {
    this.changedTerminals.add(terminalId);
  }

  /** An item handed out before was replaced by a new object: a take hands it out again. */
  itemReplaced(index: number): void {
    if (index < this.itemChangedFrom) this.itemChangedFrom = index;
  }

  /** A message handed out before was given other text (not grown): it is sent again whole, not as grown. */
  messageRewritten(index: number): void {
    this.itemReplaced(index);
    if (this.messageTaken?.index === index) this.messageTaken = null;
  }

  take(session: Session, as: 'calls'): SessionChanges;
  take(session: Session, as: 'rows'): SessionChanges<CallSummary>;
  take(session: Session, as: TakenAs): SessionChanges | SessionChanges<CallSummary>;
  take(session: Session, as: TakenAs): SessionChanges | SessionChanges<CallSummary> {
    const items = session.items;
    let itemsFrom = Math.min(this.itemsTaken, this.itemChangedFrom);
    // Only the last message grows, and only by appending (`Transcript.appendChunk`): what was taken of it is its start.
    let grown: GrownMessage | undefined;
    const taken = this.messageTaken;
    const now = taken && itemsFrom === taken.index ? items[taken.index] : undefined;
    if (taken && now?.type === 'message') {
      grown = { index: taken.index, textFrom: taken.text, text: now.text.slice(taken.text), blocksFrom: taken.blocks, blocks: now.blocks.slice(taken.blocks) };
      itemsFrom++;
    }
    const last = items[items.length - 1];
    this.messageTaken = last?.type === 'message' ? { index: items.length - 1, text: last.text.length, blocks: last.blocks.length } : null;
    const changed = this.taking ? [...this.changedCalls].map((key) => session.calls.get(key)!) : [...session.calls.values()];
    const changes: SessionChanges | SessionChanges<CallSummary> = {
      ...(grown ? { grown } : {}),
      itemsFrom,
      items: items.slice(itemsFrom),
      // A row is a new object already: the call is not copied first, and no history is handed out.
      calls: as === 'rows' ? changed.map((call) => ({ call: callRow(call), historyFrom: 0 })) : changed.map((call) => this.change(call)),
    };
    this.changedCalls.clear();
    this.taking = true;
    this.itemsTaken = items.length;
    this.itemChangedFrom = Infinity;
    return changes;
  }

  /** The terminals written since the last take, each as it is now. */
  takeTerminals(terminals: ReadonlyMap<string, TerminalState>): TerminalState[] {
    const changed: TerminalState[] = [];
    for (const terminalId of this.changedTerminals) {
      const terminal = terminals.get(terminalId);
      if (terminal) changed.push(terminal);
    }
    this.changedTerminals.clear();
    return changed;
  }

  /** What a take hands out of a call: a copy, with the history entries not taken before (see `CallChange`). */
  private change(call: ToolCall): CallChange {
    const historyFrom = this.historyTaken.get(call.key) ?? 0;
    this.historyTaken.set(call.key, call.history.length);
    return { call: withHistory(call, call.history.slice(historyFrom)), historyFrom };
  }
}
