// The harness's bookkeeping lines (a native log's `queue-operation`, `progress`, `turn_context`, …,
// marked `bookkeeping` by its adapter) stay events in the accounting, but with no filter on a run
// of them is one quiet row ("7 bookkeeping entries") that opens to list them, not a row each.
import type { IndexRun } from './indexRange';

export interface BookkeepingRows {
  rows: readonly number[];
  /** Each run's item indices, by the index of its first (the row that stands for the run). */
  runs: ReadonlyMap<number, readonly number[]>;
}

/**
 * `rows` folded, or null when there is nothing to fold (no bookkeeping read). `bookkeeping`: the
 * item indices of the bookkeeping events, increasing (SessionState's), walked beside the rows: no
 * item is looked up, so a redraw while a large log is read costs a pass over two arrays of numbers.
 */
export function foldBookkeeping(rows: IndexRun, bookkeeping: IndexRun): BookkeepingRows | null {
  if (bookkeeping.length === 0) return null;
  const marks = bookkeeping.backing;
  const out: number[] = [];
  const runs = new Map<number, number[]>();
  let run: number[] | null = null;
  let next = 0;
  for (let r = 0; r < rows.length; r++) {
    const index = rows.backing[r]!;
    while (next < bookkeeping.length && marks[next]! < index) next++;
    if (next < bookkeeping.length && marks[next] === index) {
      if (run) {
        run.push(index);
        continue;
      }
      run = [index];
      runs.set(index, run);
      out.push(index);
      continue;
    }
    run = null;
    out.push(index);
  }
  return { rows: out, runs };
}
