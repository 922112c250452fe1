import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { pump } from './pump';
import { isToolCall, type CallSummary } from '../model';
import type { SessionDelta } from './protocol';
import { collect, manualStream } from './testing/streams';

const historyOf = (call: CallSummary) => (isToolCall(call) ? call.history : []);

const ESC = readFileSync(new URL('../../fixtures/grok/esc-interrupt.updates.jsonl', import.meta.url));

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
    expect(early.at(-1)?.calls.map((x) => x.call.label)).toContain('Run Command');
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
    const calls = (d: SessionDelta[]) => [...new Map(d.flatMap((x) => x.calls).map(({ call: x }) => [x.key, [x.id, x.label, x.subject]])).values()];
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

describe('pump, live sources', () => {
  it('shows a line that arrives on its own, without waiting for more bytes', async () => {
    const s = manualStream();
    const c = collect();
    const lines = ESC.toString('utf8').split('\n');
    // A long throttle: the first line goes out at once, the next one only when the interval is up.
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 200 });
    s.push(new TextEncoder().encode(`${lines[0]}\n`));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(1), { timeout: 15_000 });
    s.push(new TextEncoder().encode(`${lines[1]}\n`));
    // Nothing follows the second line, and the stream stays open.
    await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(2), { timeout: 15_000 });
    expect(c.deltas().at(-1)?.ended).toBe(false);
    s.close();
    await done;
  });

  it('sends each history entry of a call once, however often the call changes', async () => {
    const s = manualStream();
    const c = collect();
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0 });
    const update = (status: string, i: number) =>
      `{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"${status}","title":"step ${i}"}\n`;
    s.push(new TextEncoder().encode('{"sessionUpdate":"tool_call","toolCallId":"c1","title":"run","kind":"execute","status":"pending"}\n'));
    for (let i = 0; i < 5; i++) {
      s.push(new TextEncoder().encode(update('in_progress', i)));
      const want = i + 2;
      await vi.waitFor(() => expect(c.deltas().flatMap((d) => d.calls).reduce((n, p) => n + historyOf(p.call).length, 0)).toBe(want), { timeout: 15_000 });
    }
    s.close();
    await done;
    const patches = c.deltas().flatMap((d) => d.calls);
    // Every patch starts where the previous one ended: together they are the history, once.
    let next = 0;
    for (const p of patches) {
      expect(p.historyFrom).toBe(next);
      next += historyOf(p.call).length;
    }
    expect(next).toBe(6);
    expect(patches.at(-1)?.call.title).toBe('step 4');
  });

  it('keeps what was read when the stream breaks mid-line, and reports the cut line', async () => {
    const s = manualStream();
    const c = collect();
    const lines = ESC.toString('utf8').split('\n');
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0 });
    s.push(new TextEncoder().encode(`${lines.slice(0, 3).join('\n')}\n${lines[3]!.slice(0, 20)}`));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(3), { timeout: 15_000 });
    s.fail(new TypeError('network error'));
    await done;
    expect(c.events.at(-1)).toMatchObject({ type: 'error', message: 'network error' });
    const last = c.deltas().at(-1);
    expect(last?.ended).toBe(true);
    expect(last?.counts).toMatchObject({ lines: 4, bad: 1 });
    expect(c.deltas().flatMap((d) => d.bad).map((b) => b.line)).toEqual([4]);
  });
});

describe('pump, a message streamed in many chunks', () => {
  it('sends what each delta added to the last message, not the message again', async () => {
    const s = manualStream();
    const c = collect();
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0 });
    const chunk = (text: string) => `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${text}"}}\n`;
    const words = ['alpha ', 'beta ', 'gamma ', 'delta'];
    for (const [i, word] of words.entries()) {
      s.push(new TextEncoder().encode(chunk(word)));
      await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(i + 1), { timeout: 15_000 });
    }
    s.close();
    await done;
    const deltas = c.deltas();
    const sentText = deltas.map((d) => [...d.items.map((it) => (it.type === 'message' ? it.text : '')), d.grown?.text ?? ''].join('')).join('');
    // Each word is sent once: the first delta has the message, the others what it grew by.
    expect(sentText).toBe(words.join(''));
    expect(deltas.filter((d) => d.grown).map((d) => d.grown?.textFrom)).toEqual([6, 11, 17]);
  });

  it('keeps sending only what the message grew by across deltas that add no item', async () => {
    const s = manualStream();
    const c = collect();
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0 });
    const chunk = (text: string) => `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${text}"}}\n`;
    const words = ['alpha ', 'beta ', 'gamma '];
    let lines = 0;
    for (const line of [chunk(words[0]!), 'not json\n', chunk(words[1]!), 'not json\n', chunk(words[2]!)]) {
      s.push(new TextEncoder().encode(line));
      lines++;
      await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(lines), { timeout: 15_000 });
    }
    s.close();
    await done;
    const deltas = c.deltas();
    // A delta with only a bad line in it sends no item; the message after it is still sent as what it grew by.
    expect(deltas.some((d) => d.items.length === 0 && !d.grown && d.bad.length === 1)).toBe(true);
    const sentText = deltas.map((d) => [...d.items.map((it) => (it.type === 'message' ? it.text : '')), d.grown?.text ?? ''].join('')).join('');
    expect(sentText).toBe(words.join(''));
  });
});
