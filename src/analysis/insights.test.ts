// The numbers the stats, sessions and usage views show, checked against the generator's answer
// key, the fixtures and small sessions whose times are written out here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FORMATS, generate, type AnswerKey, type GeneratedFormat } from '../../scripts/gen-session.mjs';
import { ingest } from '../model/index';
import { callStats, percentile, sessionSummaries, sessionTree, usageSeries, type SessionNode } from './insights';

const ROOT = join(import.meta.dirname, '../..');
const fixture = (rel: string) => new Uint8Array(readFileSync(join(ROOT, 'fixtures', rel)));

function generated(format: GeneratedFormat, calls: number): { bytes: Uint8Array; key: AnswerKey } {
  const { text, key } = generate({ format, calls, seed: 5 });
  return { bytes: new TextEncoder().encode(text), key };
}

/** Capture lines for one session: each call a tool_call at `start` and a completion at `end`. */
function capture(calls: { id: string; kind: string; start: number; end?: number; failed?: boolean; session?: string }[]): string {
  const lines: { t: number; text: string }[] = [];
  for (const c of calls) {
    const sessionId = c.session ?? 's1';
    const msg = (update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
    lines.push({ t: c.start, text: msg({ sessionUpdate: 'tool_call', toolCallId: c.id, title: c.id, kind: c.kind, status: 'in_progress' }) });
    if (c.end !== undefined) {
      lines.push({ t: c.end, text: msg({ sessionUpdate: 'tool_call_update', toolCallId: c.id, status: c.failed ? 'failed' : 'completed' }) });
    }
  }
  lines.sort((a, b) => a.t - b.t);
  return lines.map((l) => `{"t_ms":${l.t},"dir":"agent->client","msg":${l.text}}`).join('\n');
}

describe('percentile (nearest rank)', () => {
  test('is a value that occurs, with at least p of the values at or below it', () => {
    const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.95)).toBe(100);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});

describe('callStats', () => {
  test.each(FORMATS)('per-label calls and failures of a generated %s session equal the answer key', async (format) => {
    const { bytes, key } = generated(format, 600);
    const session = await ingest(bytes);
    const stats = callStats(session.calls.values(), { ended: true });
    const expected = new Map<string, { calls: number; failed: number }>();
    for (const c of key.calls) {
      const e = expected.get(c.label) ?? { calls: 0, failed: 0 };
      e.calls++;
      if (c.status === 'failed') e.failed++;
      expected.set(c.label, e);
    }
    expect(new Map(stats.labels.map((l) => [l.label, { calls: l.calls, failed: l.failed }]))).toEqual(expected);
    expect(stats.total.calls).toBe(key.calls.length);
    expect(stats.failedTotal).toBe(key.calls.filter((c) => c.status === 'failed').length);
  });

  test('durations: p50, p95, max and total per label; the slowest and failed calls listed', async () => {
    const session = await ingest(
      capture([
        { id: 'r1', kind: 'read', start: 0, end: 10 },
        { id: 'r2', kind: 'read', start: 5, end: 25 },
        { id: 'r3', kind: 'read', start: 30, end: 60 },
        { id: 'r4', kind: 'read', start: 70, end: 470, failed: true },
        { id: 'e1', kind: 'execute', start: 100, end: 1100 },
        { id: 'e2', kind: 'execute', start: 1200 },
      ]),
    );
    const stats = callStats(session.calls.values(), { ended: true, listLimit: 2 });
    const read = stats.labels.find((l) => l.label === 'Read');
    expect(read).toMatchObject({ calls: 4, failed: 1, failedShare: 0.25, timed: 4, p50Ms: 20, p95Ms: 400, maxMs: 400, totalMs: 460 });
    // The call still open has no duration: it is counted, not timed.
    expect(stats.labels.find((l) => l.label === 'Run Command')).toMatchObject({ calls: 2, timed: 1, p50Ms: 1000, maxMs: 1000 });
    expect(stats.slowest.map((c) => c.id)).toEqual(['e1', 'r4']);
    expect(stats.failed.map((c) => c.id)).toEqual(['r4']);
    expect(stats.labels.map((l) => l.label)).toEqual(['Read', 'Run Command']);
  });

  test('a session filter counts only that session', async () => {
    const session = await ingest(
      capture([
        { id: 'a', kind: 'read', start: 0, end: 1, session: 'one' },
        { id: 'b', kind: 'read', start: 2, end: 3, session: 'two' },
        { id: 'c', kind: 'edit', start: 4, end: 5, session: 'two', failed: true },
      ]),
    );
    const stats = callStats(session.calls.values(), { ended: true, sessions: new Set(['two']) });
    expect(stats.total).toMatchObject({ calls: 2, failed: 1 });
    expect(stats.labels.map((l) => [l.label, l.calls])).toEqual([['Edit', 1], ['Read', 1]]);
  });
});

describe('sessionSummaries', () => {
  test('the codex fixture lists its 74 sessions in order, with their calls and failures', async () => {
    const session = await ingest(fixture('acp/codex-acp-1.6.2_unwrapped.jsonl'));
    const list = sessionSummaries(session.sessionIds, session.items, session.calls, session.ended);
    expect(list.map((s) => s.sessionId)).toEqual(session.sessionIds);
    expect(list).toHaveLength(74);
    const calls = [...session.calls.values()];
    for (const s of list) {
      expect(s.calls, s.sessionId ?? 'null').toBe(calls.filter((c) => c.sessionId === s.sessionId).length);
      expect(s.failed).toBe(calls.filter((c) => c.sessionId === s.sessionId && c.status === 'failed').length);
    }
    expect(list.reduce((n, s) => n + s.calls, 0)).toBe(calls.length);
    // Every session is found at a line, also one whose records are all of kinds rows do not show
    // (`available-commands-skills` sends only `available_commands_update`).
    expect(list.filter((s) => s.firstLine === null).map((s) => s.sessionId)).toEqual([]);
    const skills = list.find((s) => s.sessionId === 'available-commands-skills');
    const firstRecord = readFileSync(join(ROOT, 'fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl'), 'utf8').split('\n').findIndex((line) => line.includes('"available-commands-skills"'));
    expect(skills?.firstLine).toBe(firstRecord + 1);
  });

  test('a session starts at the earliest time the input gives for it; calls left open are counted', async () => {
    const session = await ingest(
      capture([
        { id: 'a', kind: 'read', start: 40, end: 50, session: 'one' },
        { id: 'b', kind: 'read', start: 10, end: 90, session: 'two' },
        { id: 'c', kind: 'read', start: 95, session: 'two' },
      ]),
    );
    const list = sessionSummaries(session.sessionIds, session.items, session.calls, true);
    expect(list.map((s) => [s.sessionId, s.startMs, s.calls, s.open])).toEqual([
      ['two', 10, 2, 1],
      ['one', 40, 1, 0],
    ]);
  });

  test('rows naming no session (bare updates) are one entry with a null id', async () => {
    const session = await ingest(fixture('acp/bare-update_no-session-id_from-contract.jsonl'));
    const list = sessionSummaries(session.sessionIds, session.items, session.calls, true);
    expect(list.map((s) => [s.sessionId, s.calls, s.messages])).toEqual([[null, 2, 1]]);
  });

  test('a ledger run is listed by its run id', async () => {
    const session = await ingest(fixture('ledger/golden-p0.ledger-00000000000000000000.jsonl'));
    const list = sessionSummaries(session.sessionIds, session.items, session.calls, true);
    expect(list.map((s) => [s.sessionId, s.calls])).toEqual([['0198f6a2-7c4a-7bbb-9d1e-00000000040a', 2]]);
  });
});

describe('usageSeries', () => {
  test('Grok turn_completed usage: one point per turn with its token counts', async () => {
    const session = await ingest(fixture('grok/esc-interrupt.updates.jsonl'));
    const points = usageSeries(session.items);
    expect(points.map((p) => [p.turn, p.stopReason, p.inputTokens, p.outputTokens, p.cachedReadTokens, p.reasoningTokens])).toEqual([
      [1, 'cancelled', 13463, 82, 11136, 79],
      [2, 'end_turn', 13599, 33, 13440, 24],
    ]);
  });

  test('ACP usage_update: the context window used and its size', async () => {
    const line = (update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } });
    const session = await ingest(
      [line({ sessionUpdate: 'usage_update', used: 1000, size: 200000 }), line({ sessionUpdate: 'usage_update', used: 5000, size: 200000, cost: { amount: 0.5, currency: 'USD' } })].join('\n'),
    );
    expect(usageSeries(session.items).map((p) => [p.contextUsed, p.contextSize, p.cost?.amount ?? null])).toEqual([
      [1000, 200000, null],
      [5000, 200000, 0.5],
    ]);
  });
});

