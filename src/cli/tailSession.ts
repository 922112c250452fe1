// Sends a session file and its sub-agents' files (Claude Code's `<session>/subagents/agent-*.jsonl`,
// CONTRACTS §10, §11) as one input, like tailFile sends one file: whole, or followed as they grow,
// a sub-agent's file that appears later included. Lines from different files never run together:
// while the session file is the only one its bytes go out as they are written; once a sub-agent's
// file is there, every file's lines go out whole, in the order they are read. The model reads the
// sub-agent's entries in any order (their session and parent are in the entries themselves).
import { constants } from 'node:fs';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { ChangeWaiter, drained, isReplaced, MAX_READ, openFollowed, type TailEnd, type TailOptions } from './tail';

const NEWLINE = 0x0a;

interface Source {
  handle: FileHandle;
  position: number;
  /** Bytes read after the source's last newline, not sent yet. */
  held: Buffer[];
}

export interface SubagentLayout {
  folder: string;
  isSubagentFile: (name: string) => boolean;
}

/**
 * `layout`: where the session's sub-agents' files appear (followed, those that appear later too);
 * `beside`: other files of its sub-agents, sent after them when not followed (Codex's rollouts of
 * the threads a session spawned).
 */
export async function tailSession(path: string, layout: SubagentLayout | null, out: Writable, options: Omit<TailOptions, 'endAt'>, beside: readonly string[] = []): Promise<TailEnd> {
  const { signal } = options;
  const opened = await openFollowed(path, options.expect);
  if (!opened) return 'replaced';
  const { handle: main, identity } = opened;
  const subagents = new Map<string, Source>();
  const session: Source = { handle: main, position: 0, held: [] };
  let waiter: ChangeWaiter | null = null;
  /** The last byte sent ended a line (or nothing was sent): another file's lines may follow. */
  let atLineStart = true;

  const send = async (bytes: Buffer): Promise<void> => {
    if (bytes.byteLength === 0) return;
    atLineStart = bytes[bytes.byteLength - 1] === NEWLINE;
    if (!out.write(bytes)) await drained(out);
  };
  /** Reads what the source gained; sends it whole when `partial` (the session file alone), else up to its last newline. */
  const pump = async (source: Source, size: number, partial: boolean): Promise<void> => {
    while (source.position < size) {
      const buffer = Buffer.allocUnsafe(Math.min(MAX_READ, size - source.position));
      const { bytesRead } = await source.handle.read(buffer, 0, buffer.byteLength, source.position);
      if (bytesRead === 0) break;
      source.position += bytesRead;
      const read = buffer.subarray(0, bytesRead);
      if (partial) {
        await send(Buffer.concat([...source.held.splice(0), read]));
        continue;
      }
      const end = read.lastIndexOf(NEWLINE);
      if (end < 0) {
        source.held.push(read);
        continue;
      }
      await send(Buffer.concat([...source.held.splice(0), read.subarray(0, end + 1)]));
      if (end + 1 < read.byteLength) source.held.push(Buffer.from(read.subarray(end + 1)));
      if (signal.aborted) return;
    }
  };
  /** Every file's last line, ended: each part of the input ends in a newline, as joinSubagents writes it. */
  const flush = async (): Promise<void> => {
    for (const source of [session, ...subagents.values()]) {
      if (!atLineStart) await send(Buffer.from('\n'));
      await send(Buffer.concat(source.held.splice(0)));
    }
    if (!atLineStart) await send(Buffer.from('\n'));
  };

  try {
    for (;;) {
      if (signal.aborted) return 'aborted';
      // Asked before reading: a writer that is done has written everything, so this read is the last.
      const writerDone = (await options.writerDone?.()) ?? false;
      if (layout) await openNewSubagents(layout, subagents);
      if (!options.follow) {
        for (const file of beside) await openSubagent(file, file, subagents);
        // Not followed: each file whole, one after another, as joinSubagents writes them.
        for (const source of [session, ...subagents.values()]) {
          if (!atLineStart) await send(Buffer.from('\n'));
          await pump(source, (await source.handle.stat()).size, true);
          if (signal.aborted) return 'aborted';
        }
        if (!atLineStart) await send(Buffer.from('\n'));
        return 'complete';
      }
      const { size } = await main.stat();
      if (size < session.position) return 'truncated';
      await pump(session, size, subagents.size === 0);
      // Another file's lines wait until the session file's line in progress is sent whole.
      if (atLineStart) {
        for (const [name, source] of subagents) {
          const info = await source.handle.stat();
          // A sub-agent's file cut short or replaced is read no further; what it gave stays sent.
          if (info.size < source.position) {
            subagents.delete(name);
            await source.handle.close();
            continue;
          }
          await pump(source, info.size, false);
          if (signal.aborted) return 'aborted';
        }
      }
      if (signal.aborted) return 'aborted';
      if (writerDone) {
        await flush();
        return 'writer-done';
      }
      if (await isReplaced(path, identity)) return 'replaced';
      waiter ??= new ChangeWaiter(path, options.pollMs, signal);
      await waiter.next();
    }
  } finally {
    waiter?.close();
    await Promise.all([main.close(), ...[...subagents.values()].map((source) => source.handle.close())]);
  }
}

/** Opens the sub-agent files that appeared since the last look, in name order; a name that cannot be opened is tried again next time. */
async function openNewSubagents(layout: SubagentLayout, subagents: Map<string, Source>): Promise<void> {
  const names = await readdir(layout.folder).catch(() => [] as string[]);
  for (const name of names.sort()) {
    if (subagents.has(name) || !layout.isSubagentFile(name)) continue;
    await openSubagent(name, join(layout.folder, name), subagents);
  }
}

/** Opens a sub-agent's file (never through a link, only a regular file) as `key`; one that cannot be opened is left for the next look. */
async function openSubagent(key: string, path: string, subagents: Map<string, Source>): Promise<void> {
  if (subagents.has(key)) return;
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(() => null);
  if (handle === null) return;
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    return;
  }
  subagents.set(key, { handle, position: 0, held: [] });
}
