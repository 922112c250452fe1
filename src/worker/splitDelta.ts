// The page pays for a delta on its main thread (receiving it, applying it, drawing it) in
// proportion to how many entries it carries, in one task. What piled up between two flushes can be
// tens of thousands of entries (the end of a read turns 20,000 running calls unfinished at once),
// so a delta is sent as pieces of bounded size, each its own message and so its own task.
import { APPENDED_PARTS, DELTA_PARTS, DELTA_PART_NAMES, PATCH_PARTS, type SessionDelta } from '../model/delta';

/** Entries of each list a piece carries at most: a few milliseconds of the page's time. */
export const DELTA_PIECE_ENTRIES = 250;

type Loose = Record<string, unknown>;

/**
 * `delta` as pieces that, applied in order, give what `delta` gives (see `DELTA_PARTS`): each
 * append-only list and each patch list is cut into runs of at most `max`; a `first` part goes
 * with the first piece, a `last` part with the last, and every piece carries the replaced values.
 */
export function splitDelta(delta: SessionDelta, max = DELTA_PIECE_ENTRIES): SessionDelta[] {
  const lists = [...APPENDED_PARTS, ...PATCH_PARTS];
  const longest = Math.max(...lists.map((part) => delta[part]?.length ?? 0));
  const count = Math.ceil(longest / max);
  if (count <= 1) return [delta];
  const pieces: SessionDelta[] = [];
  for (let k = 0; k < count; k++) {
    const at = k * max;
    const piece: Loose = {};
    for (const part of DELTA_PART_NAMES) {
      const value = delta[part];
      if (value === undefined) continue;
      const kind = DELTA_PARTS[part].kind;
      switch (kind) {
        case 'replaced':
          piece[part] = value;
          break;
        case 'first':
          if (k === 0) piece[part] = value;
          break;
        case 'last':
          if (k === count - 1) piece[part] = value;
          break;
        case 'patches':
        case 'appended': {
          const list = value as readonly unknown[];
          const start = Math.min(at, list.length);
          piece[part] = list.slice(start, Math.min(at + max, list.length));
          if (kind === 'appended') piece[`${part}From`] = ((delta as unknown as Loose)[`${part}From`] as number | undefined ?? 0) + start;
          break;
        }
      }
    }
    pieces.push(piece as unknown as SessionDelta);
  }
  return pieces;
}
