// Codex keeps a sub-agent thread in a rollout of its own (CONTRACTS §11): which files are
// rollouts, and which thread each descends from. Apart from subagentFiles.ts, which reads a
// rollout's first line, so that a run of `loupe index` with nothing changed loads neither it nor zod.
import { basename } from 'node:path';

const CODEX_ROLLOUT = /^rollout-.+\.jsonl$/;

/** A Codex rollout by its name (`rollout-*.jsonl`). */
export const isCodexRollout = (path: string): boolean => CODEX_ROLLOUT.test(basename(path));

/**
 * Each Codex thread's root: the thread it descends from through the parents known here (a thread
 * whose parent is not among them is its own root; a loop of parents stops where it closes). How
 * `loupe ls` and `loupe index` both group a session's sub-agent threads under it.
 */
export function threadRoots(parents: ReadonlyMap<string, string | null>): Map<string, string> {
  const roots = new Map<string, string>();
  for (const [id, first] of parents) {
    let root = id;
    const seen = new Set([id]);
    for (let parent = first; parent !== null && parents.has(parent) && !seen.has(parent); parent = parents.get(parent) ?? null) {
      root = parent;
      seen.add(parent);
    }
    roots.set(id, root);
  }
  return roots;
}
