import { describe, expect, it } from 'vitest';
import { pump } from './pump';
import type { LoaderEvent, SessionDelta } from './protocol';
import { DELTA_PIECE_ENTRIES, splitDelta } from './splitDelta';

const running = (n: number): string =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: `call ${i}`, kind: 'execute', status: 'in_progress' } } }),
  ).join('\n') + '\n';

async function deltasOf(text: string): Promise<SessionDelta[]> {
  const deltas: SessionDelta[] = [];
  await pump({ kind: 'text', text }, (e: LoaderEvent) => void (e.type === 'delta' && deltas.push(e.delta)), new AbortController().signal, { throttleMs: 1e9, maxRecordsPerDelta: 1e9 });
  return deltas;
}

describe('a delta is sent in bounded pieces', () => {
  it('the end of a read that leaves 2,000 calls running turns them all unfinished in pieces the page can take one at a time', async () => {
    const deltas = await deltasOf(running(2000));
    for (const d of deltas) {
      expect(d.items.length).toBeLessThanOrEqual(DELTA_PIECE_ENTRIES);
      expect(d.calls.length).toBeLessThanOrEqual(DELTA_PIECE_ENTRIES);
    }
    // Every call arrives, each once per flush, with its row in order.
    const items = deltas.flatMap((d) => d.items);
    expect(items).toHaveLength(2000);
    expect(deltas.map((d) => d.itemsFrom)).toEqual(deltas.map((_, k) => deltas.slice(0, k).reduce((n, d) => n + d.items.length, 0)));
    const ended = deltas.filter((d) => d.ended);
    expect(new Set(ended.flatMap((d) => d.calls.map((p) => p.call.key))).size).toBe(2000);
  });

  it('pieces joined give the delta back: lists in order, offsets where each piece starts, the grown message first and the hash last', () => {
    const delta = {
      grown: { index: 0, textFrom: 1, text: 'i', blocksFrom: 0, blocks: [] },
      itemsFrom: 1,
      items: Array.from({ length: 7 }, (_, i) => ({ n: i })),
      calls: Array.from({ length: 3 }, (_, i) => ({ n: i })),
      terminals: [],
      counts: { lines: 9, events: 9, unknown: 0, bad: 0 },
      format: 'acp-jsonl',
      chain: null,
      sessionIdsFrom: 2,
      sessionIds: ['a', 'b', 'c', 'd', 'e'],
      badFrom: 0,
      bad: [],
      warningsFrom: 4,
      warnings: [{ line: 1, message: 'w' }],
      ended: true,
      progress: { bytesRead: 1, records: 9 },
      findingsFrom: 3,
      findings: Array.from({ length: 5 }, (_, i) => ({ n: i })),
      contentHash: 'h',
    } as unknown as SessionDelta;
    const pieces = splitDelta(delta, 3);
    expect(pieces).toHaveLength(3);
    expect(pieces.flatMap((p) => p.items)).toEqual(delta.items);
    expect(pieces.flatMap((p) => p.calls)).toEqual(delta.calls);
    expect(pieces.flatMap((p) => p.sessionIds)).toEqual(delta.sessionIds);
    expect(pieces.flatMap((p) => p.findings ?? [])).toEqual(delta.findings);
    expect(pieces.map((p) => p.itemsFrom)).toEqual([1, 4, 7]);
    expect(pieces.map((p) => p.sessionIdsFrom)).toEqual([2, 5, 7]);
    expect(pieces.map((p) => p.findingsFrom)).toEqual([3, 6, 8]);
    expect(pieces.map((p) => p.warningsFrom)).toEqual([4, 5, 5]);
    expect(pieces.map((p) => p.grown !== undefined)).toEqual([true, false, false]);
    expect(pieces.map((p) => p.contentHash)).toEqual([undefined, undefined, 'h']);
    expect(splitDelta(delta, 7)).toEqual([delta]);
  });
});
