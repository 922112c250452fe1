// The sessions on this machine, found where each harness keeps them (ingest/harnesses) or under
// folders a person names, and described from their first lines. Used by `loupe ls`, `loupe index`
// and `loupe open`; each file's format is decided by the same classifier the viewer reads with.
import { open, readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { emptyHead, HEAD_MAX_BYTES, headComplete, noteHeadFile, projectOf, readHead as readHeadOf } from '../ingest/harnesses/head';
import { timeInCaptureName } from '../ingest/captureName';
import { headFileOf, parentSessionFileOf, type SessionHead } from '../ingest/harnesses';
import { headOfOpenCodeDatabase } from '../ingest/harnesses/opencode';
import { walBeside } from './files';
import { isCaptureLive } from './captures';
import { codexThreadOf } from './subagentFiles';
import { threadRoots } from './codexThreads';
import { sessionFilesUnder, type LeftOut } from './sessionWalk';

export interface FoundSession {
  path: string;
  /** The family: `claude-code`, `codex`, `acp-capture`, another shape Loupe reads (`acp-jsonrpc`, `ledger`, …), or `unknown`. */
  format: string;
  sessionId: string | null;
  /** The first prompt a person typed, on one line, without the harness's boilerplate. */
  title: string | null;
  /** The directory the agent worked in, where the file says; else a Claude project folder's name. */
  project: string | null;
  /** ISO 8601: the earliest time the file's first lines give, else the time in a capture's name. */
  startedAt: string | null;
  /** ISO 8601: the file's modification time. */
  lastWriteAt: string;
  size: number;
  /** Being written: a tee capture while its tee runs, any other file written in the last minute. */
  live: boolean;
  /** Its sub-agents' own files (Claude Code's `<session>/subagents/agent-*.jsonl`). */
  subagents: string[];
}

const LIVE_MS = 60_000;
/** Every session under `dirs` (files or folders), newest write first; `leftOut` hears what was not read. */
export async function findSessions(dirs: readonly string[], now = Date.now(), leftOut: LeftOut[] = []): Promise<FoundSession[]> {
  const files = await sessionFilesUnder(dirs, {}, leftOut);
  const subagentsOf = new Map<string, string[]>();
  for (const file of files) {
    const parent = parentSessionFileOf(file);
    if (parent === null || !files.has(parent)) continue;
    files.delete(file);
    subagentsOf.set(parent, [...(subagentsOf.get(parent) ?? []), file].sort());
  }
  const found: FoundSession[] = [];
  for (const file of files) {
    const session = await describe(file, now, subagentsOf.get(file) ?? []);
    if (session) found.push(session);
  }
  const threads = await codexSubagentThreads(found);
  return found.filter((session) => !threads.has(session)).sort((a, b) => b.lastWriteAt.localeCompare(a.lastWriteAt) || a.path.localeCompare(b.path));
}

/**
 * Codex's sub-agent threads among the sessions (a rollout of their own, whose `session_meta` names
 * the thread that spawned them, CONTRACTS §11): each added to the sub-agents of the session it
 * descends from, as `loupe index` reads them; the set of those moved.
 */
async function codexSubagentThreads(found: readonly FoundSession[]): Promise<Set<FoundSession>> {
  const moved = new Set<FoundSession>();
  const codex = found.filter((session) => session.format === 'codex');
  if (codex.length < 2) return moved;
  const threads = await Promise.all(codex.map((session) => codexThreadOf(session.path)));
  const sessionOf = new Map<string, FoundSession>();
  const parents = new Map<string, string | null>();
  codex.forEach((session, index) => {
    const thread = threads[index];
    if (!thread) return;
    sessionOf.set(thread.id, session);
    parents.set(thread.id, thread.parent);
  });
  for (const [id, root] of threadRoots(parents)) {
    const session = sessionOf.get(id);
    const rootSession = sessionOf.get(root);
    if (root === id || !session || !rootSession) continue;
    rootSession.subagents = [...rootSession.subagents, session.path].sort();
    moved.add(session);
  }
  return moved;
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
  // A database's latest writes may be in its write-ahead log only.
  const walInfo = head.format === 'opencode' ? await stat(`${path}-wal`).catch(() => null) : null;
  const lastWriteMs = Math.max(info.mtimeMs, walInfo?.mtimeMs ?? 0);
  const startedAt = head.startMs ?? timeInCaptureName(basename(path)) ?? null;
  // A capture is live while its tee runs (tee removes its marker on exit), whenever it last wrote.
  const live = head.format === 'acp-capture' && basename(dirname(path)) === 'captures' ? await isCaptureLive(path) : now - lastWriteMs < LIVE_MS;
  return {
    path,
    format: head.format,
    sessionId: head.sessionId,
    title: head.title,
    project: projectOf(head, path),
    startedAt: startedAt === null ? null : new Date(startedAt).toISOString(),
    lastWriteAt: new Date(lastWriteMs).toISOString(),
    size: info.size,
    live,
    subagents,
  };
}

/** What the first lines say: the format (the first line of a known shape), session id, working directory, start, title. */
export async function readHead(path: string): Promise<SessionHead> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return emptyHead();
  }
  const file = handle;
  try {
    const head = await readHeadOf({
      slice: async (start, end) => {
        const bytes = new Uint8Array(end - start);
        const { bytesRead } = await file.read(bytes, 0, bytes.length, start);
        return bytes.subarray(0, bytesRead);
      },
      // A SQLite database (OpenCode's) is read whole, with its write-ahead log: it has no first lines.
      databaseHead: async () => {
        // The log first (walBeside says why).
        const wal = await walBeside(path);
        return headOfOpenCodeDatabase(await readFile(path), wal);
      },
    });
    return await withHeadFile(head, path);
  } finally {
    await file.close();
  }
}

/** What the harness's file beside the session adds (Cline's `<id>.json`: its directory), when the lines left something unsaid. */
async function withHeadFile(head: SessionHead, path: string): Promise<SessionHead> {
  const beside = headComplete(head) ? null : headFileOf(head.format, path);
  if (beside === null) return head;
  const info = await stat(beside).catch(() => null);
  if (info?.isFile() !== true || info.size > HEAD_MAX_BYTES) return head;
  const text = await readFile(beside, 'utf8').catch(() => null);
  if (text !== null) noteHeadFile(head, text);
  return head;
}

/** readHead of a file's bytes already in memory (not a database): what `loupe index` reads whole. */
export async function headOfFileBytes(path: string, bytes: Uint8Array): Promise<SessionHead> {
  const head = await readHeadOf({ slice: (start, end) => Promise.resolve(bytes.subarray(start, end)) });
  return withHeadFile(head, path);
}
