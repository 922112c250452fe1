// @vitest-environment jsdom
// The stats and sessions views on a live store: they follow the session as it arrives, and their
// numbers click through to the transcript's filter.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionController } from '../../store/sessionController';
import { createSessionStore, type SessionStore } from '../../store/createSessionStore';
import { useSessionSnapshot } from '../useStore';
import type { Filter } from '../../store/filter';
import { SessionsView } from './SessionsView';
import { StatsView } from './StatsView';
import { UsageView } from './UsageView';
import { ViewTabs } from './ViewTabs';

afterEach(cleanup);

const CODEX = readFileSync(join(import.meta.dirname, '../../../fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl'), 'utf8');

/** A store reading `text` as a stream that is fed by the test: `feed` pushes more, `end` closes it. */
function liveStore(): { store: SessionStore; feed: (text: string) => void; end: () => void; done: Promise<void> } {
  const store = createSessionStore();
  // Without Worker (jsdom) the controller reads in-thread, as the viewer does under a strict CSP.
  const ctl = createSessionController(store);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const done = ctl.load({ kind: 'stream', stream });
  return { store, feed: (text) => controller.enqueue(new TextEncoder().encode(text)), end: () => controller.close(), done };
}

function Live({ store, view, onShowCalls }: { store: SessionStore; view: 'stats' | 'sessions'; onShowCalls: (f: Partial<Filter>) => void }) {
  const snap = useSessionSnapshot(store);
  return view === 'stats' ? <StatsView snap={snap} store={store} onShowCalls={onShowCalls} onOpenCall={() => undefined} /> : <SessionsView snap={snap} store={store} onShowCalls={onShowCalls} onOpenCall={() => undefined} />;
}

const lines = CODEX.split('\n');
const half = lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n';
const rest = lines.slice(Math.floor(lines.length / 2)).join('\n');

describe('insight views on a live session', () => {
  it('stats count the calls read so far, and grow as more arrive', async () => {
    const { store, feed, end, done } = liveStore();
    const onShowCalls = vi.fn();
    render(<Live store={store} view="stats" onShowCalls={onShowCalls} />);
    act(() => feed(half));
    const callsSoFar = () => store.getSnapshot().calls.size;
    await waitFor(() => expect(callsSoFar()).toBeGreaterThan(0));
    await waitFor(() => expect(screen.getByText('All').closest('tr')?.getAttribute('data-calls')).toBe(String(callsSoFar())));
    const before = callsSoFar();
    await act(async () => {
      feed(rest);
      end();
      await done;
    });
    expect(callsSoFar()).toBeGreaterThan(before);
    await waitFor(() => expect(screen.getByText('All').closest('tr')?.getAttribute('data-calls')).toBe(String(callsSoFar())));

    // A label's call count shows those calls in the transcript.
    const row = document.querySelector('tbody tr[data-label="Run Command"]');
    expect(row).not.toBeNull();
    fireEvent.click(within(row as HTMLElement).getAllByRole('button')[0] as HTMLElement);
    expect(onShowCalls).toHaveBeenCalledWith({ labels: ['Run Command'], statuses: [], text: '' });
  });

  it('a session of one call without times says so in the singular', async () => {
    const { store, feed, end, done } = liveStore();
    render(<Live store={store} view="stats" onShowCalls={() => undefined} />);
    await act(async () => {
      feed('{"sessionUpdate":"tool_call","toolCallId":"only","title":"ls","kind":"execute","status":"completed"}\n');
      end();
      await done;
    });
    await waitFor(() => expect(screen.getByText('All').closest('tr')?.textContent).toContain('the call has no times'));
  });

  it('the session list adds sessions as they appear', async () => {
    const { store, feed, end, done } = liveStore();
    render(<Live store={store} view="sessions" onShowCalls={() => undefined} />);
    act(() => feed(half));
    await waitFor(() => expect(document.querySelectorAll('[data-session-id]').length).toBe(store.getSnapshot().sessionIds.size));
    const early = document.querySelectorAll('[data-session-id]').length;
    await act(async () => {
      feed(rest);
      end();
      await done;
    });
    await waitFor(() => expect(document.querySelectorAll('[data-session-id]')).toHaveLength(74));
    expect(early).toBeLessThan(74);
  });
});

