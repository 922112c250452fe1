// Following a session kept as one pretty-printed JSON document (Cline's `<id>.messages.json`, an
// older Gemini CLI's `session-*.json`, ingest/jsonDocument.ts): its writer rewrites the whole file
// each turn (in place or by renaming a new file over it), so the bytes after the old end are not
// what was added. The document is sent as it is; each time it is rewritten and parses whole, the
// messages added since are sent as one more document (its head keys, the new messages), which the
// reader takes as a document after a document: the page keeps what it showed and adds the rest.
// A rewrite that changes a message already sent (a history compacted) cannot be said by adding:
// the follow ends ('replaced'), and a reload reads the document as it then is.
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { documentKindOf } from '../ingest/jsonDocument';
import { ChangeWaiter, drained, openFollowed, type TailEnd, type TailOptions } from './tail';

/** The array whose elements are the records, in both harnesses' documents. */
const ARRAY_KEY = 'messages';

/** Bytes enough to see the document's first two lines. */
const SNIFF_BYTES = 4096;

interface Sent {
  /** Each message sent, as JSON text (compared to tell a message changed). */
  messages: string[];
  /** What the file was when last read: a rewrite changes one of them. */
  size: number;
  mtimeMs: number;
  ino: number;
}

type Read = { text: string; size: number; mtimeMs: number; ino: number };

/**
 * Whether `path` is a whole-document session this follower reads (its first two non-blank lines
 * open Cline's or Gemini's document); else the byte tail follows it.
 */
export async function isWholeDocument(path: string): Promise<boolean> {
  const opened = await openFollowed(path, undefined).catch(() => null);
  if (!opened) return false;
  const { handle } = opened;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    const [first, second] = buffer.subarray(0, bytesRead).toString('utf8').split('\n').filter((line) => line.trim() !== '');
    return first !== undefined && second !== undefined && documentKindOf(first, second) !== null;
  } finally {
    await handle.close();
  }
}

/** Sends the document, then what each rewrite adds, until the reader goes, the writer is done, or a rewrite changes what was sent. */
export async function followDocument(path: string, out: Writable, options: Omit<TailOptions, 'endAt'>): Promise<TailEnd> {
  let waiter = new ChangeWaiter(path, options.pollMs, options.signal);
  try {
    let first = await readWhole(path, options.expect);
    let parsed = first && messagesOf(first.text);
    // Caught between its writer's truncating and writing: a change or two later it is whole.
    for (let tries = 0; first !== null && parsed === null && tries < 3 && !options.signal.aborted; tries++) {
      await waiter.next();
      first = await readWhole(path, options.expect);
      parsed = first && messagesOf(first.text);
    }
    if (first === null) return 'replaced';
    if (!(await write(out, first.text))) return 'aborted';
    // Never whole: what follows could not be told from what was sent.
    if (parsed === null) return 'truncated';
    let sent: Sent = { messages: parsed.messages.map((m) => JSON.stringify(m)), size: first.size, mtimeMs: first.mtimeMs, ino: first.ino };
    for (;;) {
      if (options.signal.aborted) return 'aborted';
      const writerDone = (await options.writerDone?.()) ?? false;
      const now = await stat(path).catch(() => null);
      if (now === null) return 'replaced';
      if (now.size !== sent.size || now.mtimeMs !== sent.mtimeMs || now.ino !== sent.ino) {
        // Watched by its inode: a file renamed over it is watched afresh.
        if (now.ino !== sent.ino) {
          waiter.close();
          waiter = new ChangeWaiter(path, options.pollMs, options.signal);
        }
        const read = await readWhole(path, options.expect && { dev: now.dev, ino: now.ino });
        const next = read === null ? null : messagesOf(read.text);
        // Not whole yet (its writer is between truncating and writing): the next change finishes it.
        if (read !== null && next !== null) {
          const known = next.messages.slice(0, sent.messages.length).map((m) => JSON.stringify(m));
          if (known.length < sent.messages.length || known.some((text, index) => text !== sent.messages[index])) return 'replaced';
          const added = next.messages.slice(sent.messages.length);
          if (added.length > 0 && !(await write(out, `\n${JSON.stringify(continuation(next.document, added), null, 2)}\n`))) return 'aborted';
          sent = { messages: [...sent.messages, ...added.map((m) => JSON.stringify(m))], size: read.size, mtimeMs: read.mtimeMs, ino: read.ino };
        }
      }
      if (writerDone) return 'writer-done';
      await waiter.next();
    }
  } finally {
    waiter.close();
  }
}

/** The document's head keys (those before its messages) with only the messages given: read as the same session's next records. */
function continuation(document: Record<string, unknown>, messages: unknown[]): Record<string, unknown> {
  const head: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === ARRAY_KEY) break;
    head[key] = value;
  }
  head[ARRAY_KEY] = messages;
  return head;
}

function messagesOf(text: string): { document: Record<string, unknown>; messages: unknown[] } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const document = value as Record<string, unknown>;
  const messages = document[ARRAY_KEY];
  return Array.isArray(messages) ? { document, messages } : null;
}

/** The file whole, opened as the byte tail opens it (never through a link when `expect` names the file, never a FIFO); null when it is not that file. */
async function readWhole(path: string, expect: TailOptions['expect']): Promise<Read | null> {
  const opened = await openFollowed(path, expect).catch(() => null);
  if (!opened) return null;
  const { handle, identity } = opened;
  try {
    const text = (await handle.readFile()).toString('utf8');
    return { text, size: identity.size, mtimeMs: identity.mtimeMs, ino: identity.ino };
  } finally {
    await handle.close();
  }
}

/** False when the reader went away. */
async function write(out: Writable, text: string): Promise<boolean> {
  if (out.destroyed) return false;
  if (!out.write(text)) await drained(out);
  return !out.destroyed;
}
