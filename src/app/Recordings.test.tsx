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
    expect(within(items[0]!).getByRole('link').getAttribute('href')).toBe('?src=recordings%2Fb_gemini_2.jsonl');
    expect(container.querySelector('img')).toBeNull();
    expect(items[1]!.textContent).toContain(hostile);
  });
});
