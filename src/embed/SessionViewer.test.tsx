// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { SessionViewer } from './index';

const ESC = readFileSync(join(process.cwd(), 'fixtures/grok/esc-interrupt.updates.jsonl'), 'utf8');
const GEMINI = readFileSync(join(process.cwd(), 'fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl'), 'utf8');

afterEach(cleanup);

describe('SessionViewer', () => {
  it('shows two sessions side by side, each in its own viewer', async () => {
    const records = ESC.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    const { container } = render(
      <>
        <div data-testid="a">
          <SessionViewer source={{ records }} />
        </div>
        <div data-testid="b">
          <SessionViewer source={{ text: GEMINI }} />
        </div>
      </>,
    );
    const a = within(screen.getByTestId('a'));
    const b = within(screen.getByTestId('b'));
    await waitFor(() => expect(container.querySelectorAll('[data-load-state="done"]')).toHaveLength(2));
    expect(a.getByText('Tool calls: 1')).toBeTruthy();
    expect(b.getByText('Tool calls: 3')).toBeTruthy();
    expect(screen.getByTestId('a').querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')?.textContent).toContain('sleep 45');
    expect(screen.getByTestId('b').querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toBeNull();
  });

  it('reports the opened call and the filter to the host', async () => {
    const onSelectCall = vi.fn();
    const onFilterChange = vi.fn();
    const { container } = render(<SessionViewer source={{ text: ESC }} onSelectCall={onSelectCall} onFilterChange={onFilterChange} initialFilter={{ labels: ['Run Command'] }} />);
    await waitFor(() => expect(container.querySelector('[data-load-state="done"]')).toBeTruthy());
    const row = container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"] > button');
    expect(row).toBeTruthy();
    (row as HTMLButtonElement).click();
    await waitFor(() => expect(onSelectCall).toHaveBeenCalledWith(expect.objectContaining({ id: 'call-41033b16-03a7-4ca3-950c-0a015137f366-0', label: 'Run Command' })));
    (screen.getByRole('button', { name: 'Clear filters' })).click();
    await waitFor(() => expect(onFilterChange).toHaveBeenCalledWith({ labels: [], statuses: [], text: '' }));
  });

  it('loads under StrictMode, whose double mount must not cancel or duplicate the read', async () => {
    /** Every load state the viewer shows, in order, until it is done. */
    const statesShown = async (strict: boolean): Promise<string[]> => {
      const states: string[] = [];
      const seen = (root: ParentNode): void => {
        const state = root.querySelector('[data-load-state]')?.getAttribute('data-load-state');
        if (state && state !== states.at(-1)) states.push(state);
      };
      const host = document.createElement('div');
      document.body.append(host);
      const observer = new MutationObserver(() => seen(host));
      observer.observe(host, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-load-state'] });
      const viewer = <SessionViewer source={{ text: GEMINI }} />;
      const { unmount } = render(strict ? <StrictMode>{viewer}</StrictMode> : viewer, { container: host });
      await waitFor(() => expect(host.querySelector('[data-load-state="done"]')).toBeTruthy());
      seen(host);
      expect(within(host).getByText('Tool calls: 3')).toBeTruthy();
      observer.disconnect();
      unmount();
      host.remove();
      return states;
    };
    const plain = await statesShown(false);
    expect(plain.at(-1)).toBe('done');
    // A read cancelled and started again, or read twice, shows more states than one read does.
    expect(await statesShown(true)).toEqual(plain);
  });

  it('shows the new session when the source changes, and nothing when it is taken away', async () => {
    const { container, rerender } = render(<SessionViewer source={{ text: ESC }} />);
    await waitFor(() => expect(container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toBeTruthy());
    rerender(<SessionViewer source={{ text: GEMINI }} />);
    await waitFor(() => expect(screen.getByText('Tool calls: 3')).toBeTruthy());
    expect(container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toBeNull();
    rerender(<SessionViewer />);
    await waitFor(() => expect(screen.getByText('Tool calls: 0')).toBeTruthy());
    expect(container.querySelectorAll('[data-call-id]')).toHaveLength(0);
  });

  it('follows a ReadableStream that stays open: live, rows as they come, ended when it closes', async () => {
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
    const lines = ESC.trim().split('\n');
    const { container } = render(<SessionViewer source={stream} />);
    feed.enqueue(new TextEncoder().encode(`${lines.slice(0, 3).join('\n')}\n`));
    await waitFor(() => expect(screen.getByTestId('live')).toBeTruthy());
    await waitFor(() => expect(container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toBeTruthy());
    expect(container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')?.getAttribute('data-status')).not.toBe('unfinished');
    feed.enqueue(new TextEncoder().encode(`${lines.slice(3).join('\n')}\n`));
    feed.close();
    await waitFor(() => expect(container.querySelector('[data-load-state="done"]')).toBeTruthy());
    expect(screen.queryByTestId('live')).toBeNull();
    expect(container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')?.getAttribute('data-status')).toBe('unfinished');
  });

  it('shows the failed request with Retry, and Retry reads the session', async () => {
    const responses = [new Response('down', { status: 503, statusText: 'Service Unavailable' }), new Response(ESC, { status: 200 })];
    const fetchMock = vi.fn(() => Promise.resolve(responses.shift() ?? new Response('', { status: 500 })));
    vi.stubGlobal('fetch', fetchMock);
    try {
      const { container } = render(<SessionViewer source="http://sessions.example/run.jsonl" />);
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('HTTP 503');
      within(alert).getByRole('button', { name: 'Retry' }).click();
      await waitFor(() => expect(container.querySelector('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toBeTruthy());
      expect(screen.queryByRole('alert')).toBeNull();
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("reads a URL inside a host's own QueryClientProvider without touching the host's QueryClient", async () => {
    // A dashboard that uses react-query, its own data cached, the viewer inside its provider (the
    // test above is the same read with no provider at all: the viewer needs none).
    const host = new QueryClient();
    host.setQueryData(['runs'], ['run.jsonl']);
    const events: string[] = [];
    const unsubscribe = host.getQueryCache().subscribe((event) => events.push(`${event.type} ${JSON.stringify(event.query.queryKey)}`));
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(ESC))));
    try {
      const { container } = render(
        <QueryClientProvider client={host}>
          <SessionViewer source="http://sessions.example/run.jsonl" />
        </QueryClientProvider>,
      );
      await waitFor(() => expect(container.querySelector('[data-load-state="done"]')).toBeTruthy());
      expect(screen.getByText('Tool calls: 1')).toBeTruthy();
      expect(host.getQueryCache().getAll().map((query) => query.queryKey)).toEqual([['runs']]);
      expect(host.getQueryData(['runs'])).toEqual(['run.jsonl']);
      expect(events).toEqual([]);
    } finally {
      unsubscribe();
      vi.unstubAllGlobals();
    }
  });

  it('a Subagent call links to the session it spawned, and the link shows that session', async () => {
    const update = (sessionId: string, u: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
    const text = [
      update('parent', { sessionUpdate: 'tool_call', toolCallId: 'spawn', title: 'Task', kind: 'other', status: 'completed', rawInput: { description: 'look around' }, _meta: { claudeCode: { toolName: 'Task' } }, rawOutput: { sessionId: 'child' } }),
      update('child', { sessionUpdate: 'tool_call', toolCallId: 'child-read', title: 'Read', kind: 'read', status: 'completed', rawInput: { path: '/child.txt' } }),
      update('parent', { sessionUpdate: 'tool_call', toolCallId: 'parent-read', title: 'Read', kind: 'read', status: 'completed', rawInput: { path: '/parent.txt' } }),
    ].join('\n');
    const { container } = render(<SessionViewer source={{ text }} />);
    await waitFor(() => expect(container.querySelector('[data-load-state="done"]')).toBeTruthy());
    (container.querySelector('[data-call-id="spawn"] > button') as HTMLButtonElement).click();
    const link = await waitFor(() => {
      const found = container.querySelector<HTMLButtonElement>('[data-session-link="child"]');
      expect(found).toBeTruthy();
      return found!;
    });
    link.click();
    await waitFor(() => expect(container.querySelector('[data-call-id="parent-read"]')).toBeNull());
    expect(container.querySelector('[data-call-id="child-read"]')).toBeTruthy();
  });
});
