// Where `loupe tee` writes its recordings and how a reader tells a running one from a finished one.
// Shared by `tee` (the writer) and `open` (the reader that lists and follows them).
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** One folder per user, never the project directory an editor starts the agent in. */
export function capturesDir(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'loupe', 'captures');
}

/** `2026-11-30T20-15-03-123Z_my-agent_4242.jsonl`: sorts by time, says which agent, unique per process. */
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

export function isCaptureLive(capturePath: string): boolean {
  const marker = capturePath + LIVE_SUFFIX;
  if (!existsSync(marker)) return false;
  try {
    const { pid } = JSON.parse(readFileSync(marker, 'utf8')) as Partial<LiveMarker>;
    if (typeof pid !== 'number') return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else; it is still running.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
