// A harness may keep a sub-agent's entries in a file of its own beside its session's (Claude Code:
// `<session>.jsonl` and `<session>/subagents/agent-<id>.jsonl`, CONTRACTS §10). Dropped or picked
// together, they are read as one input, so the sub-agent is a session of the same view and its
// Task call links to it.
import { isSubagentFileName } from '../embed';
import { blobHeadSource, readHead } from '../embed/fileHead';

export interface SessionFile {
  name: string;
  source: File;
}

/** The files as sessions to open: each sub-agent file joined to its session's file when that is among them. */
export async function withSubagents(files: readonly File[]): Promise<SessionFile[]> {
  const byName = new Map(files.map((file) => [file.name, file]));
  const attached = new Map<File, File[]>();
  const joined = new Set<File>();
  for (const file of files) {
    if (!isSubagentFileName(file.name)) continue;
    const parent = byName.get(`${await parentSessionOf(file)}.jsonl`);
    if (!parent || parent === file) continue;
    attached.set(parent, [...(attached.get(parent) ?? []), file]);
    joined.add(file);
  }
  return files
    .filter((file) => !joined.has(file))
    .map((file) => {
      const subagents = attached.get(file);
      if (!subagents) return { name: file.name, source: file };
      // A newline between the parts: a file that does not end in one keeps its last line whole.
      const parts: BlobPart[] = [file];
      for (const subagent of subagents) parts.push('\n', subagent);
      return { name: `${file.name} (+${subagents.length} sub-agent${subagents.length === 1 ? '' : 's'})`, source: new File(parts, file.name, { type: file.type }) };
    });
}

async function parentSessionOf(file: File): Promise<string | null> {
  try {
    return (await readHead(blobHeadSource(file))).sessionId;
  } catch {
    // unreadable: opened on its own
    return null;
  }
}
