import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createInThreadLoader } from '../worker/loader';
import { pump } from '../worker/pump';
import { collect, manualStream } from '../worker/testing/streams';
import { createSessionController } from './sessionController';
import { createSessionStore } from './createSessionStore';
import { agentMessage, delta, loadedStore } from './testing/stores';
import { ingest, isToolCall } from '../model';

const GEMINI = readFileSync(new URL('../../fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl', import.meta.url), 'utf8');
const CODEX = readFileSync(new URL('../../fixtures/native/codex-acp.acp.jsonl', import.meta.url), 'utf8');
const ESC = readFileSync(new URL('../../fixtures/grok/esc-interrupt.updates.jsonl', import.meta.url), 'utf8');

const loaded = (text: string) => loadedStore(text);

describe('session store', () => {
  it('holds the session read through the in-thread loader, with counts by label and status', async () => {
    const store = await loaded(GEMINI);
    const s = store.getSnapshot();
    expect(s.load.state).toBe('done');
    expect(s.calls.size).toBe(3);
    expect(s.facets.labels).toEqual([
      { label: 'Edit', count: 1 },
      { label: 'Run Command', count: 1 },
      { label: 'Write', count: 1 },
    ]);
    expect(s.facets.statuses.done).toBe(3);
    expect(s.shownRows.length).toBe(s.items.size);
  });

  it('keeps usage reports out of the rows and holds each session\'s latest for the meter (codex-acp sends one after every call)', async () => {
    const store = await loaded(CODEX);
    const s = store.getSnapshot();
    const usageItems = [...s.items].filter((it) => it.type === 'usage').length;
    expect(usageItems).toBe(9);
    expect(s.shownRows.length).toBe(s.items.size - 9);
    expect(s.shownRows.some((i) => s.items.get(i)?.type === 'usage')).toBe(false);
    expect([...s.usage.values()]).toEqual([{ reports: 9, context: { used: 120, size: 258400 }, inputTokens: 0, outputTokens: 0 }]);
    // Accounting is the model's: the reports are still events.
    expect(s.counts.events).toBe(46);
    store.setFilter({ sessions: [[...s.usage.keys()][0] ?? ''] });
    const one = store.getSnapshot();
    expect(one.shownRows.length).toBeGreaterThan(0);
    expect(one.shownRows.some((i) => one.items.get(i)?.type === 'usage')).toBe(false);
  });

  it("adds up a native log's token reports, each response once though its entries repeat it (replaced reports are taken back)", async () => {
    const native = readFileSync(new URL('../../fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl', import.meta.url), 'utf8');
    // Read a line at a time, so a response's later entries replace its report after it was counted.
    const store = await loadedStore(native, { loader: { maxRecordsPerDelta: 1 } });
    const [summary] = [...store.getSnapshot().usage.values()];
    expect(summary).toMatchObject({ reports: 11, inputTokens: 1100, outputTokens: 220 });
    expect(summary?.context).toBeUndefined();
  });

  it('shows calls still open at the end as unfinished', async () => {
    const s = (await loaded(ESC)).getSnapshot();
    expect(s.facets.statuses.unfinished).toBe(1);
  });

  it('filters by label, status and text, and keeps a new snapshot per change', async () => {
    const store = await loaded(GEMINI);
    const before = store.getSnapshot();
    store.setFilter({ labels: ['Run Command'] });
    const after = store.getSnapshot();
    // The snapshot handed out before the change still shows what it showed.
    expect(before.filter.labels).toEqual([]);
    expect(before.shownRows.length).toBe(before.items.size);
    expect(after.shownRows.length).toBe(1);
    expect(after.shownRows.map((i) => after.items.get(i)?.type)).toEqual(['call']);
    store.setFilter({ labels: [], statuses: ['failed'] });
    expect(store.getSnapshot().shownRows).toEqual([]);
    store.setFilter({ statuses: [], text: 'HELLO, WORLD' });
    const hits = store.getSnapshot();
    // Text finds the edit (its diff) and the agent's closing message.
    expect(hits.shownRows.length).toBeGreaterThanOrEqual(2);
    expect(hits.shownRows.some((i) => hits.items.get(i)?.type === 'call')).toBe(true);
    expect(hits.shownRows.some((i) => hits.items.get(i)?.type === 'message')).toBe(true);
  });

  it('starts from an initial filter, ignoring statuses it does not know', async () => {
    const store = await loadedStore(GEMINI, { initialFilter: { labels: ['Edit', 'Write'], statuses: ['bogus' as never] } });
    const s = store.getSnapshot();
    expect(s.filter).toEqual({ labels: ['Edit', 'Write'], statuses: [], text: '' });
    expect(s.shownRows.length).toBe(2);
  });

  it('finds a call by its id and reveals it through a filter that hides it', async () => {
    const store = await loaded(GEMINI);
    const idx = store.itemOfCallId('run_shell_command__run_shell_command_1795981971041_0');
    expect(idx).not.toBeNull();
    store.setFilter({ labels: ['Edit'] });
    const pos = store.revealItem(idx ?? -1);
    const s = store.getSnapshot();
    expect(s.filter.labels).toEqual([]);
    expect(s.shownRows[pos]).toBe(idx);
  });

  it('maps an input line to its row, or the nearest row after it', async () => {
    const store = await loaded(GEMINI);
    const s = store.getSnapshot();
    const item = s.items.get(4);
    expect(store.itemNearLine(item?.loc.line ?? 0)).toBe(4);
    expect(store.itemNearLine(10_000)).toBe(s.items.size - 1);
  });

  it('notifies subscribers and tracks opened rows', async () => {
    const store = await loaded(GEMINI);
    let calls = 0;
    const off = store.subscribe(() => calls++);
    store.toggleExpanded(3);
    expect(store.getSnapshot().expanded.has(3)).toBe(true);
    store.toggleExpanded(3);
    expect(store.getSnapshot().expanded.has(3)).toBe(false);
    off();
    store.toggleExpanded(3);
    expect(calls).toBe(2);
  });

  it('reports a load that cannot be read as an error in the store and to the caller', async () => {
    const store = createSessionStore();
    const ctl = createSessionController(store, () =>
      createInThreadLoader({ fetch: () => Promise.resolve(new Response('no', { status: 500, statusText: 'Server Error' })) }),
    );
    await expect(ctl.load({ kind: 'url', url: 'http://x/a.jsonl' })).rejects.toThrow('500');
    expect(store.getSnapshot().load).toMatchObject({ state: 'error', error: expect.stringContaining('500') as unknown });
  });
});

