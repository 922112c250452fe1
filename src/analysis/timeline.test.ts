// Where the timeline puts each call: lanes per session, rows where calls overlap, order when the
// input has no times, and which bar a pointer is over.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { generate } from '../../scripts/gen-session.mjs';
import { ingest } from '../model/index';
import { BAR_STATUS, barAt, timelineLayout } from './timeline';
import type { Session } from '../model/session';

const ROOT = join(import.meta.dirname, '../..');
const layoutOf = (s: Session) => timelineLayout({ calls: s.calls.values(), items: s.items, sessionIds: s.sessionIds, ended: s.ended });

function capture(lines: [number, string, object][]): string {
  return lines
    .map(([t, sessionId, update]) => JSON.stringify({ t_ms: t, dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } } }))
    .join('\n');
}
const started = (id: string, kind = 'read') => ({ sessionUpdate: 'tool_call', toolCallId: id, title: id, kind, status: 'in_progress' });
const done = (id: string, status = 'completed') => ({ sessionUpdate: 'tool_call_update', toolCallId: id, status });

describe('timelineLayout', () => {
  test('bars run from start to end on the input time; overlapping calls stack into rows; sessions get lanes', async () => {
    const session = await ingest(
      capture([
        [0, 'a', started('a1')],
        [10, 'a', started('a2', 'execute')],
        [30, 'a', done('a1')],
        [40, 'a', started('a3')],
        [50, 'a', done('a2', 'failed')],
        [60, 'a', done('a3')],
        [5, 'b', started('b1')],
        [70, 'b', done('b1')],
      ]),
    );
    const layout = layoutOf(session);
    expect(layout.axis).toBe('time');
    expect(layout.lanes.map((l) => [l.sessionId, l.calls, l.rows])).toEqual([['a', 3, 2], ['b', 1, 1]]);
    const bar = (id: string) => layout.ids.indexOf(id);
    expect([layout.start[bar('a1')], layout.end[bar('a1')]]).toEqual([0, 30]);
    // a2 overlaps a1 (second row); a3 starts after a1 ended (back on the first).
    expect([layout.row[bar('a1')], layout.row[bar('a2')], layout.row[bar('a3')], layout.row[bar('b1')]]).toEqual([0, 1, 0, 2]);
    expect(BAR_STATUS[layout.status[bar('a2')] ?? -1]).toBe('failed');
    expect(layout.labels[layout.label[bar('a2')] ?? -1]).toBe('Run Command');
    expect([layout.min, layout.max]).toEqual([0, 70]);
  });

  test('a call left open runs to the last time the input gives, and is unfinished once the input has ended', async () => {
    const session = await ingest(capture([[100, 's', started('open')], [400, 's', started('later')], [450, 's', done('later')]]));
    const layout = layoutOf(session);
    const open = layout.ids.indexOf('open');
    expect(layout.end[open]).toBe(450);
    expect(BAR_STATUS[layout.status[open] ?? -1]).toBe('unfinished');
  });

  test('without times, calls are laid out one slot each in order, and no duration is invented', async () => {
    const session = await ingest(readFileSync(join(ROOT, 'fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl')));
    const layout = layoutOf(session);
    expect(layout.axis).toBe('order');
    expect(layout.keys).toHaveLength(session.calls.size);
    const order = [...session.calls.values()].map((c) => c.key);
    for (let i = 0; i < layout.keys.length; i++) expect((layout.end[i] ?? 0) - (layout.start[i] ?? 0)).toBe(1);
    // Slot = order of first appearance.
    expect(order.map((k) => layout.start[layout.keys.indexOf(k)])).toEqual(order.map((_, i) => i));
    expect(layout.lanes).toHaveLength(74);
  });

  test('a permission wait lies inside its call, from the request to the update after the answer', async () => {
    const lines = [
      { t_ms: 0, dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: started('p', 'edit') } } },
      { t_ms: 20, dir: 'agent->client', msg: { jsonrpc: '2.0', id: 5, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'p' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] } } },
      { t_ms: 900, dir: 'client->agent', msg: { jsonrpc: '2.0', id: 5, result: { outcome: { outcome: 'selected', optionId: 'ok' } } } },
      { t_ms: 905, dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: done('p') } } },
    ];
    const layout = layoutOf(await ingest(lines.map((l) => JSON.stringify(l)).join('\n')));
    expect([layout.waitStart[0], layout.waitEnd[0]]).toEqual([20, 905]);
  });

  test('a generated session lays out every call once, each row sorted by start', async () => {
    const session = await ingest(generate({ format: 'grok', calls: 3000, seed: 3 }).text);
    const layout = layoutOf(session);
    expect(layout.keys).toHaveLength(session.calls.size);
    expect(new Set(layout.keys).size).toBe(session.calls.size);
    const unsorted = layout.rowBars.filter((bars) => bars.some((b, k) => k > 0 && (layout.start[b] ?? 0) < (layout.start[bars[k - 1] ?? 0] ?? 0)));
    expect(unsorted).toHaveLength(0);
    expect(layout.rowBars.reduce((n, bars) => n + bars.length, 0)).toBe(session.calls.size);
  });
});

describe('barAt', () => {
  test('finds the bar under a point, within the slack for thin bars, and nothing in a gap', async () => {
    const session = await ingest(capture([[0, 's', started('x')], [10, 's', done('x')], [100, 's', started('y')], [101, 's', done('y')]]));
    const layout = layoutOf(session);
    const x = layout.ids.indexOf('x');
    const y = layout.ids.indexOf('y');
    expect(barAt(layout, 0, 5, 0)).toBe(x);
    expect(barAt(layout, 0, 50, 2)).toBeNull();
    expect(barAt(layout, 0, 102, 2)).toBe(y);
    expect(barAt(layout, 0, 104, 2)).toBeNull();
    expect(barAt(layout, 7, 5, 0)).toBeNull();
  });
});

test('without times, the slot is the call ordinal whatever order the calls are given in', async () => {
  const session = await ingest(readFileSync(join(ROOT, 'fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl')));
  const reversed = [...session.calls.values()].reverse();
  const layout = timelineLayout({ calls: reversed, items: session.items, sessionIds: session.sessionIds, ended: true });
  for (const call of reversed) expect(layout.start[layout.keys.indexOf(call.key)]).toBe(call.ordinal);
});
