// Where `loupe tee` writes its recordings and how a reader tells a running one from a finished one.
// Shared by `tee` (the writer) and `open` (the reader that lists and follows them).
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** One folder per user, never the project directory an editor starts the agent in. */
export function capturesDir(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'loupe', 'captures');
}

/** `2026-11-30T20-15-03-123Z_my-agent_4242.jsonl`: sorts by time, says which agent, unique per process (read by ingest/captureName.ts). */
export function captureName(agent: string, startedMs: number, pid: number): string {
  const when = new Date(startedMs).toISOString().replace(/[:.]/g, '-');
  const name = basename(agent).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '').slice(0, 40) || 'agent';
  return `${when}_${name}_${pid}.jsonl`;
}

/**
 * While tee runs, `<capture>.live` holds `{"pid": N}`; tee removes it when it exits. A crashed tee
 * leaves it behind, so a capture is live only while that process still exists.
 */
export const LIVE_SUFFIX = '.live';

export interface LiveMarker {
  pid: number;
  agent: string;
  startedMs: number;
}

/** tee writes a few dozen bytes; anything much larger is not a marker. */
const MARKER_MAX_BYTES = 4096;

/**
 * The marker beside a capture, or null when there is none that tee could have written: only a
 * small regular file is read (never a FIFO, a device or a link, which could block or never end),
 * and never in a way that waits: a reader of it is a server that must keep answering.
 */
export async function readLiveMarker(capturePath: string): Promise<Partial<LiveMarker> | null> {
  const marker = capturePath + LIVE_SUFFIX;
  const info = await lstat(marker).catch(() => null);
  if (!info?.isFile() || info.size > MARKER_MAX_BYTES) return null;
  let handle;
  try {
    handle = await open(marker, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    // The same checks on what was opened: the name may have been swapped since.
    const opened = await handle.stat();
    if (!opened.isFile() || opened.size > MARKER_MAX_BYTES) return null;
    const buffer = Buffer.alloc(MARKER_MAX_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MARKER_MAX_BYTES, 0);
    const value: unknown = JSON.parse(buffer.subarray(0, bytesRead).toString('utf8'));
    return value !== null && typeof value === 'object' ? (value) : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

export async function isCaptureLive(capturePath: string): Promise<boolean> {
  const marker = await readLiveMarker(capturePath);
  if (typeof marker?.pid !== 'number' || !Number.isSafeInteger(marker.pid) || marker.pid <= 0) return false;
  try {
    process.kill(marker.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else; it is still running.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
