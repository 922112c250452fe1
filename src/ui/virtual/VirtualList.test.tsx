// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NEW_ROWS_PER_TASK, VirtualList } from './VirtualList';

// jsdom lays nothing out: the list is given a 400 px viewport and rows keep their estimated height.
class StubObserver {
  constructor(private readonly fn: (entries: ResizeObserverEntry[]) => void) {}
  observe(): void {
    this.fn([]);
  }
  unobserve(): void {}
  disconnect(): void {}
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', StubObserver);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('VirtualList', () => {
  it('draws rows that appear all at once a few per task, so the first ones show without waiting for the rest', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => i);
    render(<VirtualList count={rows.length} estimate={20} rowKey={(i) => i} rowIds={rows} renderRow={(i) => <span>row {i}</span>} ariaLabel="Rows" />);
    // 400 px of 20 px rows plus the overscan: 27 rows to draw.
    const drawnFirst = screen.getAllByRole('listitem').length;
    // The first task draws one batch, not the whole viewport.
    expect(drawnFirst).toBe(NEW_ROWS_PER_TASK);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(27));
    expect(screen.getByText('row 0')).toBeTruthy();
    expect(screen.getByText('row 26')).toBeTruthy();
  });
});
