// A sub-agent's calls folded under the call that started it (CONTRACTS §11): with no filter on,
// a call whose parent is a call of the view is not a row of its own; the parent's row says how
// many calls its sub-agent made and how many failed, and lists them when opened. A filter shows
// every call it keeps as a row, a sub-agent's too (looking for failures finds them).
import type { List, Map as PMap } from 'immutable';
import type { CallSummary, TranscriptItem } from '../model';
import type { IndexRun } from './indexRange';

export interface FoldedRows {
  rows: readonly number[];
  /** The calls each sub-agent made, in order, by the id of the call that started it. */
  subagentCalls: ReadonlyMap<string, readonly CallSummary[]>;
}

const NONE: ReadonlyMap<string, readonly CallSummary[]> = new Map();

/** `idToKey`: the calls read by their ids (SessionState's), where a parent is looked up. */
export function foldSubagentCalls(rows: IndexRun, items: List<TranscriptItem>, calls: PMap<string, CallSummary>, idToKey: PMap<string, string>): FoldedRows {
  const byParent = new Map<string, CallSummary[]>();
  const out: number[] = [];
  for (let r = 0; r < rows.length; r++) {
    const index = rows.backing[r]!;
    const item = items.get(index);
    const call = item?.type === 'call' ? calls.get(item.callKey) : undefined;
    const parent = call?.parentId;
    if (call && parent !== undefined && parent !== call.id && idToKey.has(parent)) {
      const list = byParent.get(parent);
      if (list) list.push(call);
      else byParent.set(parent, [call]);
      continue;
    }
    out.push(index);
  }
  return { rows: out, subagentCalls: byParent.size > 0 ? byParent : NONE };
}
