// A session's sub-agents may keep their entries in files of their own, as its harness lays them out
// (ingest/harnesses: Claude Code's `<session>/subagents/agent-<id>.jsonl`, CONTRACTS §10).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { fileChunks } from './fileChunks';
import { subagentLayoutOf } from '../ingest/harnesses';
import { isCodexRollout } from './codexThreads';

/**
 * The sub-agent files of a session file: those in its harness's sub-agent folder (in name order),
 * else, for a Codex rollout, the rollouts beside it of the threads it spawned (codexThreadsSpawnedBy).
 */
export async function subagentFilesOf(sessionPath: string): Promise<string[]> {
  const inFolder = await subagentFolderFilesOf(sessionPath);
  if (inFolder.length > 0) return inFolder;
  return codexThreadsSpawnedBy(sessionPath);
}

/** The sub-agent files in a session's harness's sub-agent folder, in name order; none when it has no such folder. */
export async function subagentFolderFilesOf(sessionPath: string): Promise<string[]> {
  const layout = subagentLayoutOf(sessionPath);
  if (layout === null) return [];
  const { folder, isSubagentFile } = layout;
  const names = await readdir(folder).catch(() => [] as string[]);
  const files: string[] = [];
  for (const name of names.sort()) {
    if (!isSubagentFile(name)) continue;
    const info = await stat(join(folder, name)).catch(() => null);
    if (info?.isFile()) files.push(join(folder, name));
  }
  return files;
}

/** A sub-agent thread's `session_meta` names its parent near its start: a rollout whose first bytes do not is no sub-agent's (read in pieces of this size). */
const PARENT_PROBE_BYTES = 64 * 1024;
/** A `session_meta` line (its instructions included) is read whole up to this size. */
const FIRST_LINE_MAX_BYTES = 4 * 1024 * 1024;

const sessionMetaSchema = z.object({
  type: z.literal('session_meta'),
  payload: z.object({
    id: z.string(),
    parent_thread_id: z.string().nullish().catch(undefined),
    source: z.object({ subagent: z.object({ thread_spawn: z.object({ parent_thread_id: z.string() }) }) }).optional().catch(undefined),
  }),
});

/**
 * Codex keeps each sub-agent thread in a rollout of its own beside its parent's, whose first line
 * (`session_meta`) names the parent thread (CONTRACTS §11): the rollouts in the session's folder,
 * written after it, of the threads it spawned and of theirs, in name (time) order. A thread
 * spawned on a later day is in another folder and not found.
 */
export async function codexThreadsSpawnedBy(rolloutPath: string): Promise<string[]> {
  if (!isCodexRollout(rolloutPath)) return [];
  const own = await sessionMetaOf(rolloutPath, false);
  if (!own) return [];
  const threads = new Set([own.id]);
  const folder = dirname(rolloutPath);
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => isCodexRollout(name) && name > basename(rolloutPath)).sort();
  const found: string[] = [];
  for (const name of names) {
    const meta = await sessionMetaOf(join(folder, name), true);
    const parent = meta?.parent_thread_id ?? meta?.source?.subagent.thread_spawn.parent_thread_id;
    if (!meta || parent === undefined || parent === null || !threads.has(parent)) continue;
    threads.add(meta.id);
    found.push(join(folder, name));
  }
  return found;
}

/** A Codex rollout's thread and the thread that spawned it (null for none); null when it is no rollout. */
export async function codexThreadOf(path: string): Promise<{ id: string; parent: string | null } | null> {
  if (!isCodexRollout(path)) return null;
  const meta = await sessionMetaOf(path, false);
  return meta ? { id: meta.id, parent: meta.parent_thread_id ?? meta.source?.subagent.thread_spawn.parent_thread_id ?? null } : null;
}

/** A rollout's `session_meta` (its first line); null when it has none. `asChild`: null unless its first bytes name a parent thread. */
async function sessionMetaOf(path: string, asChild: boolean): Promise<z.infer<typeof sessionMetaSchema>['payload'] | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    if (!(await handle.stat()).isFile()) return null;
    let head = Buffer.alloc(0);
    let newline = -1;
    while (newline < 0 && head.length < FIRST_LINE_MAX_BYTES) {
      const chunk = Buffer.alloc(PARENT_PROBE_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, head.length);
      if (bytesRead === 0) break;
      if (asChild && head.length === 0 && !chunk.subarray(0, bytesRead).includes('"parent_thread_id"')) return null;
      head = Buffer.concat([head, chunk.subarray(0, bytesRead)]);
      newline = head.indexOf(10);
    }
    let value: unknown;
    try {
      value = JSON.parse((newline < 0 ? head : head.subarray(0, newline)).toString('utf8'));
    } catch {
      return null;
    }
    const parsed = sessionMetaSchema.safeParse(value);
    return parsed.success ? parsed.data.payload : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/**
 * The session and its sub-agents' files as one file (in a new private folder under the temp
 * directory; the caller removes it): each part ends in a newline, so no two lines run together.
 */
export async function joinSubagents(sessionPath: string, subagents: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'loupe-open-'));
  const out = join(dir, basename(sessionPath));
  const sink = createWriteStream(out, { mode: 0o600 });
  for (const part of [sessionPath, ...subagents]) {
    await pipeline(createReadStream(part), sink, { end: false });
    sink.write('\n');
  }
  await new Promise<void>((resolve, reject) => sink.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return out;
}

/**
 * The bytes of a session file and then of its sub-agents' files, as one input (what `joinSubagents`
 * writes): each part ends in a newline, so no two lines run together.
 */
export async function* withSubagentBytes(sessionPath: string, subagents: readonly string[]): AsyncGenerator<Uint8Array> {
  const newline = new Uint8Array([10]);
  for (const [index, part] of [sessionPath, ...subagents].entries()) {
    if (index > 0) yield newline;
    yield* fileChunks(part);
  }
}