const loc = (line: number) => ({ line, offset: 0, length: 0 });

describe('a load whose loader throws (a worker that died)', () => {
  it('ends as an error in the store, the one place the viewer reads its load state from, and rejects', async () => {
    const store = createSessionStore();
    const ctl = createSessionController(store, () => ({ ...createInThreadLoader(), load: () => Promise.reject(new Error('the parser stopped')) }));
    await expect(ctl.load({ kind: 'text', text: '{}' })).rejects.toThrow('the parser stopped');
    expect(store.getSnapshot().load).toMatchObject({ state: 'error', error: 'the parser stopped' });
  });
});

describe('session store, as a session streams in', () => {
  it('shows an agent message under a search once it has grown to match', () => {
    const store = createSessionStore({ initialFilter: { text: 'world' } });
    store.applyDelta(delta({ itemsFrom: 0, items: [agentMessage('hello ')] }));
    expect(store.getSnapshot().shownRows).toEqual([]);
    // The same message, grown: the pump replaces the last item.
    store.applyDelta(delta({ itemsFrom: 0, items: [agentMessage('hello world')] }));
    expect(store.getSnapshot().shownRows).toEqual([0]);
  });

  it('takes back a usage report a later one replaced (a native log re-sends a response\'s usage from its last entry)', () => {
    const store = createSessionStore();
    const usage = (line: number, inputTokens: number, outputTokens: number) => ({ type: 'usage' as const, loc: loc(line), sessionId: 's', usage: { inputTokens, outputTokens } });
    store.applyDelta(delta({ itemsFrom: 0, items: [agentMessage('hi'), usage(2, 100, 1)] }));
    expect(store.getSnapshot().usage.get('s')).toMatchObject({ reports: 1, inputTokens: 100, outputTokens: 1 });
    // The response's last entry says 20 out: its report is replaced, and one more response follows.
    store.applyDelta(delta({ itemsFrom: 1, items: [usage(3, 100, 20), agentMessage('more'), usage(5, 100, 20)] }));
    const s = store.getSnapshot();
    expect(s.usage.get('s')).toMatchObject({ reports: 2, inputTokens: 200, outputTokens: 40 });
    expect(s.shownRows.map((i) => s.items.get(i)?.type)).toEqual(['message', 'message']);
  });

  it('grows the last message from what a delta adds to it, leaving earlier snapshots as they were', () => {
    const store = createSessionStore({ initialFilter: { text: 'world' } });
    store.applyDelta(delta({ itemsFrom: 0, items: [agentMessage('hello ')] }));
    const before = store.getSnapshot();
    store.applyDelta(delta({ grown: { index: 0, textFrom: 6, text: 'world', blocksFrom: 0, blocks: [] }, itemsFrom: 1, items: [] }));
    const after = store.getSnapshot();
    expect(after.items.get(0)).toMatchObject({ type: 'message', text: 'hello world' });
    expect(after.shownRows).toEqual([0]);
    expect(before.items.get(0)).toMatchObject({ text: 'hello ' });
    expect(before.shownRows).toEqual([]);
  });

  it('never changes a snapshot it has handed out', async () => {
    const text = GEMINI;
    const half = text.indexOf('\n', text.length >> 1) + 1;
    const store = createSessionStore();
    const snaps: ReturnType<typeof store.getSnapshot>[] = [];
    store.subscribe(() => snaps.push(store.getSnapshot()));
    const { stream, push, close } = (() => {
      let ctl!: ReadableStreamDefaultController<Uint8Array>;
      const st = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
      return { stream: st, push: (t: string) => ctl.enqueue(new TextEncoder().encode(t)), close: () => ctl.close() };
    })();
    const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0 }));
    const done = ctl.load({ kind: 'stream', stream });
    push(text.slice(0, half));
    await vi.waitFor(() => expect(store.getSnapshot().items.size).toBeGreaterThan(0), { timeout: 15_000 });
    const early = store.getSnapshot();
    const seen = { items: early.items.size, calls: early.calls.size, lines: early.counts.lines, sessions: early.sessionIds.size, view: early.shownRows.length };
    const firstCall = early.calls.first();
    const firstHistory = firstCall && isToolCall(firstCall) ? firstCall.history.length : undefined;
    push(text.slice(half));
    close();
    await done;
    const late = store.getSnapshot();
    expect(late.items.size).toBeGreaterThan(seen.items);
    // What the early snapshot held is exactly what it held when it was handed out.
    expect({ items: early.items.size, calls: early.calls.size, lines: early.counts.lines, sessions: early.sessionIds.size, view: early.shownRows.length }).toEqual(seen);
    expect(early.calls.first()).toBe(firstCall);
    expect(firstCall && isToolCall(firstCall) ? firstCall.history.length : undefined).toBe(firstHistory);
    expect(snaps.length).toBeGreaterThan(0);
  });
});

