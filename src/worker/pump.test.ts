import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { pump } from './pump';
import type { LoaderEvent, SessionDelta } from './protocol';

const ESC = readFileSync(new URL('../../fixtures/grok/esc-interrupt.updates.jsonl', import.meta.url));

/** A stream the test feeds by hand, so "before the end" is a state, not a race. */
function manualStream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  return { stream, push: (b: Uint8Array) => ctl.enqueue(b), close: () => ctl.close() };
}

function collect() {
  const events: LoaderEvent[] = [];
  const deltas = () => events.filter((e): e is { type: 'delta'; delta: SessionDelta } => e.type === 'delta').map((e) => e.delta);
  return { events, deltas, emit: (e: LoaderEvent) => events.push(e) };
}

describe('pump', () => {
  it('sends the first rows before the input has ended', async () => {
    const s = manualStream();
    const c = collect();
    const lines = ESC.toString('utf8').split('\n');
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0 });
    s.push(new TextEncoder().encode(lines.slice(0, 2).join('\n') + '\n'));
    await vi.waitFor(() => expect(c.deltas().length).toBeGreaterThan(0), { timeout: 15_000 });
    const early = c.deltas();
    expect(early.length).toBeGreaterThan(0);
    expect(early.flatMap((d) => d.items).length).toBeGreaterThan(0);
    expect(early.at(-1)?.ended).toBe(false);
    expect(early.at(-1)?.calls.map((x) => x.label)).toContain('Run Command');
    s.push(new TextEncoder().encode(lines.slice(2).join('\n')));
    s.close();
    await done;
    expect(c.events.at(-1)).toEqual({ type: 'done' });
    const last = c.deltas().at(-1);
    expect(last?.ended).toBe(true);
    expect(last?.counts.lines).toBe(10);
  });

  it('stops on cancel, keeps what was read and ends the session so open calls read as unfinished', async () => {
    const s = manualStream();
    const c = collect();
    const ac = new AbortController();
    const lines = ESC.toString('utf8').split('\n');
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, ac.signal, { throttleMs: 0 });
    s.push(new TextEncoder().encode(lines.slice(0, 3).join('\n') + '\n'));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(3), { timeout: 15_000 });
    ac.abort();
    s.push(new TextEncoder().encode('{}\n'));
    await done;
    expect(c.events.at(-1)).toEqual({ type: 'cancelled' });
    const all = c.deltas();
    expect(all.at(-1)?.ended).toBe(true);
    expect(all.at(-1)?.counts.lines).toBe(3);
  });

  it('reports progress in bytes and records for a blob', async () => {
    const c = collect();
    await pump({ kind: 'blob', blob: new Blob([ESC]) }, c.emit, new AbortController().signal);
    const last = c.deltas().at(-1);
    expect(last?.progress).toEqual({ bytesRead: ESC.byteLength, totalBytes: ESC.byteLength, records: 10 });
  });

  it('reads parsed records and pasted text the same way as bytes', async () => {
    const lines = ESC.toString('utf8').trim().split('\n');
    const a = collect();
    await pump({ kind: 'records', records: lines.map((l) => JSON.parse(l) as unknown) }, a.emit, new AbortController().signal);
    const b = collect();
    await pump({ kind: 'text', text: ESC.toString('utf8') }, b.emit, new AbortController().signal);
    const calls = (d: SessionDelta[]) => [...new Map(d.flatMap((x) => x.calls).map((x) => [x.key, [x.id, x.label, x.subject]])).values()];
    expect(calls(a.deltas())).toEqual(calls(b.deltas()));
    expect(a.deltas().at(-1)?.counts.events).toBe(b.deltas().at(-1)?.counts.events);
  });

  it('turns an HTTP error or an HTML page into an error event, not a session', async () => {
    const fake = (status: number, type: string) => () => Promise.resolve(new Response('<html></html>', { status, headers: { 'content-type': type } }));
    const a = collect();
    await pump({ kind: 'url', url: 'http://x/missing.jsonl' }, a.emit, new AbortController().signal, { fetch: fake(404, 'text/plain') });
    expect(a.events.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('404') as unknown });
    const b = collect();
    await pump({ kind: 'url', url: 'http://x/index' }, b.emit, new AbortController().signal, { fetch: fake(200, 'text/html; charset=utf-8') });
    expect(b.events.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('text/html') as unknown });
  });
});

describe('pump, network failures', () => {
  it('explains a failed fetch instead of passing on the bare browser message', async () => {
    const c = collect();
    await pump({ kind: 'url', url: 'http://elsewhere.example/a.jsonl' }, c.emit, new AbortController().signal, {
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    expect(c.events.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('cross-origin') as unknown });
  });
});
