// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('the session’s name in the header', () => {
  const named = (sourceName: string) => {
    const store = createSessionStore();
    render(<SessionToolbar snap={store.getSnapshot()} sourceName={sourceName} live={false} onCancel={() => undefined} onOpenUsage={() => undefined} showDiagnostics onToggleDiagnostics={() => undefined} dark={false} onToggleTheme={() => undefined} />);
    return screen.getByTitle(sourceName);
  };

  it('is the file’s name, not the server’s path, with the whole source in its tooltip', () => {
    const served = 'sessions/X_JBq2c9aZ0f1yLmN/a39f27c1-5e0b-4d7e-9c41-2b8f0e6d1a77.jsonl';
    expect(named(served).textContent).toBe('a39f27c1-5e0b-4d7e-9c41-2b8f0e6d1a77.jsonl');
    cleanup();
    expect(named('recordings/2026-12-01T14-08-28-000Z_claude-agent-acp_4242.jsonl').textContent).toBe('2026-12-01T14-08-28-000Z_claude-agent-acp_4242.jsonl');
    cleanup();
    expect(named('https://example.com/runs/run%207.jsonl?raw=1#x').textContent).toBe('run 7.jsonl');
    cleanup();
    expect(named('library/file/proj/2026%2F12/one.jsonl').textContent).toBe('one.jsonl');
  });

  it('keeps a name that is not a path as it is', () => {
    expect(named('my #1 run.jsonl').textContent).toBe('my #1 run.jsonl');
    cleanup();
    expect(named('Pasted text').textContent).toBe('Pasted text');
  });
});

describe('the session’s title in the header', () => {
  it('is its first prompt, without the harness’s wrapping, as loupe ls titles it', async () => {
    const { loadedStore } = await import('../store/testing/stores');
    const log = readFileSync(join(import.meta.dirname, '../../fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl'), 'utf8');
    const store = await loadedStore(log);
    render(<SessionToolbar snap={store.getSnapshot()} sourceName="s.jsonl" live={false} onCancel={() => undefined} onOpenUsage={() => undefined} showDiagnostics={false} onToggleDiagnostics={() => undefined} dark={false} onToggleTheme={() => undefined} />);
    // Not the `/model` command nor its caveat: the prompt after them.
    expect(screen.getByTestId('session-title').textContent).toBe('Please tidy up notes.txt and report on the workspace.');
  });

  it('is absent where nobody prompted', () => {
    const store = createSessionStore();
    render(<SessionToolbar snap={store.getSnapshot()} sourceName="s.jsonl" live={false} onCancel={() => undefined} onOpenUsage={() => undefined} showDiagnostics={false} onToggleDiagnostics={() => undefined} dark={false} onToggleTheme={() => undefined} />);
    expect(screen.queryByTestId('session-title')).toBeNull();
  });
});
