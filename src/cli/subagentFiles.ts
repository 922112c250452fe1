// A session's sub-agents may keep their entries in files of their own, as its harness lays them out
// (ingest/harnesses: Claude Code's `<session>/subagents/agent-<id>.jsonl`, CONTRACTS §10).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { subagentLayoutOf } from '../ingest/harnesses';

/** The sub-agent files beside a session file, in name order; none when it has no such folder. */
export async function subagentFilesOf(sessionPath: string): Promise<string[]> {
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
    for await (const chunk of createReadStream(part, { highWaterMark: 1 << 20 })) yield chunk as Uint8Array;
  }
}
