// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../store/createSessionStore';
import { delta } from '../store/testing/stores';
import { SessionToolbar } from './SessionToolbar';

afterEach(cleanup);

/** The toolbar over a store that has read `bytesRead` of `totalBytes` (unknown: a stream) and is in `state`. */
function toolbar(state: 'loading' | 'error' | 'cancelled' | 'done', progress: { bytesRead: number; totalBytes?: number }) {
  const store = createSessionStore();
  store.applyDelta(delta({ progress: { ...progress, records: 3 } }));
  store.setLoadState(state, state === 'error' ? 'gone' : undefined);
  const live = state === 'loading' && progress.totalBytes === undefined;
  render(<SessionToolbar snap={store.getSnapshot()} live={live} onCancel={() => undefined} onOpenUsage={() => undefined} showDiagnostics onToggleDiagnostics={() => undefined} dark={false} onToggleTheme={() => undefined} />);
}

describe('the toolbar', () => {
  it('says how far a file has been read, with a Cancel button while it is read', () => {
    toolbar('loading', { bytesRead: 2048, totalBytes: 4096 });
    expect(screen.getByTestId('load-status').textContent).toBe('Reading… 2.0 KB of 4.0 KB · 3 records');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.queryByTestId('live')).toBeNull();
  });

  it('marks a stream that has not ended live, with Stop', () => {
    toolbar('loading', { bytesRead: 10 });
    expect(screen.getByTestId('live')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
  });

  it('says a read failed or was cancelled, from the store, and offers no Cancel then', () => {
    toolbar('error', { bytesRead: 10, totalBytes: 20 });
    expect(screen.getByTestId('load-status').textContent).toMatch(/^Failed · /);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    cleanup();
    toolbar('cancelled', { bytesRead: 10, totalBytes: 20 });
    expect(screen.getByTestId('load-status').textContent).toMatch(/^Cancelled · /);
  });
});
