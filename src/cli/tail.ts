// Sends a file to a response from its first byte and, when following, every byte appended later
// (like `tail -f -c +1`), until the writer is done, the file is truncated or replaced, or the
// reader goes away.
import { constants, watch, type FSWatcher, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';

export interface TailOptions {
  /** Keep sending bytes appended after the end was reached. */
  follow: boolean;
  /** True once nothing more will be written (tee exited, stdin ended): send what is left and stop. */
  writerDone?: () => boolean | Promise<boolean>;
  /** How often to look for growth when the file watcher says nothing (some file systems never do). */
  pollMs: number;
  /** Aborted when the client disconnects or the server closes. */
  signal: AbortSignal;
  /** Send no more than this many bytes (the length already promised in Content-Length). */
  endAt?: number;
  /**
   * The file checked before (by lstat): opened without following a link, and sent only if what was
   * opened is that very file. Otherwise nothing is sent ('replaced').
   */
  expect?: { dev: number; ino: number };
}

export type TailEnd = 'complete' | 'writer-done' | 'truncated' | 'replaced' | 'aborted';

// Large enough to send a big file in few writes, small enough that a slow reader holds little.
export const MAX_READ = 256 * 1024;

/**
 * Opens a file to follow: never waiting on open (a FIFO put in the file's place), never through a
 * link when `expect` names the file. Null (closed again) unless what was opened is a regular file
 * and, with `expect`, that very file. Throws when it cannot be opened.
 */
export async function openFollowed(path: string, expect: TailOptions['expect']): Promise<{ handle: FileHandle; identity: Stats } | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (expect ? constants.O_NOFOLLOW : 0));
  try {
    const identity = await handle.stat();
    if (identity.isFile() && (!expect || (identity.dev === expect.dev && identity.ino === expect.ino))) return { handle, identity };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return null;
}

/** Whether the file at `path` is gone, or is now another file than `identity` (renamed over, re-created). */
export async function isReplaced(path: string, identity: { dev: number; ino: number }): Promise<boolean> {
  const current = await stat(path).catch(() => null);
  return !current || current.ino !== identity.ino || current.dev !== identity.dev;
}

export async function tailFile(path: string, out: Writable, options: TailOptions): Promise<TailEnd> {
  const { signal } = options;
  const opened = await openFollowed(path, options.expect);
  if (!opened) return 'replaced';
  const { handle, identity } = opened;
  let waiter: ChangeWaiter | null = null;
  let position = 0;
  try {
    for (;;) {
      if (signal.aborted) return 'aborted';
      // Asked before reading: a writer that is done has written everything, so this read is the last.
      const writerDone = (await options.writerDone?.()) ?? false;
      const { size: fileSize } = await handle.stat();
      if (fileSize < position) return 'truncated';
      const size = Math.min(fileSize, options.endAt ?? Infinity);
      while (position < size) {
        // A fresh buffer per read: the response may still hold the previous one.
        const buffer = Buffer.allocUnsafe(Math.min(MAX_READ, size - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        if (!out.write(buffer.subarray(0, bytesRead))) await drained(out);
        if (signal.aborted) return 'aborted';
      }
      if (!options.follow) return 'complete';
      if (writerDone) return 'writer-done';
      if (await isReplaced(path, identity)) return 'replaced';
      waiter ??= new ChangeWaiter(path, options.pollMs, signal);
      await waiter.next();
    }
  } finally {
    waiter?.close();
    await handle.close();
  }
}

export function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/** Resolves `next()` on a change to the file, or after `pollMs` at the latest, or on abort. */
export class ChangeWaiter {
  private watcher: FSWatcher | null = null;
  private changed = false;
  private wake: (() => void) | null = null;
  private readonly onAbort = () => this.fire();

  constructor(
    path: string,
    private readonly pollMs: number,
    private readonly signal: AbortSignal,
  ) {
    try {
      this.watcher = watch(path, { persistent: false }, () => this.fire());
      // A watcher that fails (file removed, too many watches) leaves the poll to do the work.
      this.watcher.on('error', () => this.closeWatcher());
    } catch {
      this.watcher = null;
    }
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  next(): Promise<void> {
    if (this.changed || this.signal.aborted) {
      this.changed = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, this.pollMs);
      this.wake = () => {
        clearTimeout(timer);
        this.changed = false;
        resolve();
      };
    });
  }

  close(): void {
    this.closeWatcher();
    this.signal.removeEventListener('abort', this.onAbort);
    this.fire();
  }

  private fire(): void {
    this.changed = true;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private closeWatcher(): void {
    this.watcher?.close();
    this.watcher = null;
  }
}
