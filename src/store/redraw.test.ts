import { describe, expect, it, vi } from 'vitest';
import type { SessionDelta } from '../worker/protocol';
import { createSessionStore } from './createSessionStore';

function delta(over: Partial<SessionDelta>): SessionDelta {
  return {
    itemsFrom: 0, items: [], calls: [], terminals: [], counts: { lines: 0, events: 0, unknown: 0, bad: 0 }, format: 'acp-updates',
    chain: null, sessionIdsFrom: 0, sessionIds: [], badFrom: 0, bad: [], warningsFrom: 0, warnings: [], ended: false,
    progress: { bytesRead: 0, records: 0 }, ...over,
  };
}

const message = (line: number, text: string) => ({ type: 'message' as const, role: 'agent' as const, loc: { line, offset: 0, length: 0 }, sessionId: null, blocks: [], text });

describe('when the store asks the page to redraw while a session streams in', () => {
  it('draws the first rows at once, and gathers the deltas after them into the next redraw', () => {
    vi.useFakeTimers();
    try {
      const store = createSessionStore();
      const redraws: number[] = [];
      store.subscribe(() => redraws.push(store.getSnapshot().items.size));
      store.applyDelta(delta({ progress: { bytesRead: 10, records: 0 } }));
      expect(redraws).toEqual([]);
      store.applyDelta(delta({ itemsFrom: 0, items: [message(1, 'first')] }));
      expect(redraws).toEqual([1]);
      store.applyDelta(delta({ itemsFrom: 1, items: [message(2, 'second')] }));
      store.applyDelta(delta({ itemsFrom: 2, items: [message(3, 'third')] }));
      expect(redraws).toEqual([1]);
      vi.runAllTimers();
      expect(redraws).toEqual([1, 3]);
    } finally {
      vi.useRealTimers();
    }
  });
});
