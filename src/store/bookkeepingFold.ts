// The harness's bookkeeping lines (a native log's `queue-operation`, `progress`, `turn_context`, …,
// marked `bookkeeping` by its adapter) stay events in the accounting, but with no filter on a run
// of them is one quiet row ("7 bookkeeping entries") that opens to list them, not a row each.
import type { List } from 'immutable';
import type { TranscriptItem } from '../model';

export interface BookkeepingRows {
  rows: readonly number[];
  /** Each run's item indices, by the index of its first (the row that stands for the run). */
  runs: ReadonlyMap<number, readonly number[]>;
}

const NONE: ReadonlyMap<number, readonly number[]> = new Map();

export function foldBookkeeping(rows: readonly number[], items: List<TranscriptItem>): BookkeepingRows {
  let any = false;
  for (const index of rows) {
    const item = items.get(index);
    if (item?.type === 'event' && item.bookkeeping === true) {
      any = true;
      break;
    }
  }
  if (!any) return { rows, runs: NONE };
  const out: number[] = [];
  const runs = new Map<number, number[]>();
  let run: number[] | null = null;
  for (const index of rows) {
    const item = items.get(index);
    if (item?.type === 'event' && item.bookkeeping === true) {
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
