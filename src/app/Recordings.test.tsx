// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Recordings } from './Recordings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

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
});