describe('light reading', () => {
  it('completes a call read light when it is opened', async () => {
    const store = createSessionStore();
    const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0, lightFromBytes: 0 }));
    await ctl.load({ kind: 'blob', blob: new Blob([GEMINI]) });
    const edit = [...store.getSnapshot().calls.values()].find((c) => c.id.startsWith('replace__replace'));
    expect(edit?.detail).toBe('light');
    // The page holds only what the row needs until the call is opened.
    expect(edit && isToolCall(edit)).toBe(false);
    ctl.needDetail(edit!);
    await vi.waitFor(() => expect(store.getSnapshot().calls.get(edit!.key)?.detail).toBe('full'), { timeout: 15_000 });
    const full = store.getSnapshot().calls.get(edit!.key);
    if (!full || !isToolCall(full)) throw new Error('the opened call was not read whole');
    expect(full.content?.some((c) => c.type === 'diff')).toBe(true);
    expect(full.history.length).toBeGreaterThan(0);
  });
});

describe('light reading an agent\'s own log', () => {
  it('leaves the entries it shows by their type in the file, and reads each back as a full read keeps it', async () => {
    const bytes = readFileSync(new URL('../../fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl', import.meta.url));
    const store = createSessionStore();
    const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0, lightFromBytes: 0 }));
    await ctl.load({ kind: 'blob', blob: new Blob([bytes]) });
    const full = await ingest(bytes, { detail: 'full' });
    const left = store.getSnapshot().items.toArray().flatMap((item, index) => (item.type === 'event' && item.raw === undefined ? [{ item, index }] : []));
    expect(left.length).toBeGreaterThan(10);
    for (const { item, index } of left) {
      const kept = full.items[index];
      expect(await ctl.readRecord(item.loc)).toEqual({ ok: true, value: kept?.type === 'event' ? kept.raw : 'not an event' });
    }
  });

  it('says which line could not be read again, when the file changed', async () => {
    const bytes = readFileSync(new URL('../../fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl', import.meta.url));
    const store = createSessionStore();
    const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0, lightFromBytes: 0 }));
    await ctl.load({ kind: 'blob', blob: new Blob([bytes]) });
    const event = store.getSnapshot().items.find((item) => item.type === 'event' && item.raw === undefined)!;
    // The same place in a file that now holds something else.
    await ctl.load({ kind: 'blob', blob: new Blob([new Uint8Array(bytes.length).fill(0x20)]) });
    const read = await ctl.readRecord(event.loc);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toContain(`line ${event.loc.line}`);
  });
});

