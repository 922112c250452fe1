// The sessions on this machine: `loupe tee`'s captures, Claude Code's projects and Codex's rollouts
// (CONTRACTS §10), found where each keeps them and described from their first lines. Used by
// `loupe ls`; each file's format is decided by the same classifier the viewer reads with.
import { open, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { emptyHead, HEAD_LINES, HEAD_MAX_BYTES, headComplete, noteHeadLine, projectOf, timeInCaptureName, type SessionHead } from '../analysis/sessionHead';
import { capturesDir, isCaptureLive } from './captures';
import { SUBAGENT_FILE } from './subagentFiles';

export interface FoundSession {
  path: string;
  /** The family: `claude-code`, `codex`, `acp-capture`, another shape Loupe reads (`acp-jsonrpc`, `ledger`, …), or `unknown`. */
  format: string;
  sessionId: string | null;
  /** The directory the agent worked in, where the file says; else a Claude project folder's name. */
  project: string | null;
  /** ISO 8601: the earliest time the file's first lines give, else the time in a capture's name. */
  startedAt: string | null;
  /** ISO 8601: the file's modification time. */
  lastWriteAt: string;
  size: number;
  /** Written in the last minute (a tee capture: while its tee runs). */
  live: boolean;
  /** Claude Code sub-agents' files of this session (`<session>/subagents/*.jsonl`). */
  subagents: string[];
}

export interface Roots {
  captures: string;
  claude: string;
  codex: string;
}

/** Where each harness keeps its sessions, honouring the variables they honour. */
export function defaultRoots(env: NodeJS.ProcessEnv = process.env): Roots {
  const home = env.HOME && env.HOME.startsWith('/') ? env.HOME : homedir();
  return {
    // capturesDir reads the process's own home; the HOME given here decides (a scratch HOME in tests).
    captures: capturesDir({ ...env, XDG_STATE_HOME: env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(home, '.local', 'state') }),
    claude: join(env.CLAUDE_CONFIG_DIR?.startsWith('/') ? env.CLAUDE_CONFIG_DIR : join(home, '.claude'), 'projects'),
    codex: join(env.CODEX_HOME?.startsWith('/') ? env.CODEX_HOME : join(home, '.codex'), 'sessions'),
  };
}

const LIVE_MS = 60_000;
/** Claude projects are two levels deep, Codex's rollouts four (YYYY/MM/DD), sub-agents one more. */
const MAX_DEPTH = 5;
const SESSION_FILE = /\.(jsonl|json|log)$/;

/** Every session under `dirs` (files or folders), newest write first. */
export async function findSessions(dirs: readonly string[], now = Date.now()): Promise<FoundSession[]> {
  const files = await sessionFilesUnder(dirs);
  // A sub-agent's file belongs to its session's: `<project>/<session>/subagents/agent-<id>.jsonl`.
  const subagentsOf = new Map<string, string[]>();
  for (const file of files) {
    const parent = subagentParentOf(file, files);
    if (parent === null) continue;
    files.delete(file);
    // Only `agent-<id>.jsonl` is a sub-agent's entries; its `agent-<id>.meta.json` goes with it.
    if (SUBAGENT_FILE.test(basename(file))) subagentsOf.set(parent, [...(subagentsOf.get(parent) ?? []), file].sort());
  }
  const found: FoundSession[] = [];
  for (const file of files) {
    const session = await describe(file, now, subagentsOf.get(file) ?? []);
    if (session) found.push(session);
  }
  return found.sort((a, b) => b.lastWriteAt.localeCompare(a.lastWriteAt) || a.path.localeCompare(b.path));
}

/** The session file a file in its `<session>/subagents/` folder belongs to, when that is among `files`; else null. */
function subagentParentOf(file: string, files: ReadonlySet<string>): string | null {
  if (basename(dirname(file)) !== 'subagents') return null;
  const parent = `${dirname(dirname(file))}.jsonl`;
  return files.has(parent) ? parent : null;
}

/** Every file under `dirs` (files or folders) named like a session file, sub-agents' files included. */
export async function sessionFilesUnder(dirs: readonly string[]): Promise<Set<string>> {
  const files = new Set<string>();
  for (const dir of dirs) for (const file of await walk(dir, 0)) files.add(file);
  return files;
}

async function walk(path: string, depth: number): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return [];
  }
  if (info.isFile()) return [path];
  if (!info.isDirectory() || depth > MAX_DEPTH) return [];
  let names: string[];
  try {
    names = await readdir(path);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    const child = join(path, name);
    if (SESSION_FILE.test(name)) {
      const childInfo = await stat(child).catch(() => null);
      if (childInfo?.isFile()) out.push(child);
      else if (childInfo?.isDirectory()) out.push(...(await walk(child, depth + 1)));
    } else if (!name.startsWith('.')) {
      out.push(...(await walk(child, depth + 1)));
    }
  }
  return out.filter((file) => SESSION_FILE.test(file));
}

/** What a session file's first lines and its stat say; null when it cannot be stat'ed. */
export async function describe(path: string, now: number, subagents: string[]): Promise<FoundSession | null> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return null;
  }
  const head = await readHead(path);
  const lastWriteMs = info.mtimeMs;
  const startedAt = head.startMs ?? timeInCaptureName(basename(path)) ?? null;
  const project = projectOf(head, basename(dirname(path)));
  const live = head.format === 'acp-capture' ? (await isCaptureLive(path)) || now - lastWriteMs < LIVE_MS : now - lastWriteMs < LIVE_MS;
  return {
    path,
    format: head.format,
    sessionId: head.sessionId,
    project,
    startedAt: startedAt === null ? null : new Date(startedAt).toISOString(),
    lastWriteAt: new Date(lastWriteMs).toISOString(),
    size: info.size,
    live,
    subagents,
  };
}

const HEAD_CHUNK = 64 * 1024;

/** What the first lines say: the format (the first line of a known shape), session id, working directory, start time. */
async function readHead(path: string): Promise<SessionHead> {
  const head = emptyHead();
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return head;
  }
  try {
    let pending = Buffer.alloc(0);
    let offset = 0;
    let lines = 0;
    while (offset < HEAD_MAX_BYTES && lines < HEAD_LINES) {
      const chunk = Buffer.alloc(HEAD_CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, HEAD_CHUNK, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      pending = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let newline;
      while ((newline = pending.indexOf(10)) >= 0 && lines < HEAD_LINES) {
        const line = pending.subarray(0, newline).toString('utf8');
        pending = pending.subarray(newline + 1);
        lines++;
        noteHeadLine(head, line, lines);
        if (headComplete(head)) return head;
      }
    }
    // A last line without a newline (a session still being written).
    if (pending.length > 0 && pending.length < HEAD_MAX_BYTES && lines < HEAD_LINES) noteHeadLine(head, pending.toString('utf8'), lines + 1);
    return head;
  } finally {
    await handle.close();
  }
}