test('failed calls are listed in input order whatever order the calls are given in', async () => {
  const { bytes } = generated('acp', 300);
  const session = await ingest(bytes);
  const inOrder = [...session.calls.values()].filter((c) => c.status === 'failed').map((c) => c.id);
  expect(inOrder.length).toBeGreaterThan(3);
  const stats = callStats([...session.calls.values()].reverse(), { ended: true, listLimit: 3 });
  expect(stats.failed.map((c) => c.id)).toEqual(inOrder.slice(0, 3));
  expect(stats.failedTotal).toBe(inOrder.length);
});

describe('sessionTree', () => {
  const rpc = (sessionId: string, update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
  const treeOf = async (lines: string[]) => {
    const session = await ingest(lines.join('\n'));
    const summaries = sessionSummaries(session.sessionIds, session.items, session.calls, session.ended);
    return sessionTree(summaries, session.items, session.calls);
  };
  const shape = (nodes: SessionNode[]): unknown => nodes.map((n) => [n.summary.sessionId, n.title, n.finished, n.viaCall?.id ?? null, shape(n.children)]);

  test('a child announced by subagent_update in the parent stream sits under it, finished once subagent_finished arrives', async () => {
    const tree = await treeOf([
      rpc('parent', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'delegating' } }),
      rpc('parent', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Search the docs' }),
      rpc('child', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'grep', kind: 'search', status: 'completed' }),
      rpc('parent', { sessionUpdate: 'subagent_finished', sessionId: 'child' }),
      rpc('other', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'unrelated' } }),
    ]);
    expect(shape(tree.roots)).toEqual([
      ['parent', null, false, null, [['child', 'Search the docs', true, null, []]]],
      ['other', null, false, null, []],
    ]);
    expect(tree.linked).toBe(1);
  });

  test('a Subagent call that names a session in its output links that session under the call', async () => {
    const tree = await treeOf([
      rpc('main', { sessionUpdate: 'tool_call', toolCallId: 'task-1', title: 'Task', kind: 'other', status: 'in_progress', rawInput: { description: 'look around' }, _meta: { claudeCode: { toolName: 'Task' } } }),
      rpc('sub', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'looking' } }),
      rpc('main', { sessionUpdate: 'tool_call_update', toolCallId: 'task-1', status: 'completed', rawOutput: { session: 'sub' } }),
    ]);
    expect(shape(tree.roots)).toEqual([['main', null, false, null, [['sub', null, false, 'task-1', []]]]]);
  });

  test('nothing linked: every session is a root, in input order', async () => {
    const session = await ingest(fixture('acp/codex-acp-1.6.2_unwrapped.jsonl'));
    const summaries = sessionSummaries(session.sessionIds, session.items, session.calls, true);
    const tree = sessionTree(summaries, session.items, session.calls);
    expect(tree.roots.map((n) => n.summary.sessionId)).toEqual(session.sessionIds);
    expect(tree.linked).toBe(0);
  });
});