describe('light reading, when the file cannot be read again', () => {
  it('records why, instead of waiting forever', async () => {
    // A file that was readable once, and then (moved, changed on disk) no longer is.
    class VanishingBlob extends Blob {
      override slice(): Blob {
        return { arrayBuffer: () => Promise.reject(new Error('the file changed on disk')) } as unknown as Blob;
      }
    }
    const store = createSessionStore();
    const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0, lightFromBytes: 0 }));
    await ctl.load({ kind: 'blob', blob: new VanishingBlob([GEMINI]) });
    const edit = [...store.getSnapshot().calls.values()].find((c) => c.id.startsWith('replace__replace'));
    ctl.needDetail(edit!);
    await vi.waitFor(() => expect(store.getSnapshot().detailErrors.get(edit!.key)).toContain('changed on disk'));
    expect(store.getSnapshot().calls.get(edit!.key)?.detail).toBe('light');
  });
});

describe('a streamed message, applied', () => {
  it('shows the message whole when it grew and an item followed it between two deltas', async () => {
    const s = manualStream();
    const c = collect();
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0 });
    const chunk = (text: string) => `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${text}"}}\n`;
    s.push(new TextEncoder().encode(chunk('hello ')));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(1), { timeout: 15_000 });
    // The message grows and a call follows it before the next delta.
    s.push(new TextEncoder().encode(chunk('world') + '{"sessionUpdate":"tool_call","toolCallId":"c1","title":"ls","kind":"execute","status":"in_progress"}\n'));
    s.close();
    await done;
    const store = createSessionStore();
    for (const d of c.deltas()) store.applyDelta(d);
    const items = store.getSnapshot().items.toArray();
    expect(items.map((it) => it.type)).toEqual(['message', 'call']);
    expect(items[0]?.type === 'message' && items[0].text).toBe('hello world');
  });
});

