// The harness's bookkeeping lines (a native log's `queue-operation`, `progress`, `turn_context`, …,
// marked `bookkeeping` by its adapter) stay events in the accounting, but with no filter on a run
// of them is one quiet row ("7 bookkeeping entries") that opens to list them, not a row each.

export interface BookkeepingRows {
  rows: readonly number[];
  /** Each run's item indices, by the index of its first (the row that stands for the run). */
  runs: ReadonlyMap<number, readonly number[]>;
}

const NONE: ReadonlyMap<number, readonly number[]> = new Map();

/**
 * `bookkeeping`: the item indices of the bookkeeping events, increasing (SessionState's), walked
 * beside the rows: no item is looked up, so a redraw while a large log is read costs a pass over
 * two arrays of numbers.
 */
export function foldBookkeeping(rows: readonly number[], bookkeeping: readonly number[]): BookkeepingRows {
  if (bookkeeping.length === 0) return { rows, runs: NONE };
  const out: number[] = [];
  const runs = new Map<number, number[]>();
  let run: number[] | null = null;
  let next = 0;
  for (const index of rows) {
    while (next < bookkeeping.length && bookkeeping[next]! < index) next++;
    if (bookkeeping[next] === index) {
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
