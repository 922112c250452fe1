// The transcript's items as the fold writes them: appended, a message grown chunk by chunk, an item
// replaced. Writes in place what nobody was handed yet, and tells the change tracker what it
// replaced of what was handed out.
import type { ContentBlock, SourceLocation } from '../../ingest/acpTypes';
import type { Session } from '../session';
import type { TranscriptItem } from '../types';
import type { ChangeTracker } from './changes';

export type MessageItem = Extract<TranscriptItem, { type: 'message' }>;

/** The blocks of every text-only message: one shared list, never written (a block added later copies it). */
const NO_BLOCKS: readonly ContentBlock[] = Object.freeze([]);

export class Transcript {
  /**
   * The last message's blocks, when this transcript made that array and nobody has taken it since:
   * the next non-text chunk is pushed onto it (copying the list for every chunk made 50,000 image
   * chunks quadratic). A take hands it out (`handedOut`), so the next chunk copies it once.
   */
  private ownedBlocks: ContentBlock[] | null = null;
  /** Each session's last user message (by session id), until its turn ends: a `session/prompt` repeating it is not shown twice. */
  private readonly lastUserItem = new Map<string | null, number>();

  constructor(
    private readonly session: Session,
    private readonly changes: ChangeTracker,
    /** BuilderOptions.keepEvents: when false, an event item is not kept. */
    private readonly keepEvents = true,
    /**
     * False in a read for rows alone (FoldState's `keep`): an agent's message or thought is kept with
     * no text (its time and place are what rows read). A user's keeps it: a prompt repeating it is
     * told apart by its text (`addPrompt`).
     */
    private readonly keepText = true,
  ) {}

  /** An event was left out since the last item kept: a chunk after it starts a message, as it would after the event's item. */
  private eventLeftOut = false;

  add(item: TranscriptItem): void {
    if (item.type === 'event' && !this.keepEvents) return this.eventNotKept();
    this.eventLeftOut = false;
    const items = this.session.items;
    const last = items[items.length - 1];
    // The message before is whole: its text, grown a chunk at a time, is read once so V8 makes it one
    // flat string, and the chunks and the chain of joins between them can go.
    if (last?.type === 'message' && last.text !== '') last.text.charCodeAt(0);
    items.push(item);
  }

  /** An event read and not kept (BuilderOptions.keepEvents): it still ends the message before it. */
  eventNotKept(): void {
    this.eventLeftOut = true;
  }

  /** The items were handed out: the last message's blocks are no longer this transcript's to push onto. */
  handedOut(): void {
    this.ownedBlocks = null;
  }

  /**
   * A chunk of a message: appended to the last item when it is the same message, else a new message.
   * `textRead`: the fold compares the message's text later (replaceMessageText), so it is kept whatever `keepText` says.
   */
  appendChunk(
    sessionId: string | null, role: MessageItem['role'], block: ContentBlock, messageId: string | undefined,
    loc: SourceLocation, ts: number | undefined, textRead = false,
  ): void {
    const items = this.session.items;
    const last = items[items.length - 1];
    const text = block.type === 'text' && (this.keepText || role === 'user' || textRead) ? block.text : '';
    if (last?.type === 'message' && !this.eventLeftOut && last.role === role && last.sessionId === sessionId && last.messageId === messageId) {
      let blocks = last.blocks;
      if (block.type !== 'text') {
        const owned = blocks === this.ownedBlocks ? this.ownedBlocks : (this.ownedBlocks = blocks.slice());
        owned.push(block);
        blocks = owned;
      }
      const index = items.length - 1;
      if (index >= this.changes.itemsTaken) {
        // Nobody was handed this item yet (a reader that never takes, the CLI, is handed none):
        // written in place, not copied for each of a message's chunks.
        last.text += text;
        last.blocks = blocks;
        return;
      }
      // A new object, so a reader holding the old one sees the change.
      items[index] = messageWithText(last, last.text + text, blocks);
      this.changes.itemReplaced(index);
      return;
    }
    if (role === 'user') this.lastUserItem.set(sessionId, items.length);
    // Most messages are text only: they share one empty list (a block added later copies it, see `ownedBlocks`).
    this.add({ type: 'message', role, loc, sessionId, messageId, blocks: block.type === 'text' ? NO_BLOCKS : [block], text, ts });
  }

  /** A `session/prompt` is the user's turn, unless the same text already arrived as a user message chunk. */
  addPrompt(sessionId: string | null, prompt: readonly ContentBlock[], loc: SourceLocation, ts: number | undefined): void {
    const text = prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const lastIndex = this.lastUserItem.get(sessionId);
    const last = lastIndex === undefined ? undefined : this.session.items[lastIndex];
    if (last?.type === 'message' && last.text.trim() === text.trim()) return;
    this.lastUserItem.set(sessionId, this.session.items.length);
    this.add({ type: 'message', role: 'user', loc, sessionId, blocks: prompt.filter((block) => block.type !== 'text'), text, ts });
  }

  /** A session's turn ended: its next prompt is a new turn, whatever its text. */
  turnEnded(sessionId: string | null): void {
    this.lastUserItem.delete(sessionId);
  }

  /** A message item's text replaced (a record written again said something else); false when it says the same. */
  replaceMessageText(index: number, text: string): boolean {
    const item = this.session.items[index];
    if (item?.type !== 'message' || item.text === text) return false;
    if (item.blocks === this.ownedBlocks) this.ownedBlocks = null;
    this.session.items[index] = messageWithText(item, text, item.blocks);
    // Replaced, not grown: a reader is sent the item again whole.
    if (index < this.changes.itemsTaken) this.changes.messageRewritten(index);
    return true;
  }

  /** The item at `index` replaced by `item` (a native message's usage read again from a later entry). */
  replace(index: number, item: TranscriptItem): void {
    this.session.items[index] = item;
    this.changes.itemReplaced(index);
  }
}

/**
 * `{ ...last, text, blocks }` without the object spread (slow on an existing object): the same
 * keys in the same order for each of the three ways a message item is made (a chunk, a prompt,
 * a ledger `model_returned`).
 */
function messageWithText(last: MessageItem, text: string, blocks: readonly ContentBlock[]): MessageItem {
  const { type, role, loc, sessionId } = last;
  if ('messageId' in last) return { type, role, loc, sessionId, messageId: last.messageId, blocks, text, ts: last.ts };
  if ('ts' in last) return { type, role, loc, sessionId, blocks, text, ts: last.ts };
  return { type, role, loc, sessionId, blocks, text };
}