describe('the focused row', () => {
  it('stays on the same row when a live filter drops rows above it', async () => {
    const s = manualStream();
    const c = collect();
    const store = createSessionStore({ initialFilter: { statuses: ['running'] } });
    const done = pump({ kind: 'stream', stream: s.stream }, (e) => {
      c.emit(e);
      if (e.type === 'delta') store.applyDelta(e.delta);
    }, new AbortController().signal, { throttleMs: 0 });
    const update = (u: object) => new TextEncoder().encode(JSON.stringify({ sessionUpdate: 'tool_call', kind: 'execute', ...u }) + '\n');
    for (const id of ['c1', 'c2', 'c3']) s.push(update({ toolCallId: id, title: id, status: 'in_progress' }));
    await vi.waitFor(() => expect(store.getSnapshot().shownRows).toHaveLength(3), { timeout: 15_000 });
    store.setCursor(2);
    const focused = store.getSnapshot().shownRows[2];
    expect(focused).toBe(store.itemOfCallId('c3'));
    // The first call ends: the filter no longer keeps it, and the rows below it move up one.
    s.push(new TextEncoder().encode(JSON.stringify({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' }) + '\n'));
    await vi.waitFor(() => expect(store.getSnapshot().shownRows).toHaveLength(2), { timeout: 15_000 });
    const snap = store.getSnapshot();
    expect(snap.cursor).not.toBeNull();
    expect(snap.shownRows[snap.cursor!]).toBe(focused);
    s.close();
    await done;
  });
});

describe('reset', () => {
  it('gives back the state a new store starts in, every field (the filter, a choice of the viewer, is kept)', async () => {
    const store = await loaded(ESC);
    const s = store.getSnapshot();
    const key = s.calls.keySeq().first()!;
    const id = s.calls.get(key)!.id;
    store.setCursor(1);
    store.setExpanded(s.shownRows[0]!, true);
    store.setDetailError(key, 'gone');
    store.setSearchHits('x', [key]);
    store.setFilter({ text: 'x' });
    store.reset();
    const fresh = createSessionStore({ initialFilter: { text: 'x' } });
    const { version: _a, arrivedAt: arrivedAfter, ...after } = store.getSnapshot();
    const { version: _b, arrivedAt: _c, ...initial } = fresh.getSnapshot();
    expect(after).toEqual(initial);
    expect(arrivedAfter(s.calls.get(key)!)).toBeUndefined();
    expect(store.revisionOf(key)).toBe(0);
    expect(store.itemOfCallId(id)).toBeNull();
    expect(store.itemOfCallKey(key)).toBeNull();
    expect(store.itemNearLine(1)).toBeNull();
  });
});

describe('bookkeeping runs while a log is read', () => {
  const bookkeeping = (line: number) => ({ type: 'event' as const, loc: { line, offset: 0, length: 0 }, name: 'progress', raw: {}, sessionId: null, bookkeeping: true as const });
  it('folds runs as they grow, and unfolds an entry a later delta replaced', () => {
    const store = createSessionStore();
    store.applyDelta(delta({ itemsFrom: 0, items: [agentMessage('a', 1), bookkeeping(2), bookkeeping(3)] }));
    expect([store.getSnapshot().shownRows, [...store.getSnapshot().bookkeeping]]).toEqual([[0, 1], [[1, [1, 2]]]]);
    // The last entry replaced by a message (a delta hands out the tail again), and more read after it.
    store.applyDelta(delta({ itemsFrom: 2, items: [agentMessage('b', 3), bookkeeping(4)] }));
    expect([store.getSnapshot().shownRows, [...store.getSnapshot().bookkeeping]]).toEqual([[0, 1, 2, 3], [[1, [1]], [3, [3]]]]);
  });
});
