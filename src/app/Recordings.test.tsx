// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render as renderOnPage, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './queryClient';
import { IDLE_REFRESH_MS, LIVE_REFRESH_MS, Recordings } from './Recordings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Rendered as the app renders it: under a QueryClient of the app's kind, a new one per test (nothing cached between them). */
function render(ui: ReactElement) {
  return renderOnPage(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);
}

function serveListing(listing: unknown) {
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(JSON.stringify(listing), { headers: { 'content-type': 'application/json' } }))));
}

describe('Recordings', () => {
  it('an empty folder says where recordings come from and where they go', async () => {
    serveListing({ folder: '/home/dev/.local/state/loupe/captures', recordings: [] });
    render(<Recordings />);
    expect(await screen.findByText('loupe tee -- AGENT [ARGS...]')).toBeTruthy();
    expect(screen.getByText('/home/dev/.local/state/loupe/captures')).toBeTruthy();
  });

  it('lists each recording in the order given, linking to it, names shown as text only', async () => {
    const hostile = '<img src=x onerror=alert(1)>.jsonl';
    serveListing({
      folder: '/c',
      recordings: [
        { name: 'b_gemini_2.jsonl', bytes: 2048, mtimeMs: 2_000, live: true, agent: 'gemini --acp' },
        { name: hostile, bytes: 10, mtimeMs: 1_000, live: false },
      ],
    });
    const { container } = render(<Recordings />);
    const list = await screen.findByRole('list', { name: 'Recordings' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-recording'))).toEqual(['b_gemini_2.jsonl', hostile]);
    expect(items[0]!.textContent).toContain('live');
    expect(items[0]!.textContent).toContain('gemini --acp');
    expect(items[0]!.textContent).toContain('2.0 KB');
    expect(items[1]!.textContent).not.toContain('live');
    expect(within(items[0]!).getByRole('link').getAttribute('href')).toBe('?src=recordings/b_gemini_2.jsonl');
    expect(container.querySelector('img')).toBeNull();
    expect(items[1]!.textContent).toContain(hostile);
  });

  it('lists the sessions agents logged, grouped by project, each linking to it by its id', async () => {
    const sessions = {
      folders: ['/h/.claude/projects', '/h/.codex/sessions'],
      sessions: [
        { id: 'AAA', name: 's2.jsonl', format: 'claude-code', sessionId: 's2', project: '/home/dev/app', startedAt: null, lastWriteAt: '2026-11-30T12:00:00.000Z', bytes: 4096, live: true },
        { id: 'BBB', name: 'rollout-1.jsonl', format: 'codex', sessionId: 'c1', project: '/home/dev/api', startedAt: null, lastWriteAt: '2026-11-30T11:00:00.000Z', bytes: 10, live: false },
        { id: 'CCC', name: 's1.jsonl', format: 'claude-code', sessionId: 's1', project: '/home/dev/app', startedAt: null, lastWriteAt: '2026-11-30T10:00:00.000Z', bytes: 10, live: false },
      ],
    };
    vi.stubGlobal('fetch', vi.fn((url: string) => {
      const body = url === 'sessions' ? sessions : { folder: '/c', recordings: [] };
      return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
    }));
    render(<Recordings />);
    const all = await screen.findByRole('region', { name: 'Agent sessions' });
    const projects = within(all).getAllByRole('region');
    expect(projects.map((p) => p.getAttribute('data-project'))).toEqual(['/home/dev/app', '/home/dev/api']);
    const app = within(projects[0]!).getAllByRole('listitem');
    expect(app.map((li) => li.getAttribute('data-agent-session'))).toEqual(['s2.jsonl', 's1.jsonl']);
    expect(app[0]!.textContent).toContain('live');
    expect(app[0]!.textContent).toContain('Claude Code');
    expect(within(app[0]!).getByRole('link').getAttribute('href')).toBe('?src=sessions/AAA/s2.jsonl');
    expect(within(projects[1]!).getByRole('listitem').textContent).toContain('Codex');
  });

  it("says what is wrong with a server's answer not of a listing's shape, instead of showing it", async () => {
    serveListing({ folder: '/c', recordings: [{ name: 'a.jsonl', bytes: 'many', mtimeMs: 1, live: false }] });
    render(<Recordings />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Could not list the recordings \(the server's list of recordings is not a listing Loupe reads at recordings\.0\.bytes/);
    expect(screen.queryByRole('list', { name: 'Recordings' })).toBeNull();
  });

  it('says once why a refused listing cannot be read, without asking again', async () => {
    const fetch = vi.fn((url: string) => Promise.resolve(new Response(url === 'recordings' ? 'Not found' : '{}', { status: 404 })));
    vi.stubGlobal('fetch', fetch);
    render(<Recordings />);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not list the recordings (HTTP 404)');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(fetch.mock.calls.filter(([url]) => url === 'recordings')).toHaveLength(1);
  });

  it('refreshes while a recording is live: it grows, a new one shows up, and it loses its badge when it ends', async () => {
    // The refresh is react-query's refetchInterval: only intervals are faked, so the page refreshes when the test says, never on its own.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const answers = [
      [{ name: 'a.jsonl', bytes: 1024, mtimeMs: 1_000, live: true }],
      [
        { name: 'b.jsonl', bytes: 10, mtimeMs: 3_000, live: false },
        { name: 'a.jsonl', bytes: 4096, mtimeMs: 2_000, live: false },
      ],
    ];
    let asked = 0;
    vi.stubGlobal('fetch', vi.fn((url: string) => {
      const body = url === 'recordings' ? { folder: '/c', recordings: answers[Math.min(asked++, answers.length - 1)] } : { folders: [], sessions: [] };
      return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
    }));
    render(<Recordings />);
    const live = await screen.findByText('live');
    expect(live.closest('li')?.getAttribute('data-recording')).toBe('a.jsonl');
    expect(live.closest('li')?.textContent).toContain('1.0 KB');

    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS));
    const shown = () => screen.getAllByRole('listitem').map((li) => li.getAttribute('data-recording'));
    await waitFor(() => expect(shown()).toEqual(['b.jsonl', 'a.jsonl']));
    const items = screen.getAllByRole('listitem');
    expect(items[1]!.textContent).toContain('4.0 KB');
    expect(screen.queryByText('live')).toBeNull();

    // Nothing live: not asked again as often, but still asked (a new run shows up without a reload).
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS));
    expect(asked).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(IDLE_REFRESH_MS));
    expect(asked).toBe(3);
  });
});
