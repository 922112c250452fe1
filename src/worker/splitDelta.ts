// The page pays for a delta on its main thread (receiving it, applying it, drawing it) in
// proportion to how many entries it carries, in one task. What piled up between two flushes can be
// tens of thousands of entries (the end of a read turns 20,000 running calls unfinished at once),
// so a delta is sent as pieces of bounded size, each its own message and so its own task.
import type { SessionDelta } from './protocol';

/** Entries of each list a piece carries at most: a few milliseconds of the page's time. */
export const DELTA_PIECE_ENTRIES = 250;

/**
 * `delta` as pieces that, applied in order, give what `delta` gives: each append-only list and
 * the call patches are cut into runs of at most `max`; the grown message goes with the first
 * piece, the content hash with the last, and every piece carries the delta's counts and state.
 */
export function splitDelta(delta: SessionDelta, max = DELTA_PIECE_ENTRIES): SessionDelta[] {
  const longest = Math.max(
    delta.items.length,
    delta.calls.length,
    delta.terminals.length,
    delta.sessionIds.length,
    delta.bad.length,
    delta.warnings.length,
    delta.findings?.length ?? 0,
  );
  const count = Math.ceil(longest / max);
  if (count <= 1) return [delta];
  const { grown, contentHash, findings, findingsFrom, ...rest } = delta;
  const pieces: SessionDelta[] = [];
  for (let k = 0; k < count; k++) {
    const at = k * max;
    const cut = <T>(list: readonly T[]): T[] => list.slice(Math.min(at, list.length), Math.min(at + max, list.length));
    const piece: SessionDelta = {
      ...rest,
      itemsFrom: delta.itemsFrom + Math.min(at, delta.items.length),
      items: cut(delta.items),
      calls: cut(delta.calls),
      terminals: cut(delta.terminals),
      sessionIdsFrom: delta.sessionIdsFrom + Math.min(at, delta.sessionIds.length),
      sessionIds: cut(delta.sessionIds),
      badFrom: delta.badFrom + Math.min(at, delta.bad.length),
      bad: cut(delta.bad),
      warningsFrom: delta.warningsFrom + Math.min(at, delta.warnings.length),
      warnings: cut(delta.warnings),
    };
    if (k === 0 && grown) piece.grown = grown;
    if (findings) {
      piece.findingsFrom = (findingsFrom ?? 0) + Math.min(at, findings.length);
      piece.findings = cut(findings);
    }
    if (k === count - 1 && contentHash !== undefined) piece.contentHash = contentHash;
    pieces.push(piece);
  }
  return pieces;
}
