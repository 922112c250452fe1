// A line diff computed with a bound on the work. Myers' algorithm (jsdiff) is O(N·D): two
// unrelated 20,000-line files cost minutes. Past the bound the diff falls back to what is
// linear: the common first and last lines, and the middle as removed then added.
import { diffLines } from 'diff';

export interface DiffRun {
  kind: 'same' | 'add' | 'del';
  /** Lines in this run. */
  count: number;
}

export interface LineDiff {
  runs: DiffRun[];
  /** False when the bound was hit and the middle is shown as one replaced block. */
  exact: boolean;
}

export interface DiffBound {
  /** Edits (added plus removed lines) past which alignment is not attempted. */
  maxEditLength: number;
  /** Milliseconds past which alignment stops. */
  timeoutMs: number;
}

const WORKER_BOUND: DiffBound = { maxEditLength: 20_000, timeoutMs: 3000 };

/** Lines of `text` as the diff counts them: a final newline ends the last line, it does not start another. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function push(runs: DiffRun[], kind: DiffRun['kind'], count: number): void {
  if (count <= 0) return;
  const last = runs[runs.length - 1];
  if (last?.kind === kind) last.count += count;
  else runs.push({ kind, count });
}

/** Linear: common leading and trailing lines, the rest replaced. */
export function replacedBlockDiff(oldText: string, newText: string): LineDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Lines compare with their line ends, as jsdiff's do: "x" at the very end differs from "x\n".
  const aEndsNl = oldText.endsWith('\n');
  const bEndsNl = newText.endsWith('\n');
  const sameAt = (i: number, j: number): boolean => a[i] === b[j] && (i < a.length - 1 || aEndsNl) === (j < b.length - 1 || bEndsNl);
  let head = 0;
  while (head < a.length && head < b.length && sameAt(head, head)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && sameAt(a.length - 1 - tail, b.length - 1 - tail)) tail++;
  const runs: DiffRun[] = [];
  push(runs, 'same', head);
  push(runs, 'del', a.length - head - tail);
  push(runs, 'add', b.length - head - tail);
  push(runs, 'same', tail);
  return { runs, exact: false };
}

export function computeLineDiff(oldText: string, newText: string, bound: DiffBound = WORKER_BOUND): LineDiff {
  const changes = diffLines(oldText, newText, { maxEditLength: bound.maxEditLength, timeout: bound.timeoutMs });
  if (!changes) return replacedBlockDiff(oldText, newText);
  const runs: DiffRun[] = [];
  for (const c of changes) push(runs, c.added ? 'add' : c.removed ? 'del' : 'same', c.count);
  return { runs, exact: true };
}