describe('stats lists', () => {
  it('a failed call is named by its title when it has no subject, and with no time says "failed" with no empty duration after it', async () => {
    const rpc = (update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } });
    const store = createSessionStore();
    await createSessionController(store).load({
      kind: 'text',
      text: [
        rpc({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'npm test', kind: 'execute', status: 'failed' }),
        rpc({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'ls', kind: 'execute', status: 'completed' }),
      ].join('\n'),
    });
    render(<Live store={store} view="stats" onShowCalls={() => undefined} />);
    const failed = await screen.findByTestId('failed-calls');
    expect(failed.querySelector('[data-status]')?.textContent).toBe('failed');
    expect(within(failed).getByRole('button').textContent).toContain('npm test');
  });
});

describe('ViewTabs', () => {
  it('arrow keys, Home and End move along the tabs', () => {
    const onChange = vi.fn();
    render(<ViewTabs view="stats" onChange={onChange} />);
    const stats = screen.getByRole('tab', { name: 'Stats' });
    expect(stats.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(stats, { key: 'ArrowRight' });
    fireEvent.keyDown(stats, { key: 'ArrowLeft' });
    fireEvent.keyDown(stats, { key: 'End' });
    fireEvent.keyDown(stats, { key: 'Home' });
    expect(onChange.mock.calls.map((c) => c[0] as string)).toEqual(['sessions', 'timeline', 'usage', 'transcript']);
  });
});

describe('sub-agent tree', () => {
  it('nests a child under its parent with its counts and status; choosing it shows its transcript', async () => {
    const rpc = (sessionId: string, update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
    const store = createSessionStore();
    await createSessionController(store).load({
      kind: 'text',
      text: [
        rpc('parent', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'delegating' } }),
        rpc('parent', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Search the docs' }),
        rpc('child', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'grep', kind: 'search', status: 'failed' }),
        rpc('child', { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'grep', kind: 'search', status: 'completed' }),
        rpc('parent', { sessionUpdate: 'subagent_finished', sessionId: 'child' }),
        rpc('parent', { sessionUpdate: 'subagent_update', sessionId: 'only-child', title: 'Read the notes' }),
        rpc('only-child', { sessionUpdate: 'tool_call', toolCallId: 'c3', title: 'cat', kind: 'read', status: 'completed' }),
      ].join('\n'),
    });
    const onShowCalls = vi.fn();
    render(<Live store={store} view="sessions" onShowCalls={onShowCalls} />);
    const tree = await screen.findByTestId('session-tree');
    const child = tree.querySelector('[data-tree-session-id="parent"] [data-tree-session-id="child"]');
    expect(child?.getAttribute('data-status')).toBe('failed');
    expect(child?.textContent).toContain('2 calls · 1 failed');
    expect(tree.querySelector('[data-tree-session-id="only-child"]')?.textContent).toContain('1 call · ');
    fireEvent.click(within(child as HTMLElement).getByRole('button', { name: 'Search the docs' }));
    expect(onShowCalls).toHaveBeenCalledWith({ sessions: ['child'], labels: [], statuses: [], text: '' });
  });
});

describe('usage', () => {
  it('lists each turn\'s tokens in a table even where no chart can be drawn', async () => {
    const store = createSessionStore();
    await createSessionController(store).load({ kind: 'text', text: readFileSync(join(import.meta.dirname, '../../../fixtures/grok/esc-interrupt.updates.jsonl'), 'utf8') });
    render(<UsageView snap={store.getSnapshot()} dark={false} />);
    const rows = within(screen.getByRole('table', { name: 'Usage per turn' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('13,463'), expect.stringContaining('13,599')]);
    expect(rows[0]?.textContent).toContain('cancelled');
  });
});
