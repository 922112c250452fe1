import { describe, expect, it, vi } from 'vitest';
import { createSessionStore } from './createSessionStore';
import { agentMessage, delta } from './testing/stores';


describe('when the store asks the page to redraw while a session streams in', () => {
  it('draws the first rows at once, and gathers the deltas after them into the next redraw', () => {
    vi.useFakeTimers();
    try {
      const store = createSessionStore();
      const redraws: number[] = [];
      store.subscribe(() => redraws.push(store.getSnapshot().items.size));
      store.applyDelta(delta({ progress: { bytesRead: 10, records: 0 } }));
      expect(redraws).toEqual([]);
      store.applyDelta(delta({ itemsFrom: 0, items: [agentMessage('first', 1)] }));
      expect(redraws).toEqual([1]);
      store.applyDelta(delta({ itemsFrom: 1, items: [agentMessage('second', 2)] }));
      store.applyDelta(delta({ itemsFrom: 2, items: [agentMessage('third', 3)] }));
      expect(redraws).toEqual([1]);
      vi.runAllTimers();
      expect(redraws).toEqual([1, 3]);
    } finally {
      vi.useRealTimers();
    }
  });
});
