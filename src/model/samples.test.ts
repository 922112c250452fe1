// Every real sample in fixtures/ (see fixtures/README.md): accounting reconciles, and the labels,
// subjects and statuses of its calls are pinned. The hand-checked rows below are read off the
// contract; the full tables are file snapshots in fixtures/__snapshots__/, a readable projection.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { displayStatus, ingest, summarize, type Session } from './index';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const samples = ['acp', 'grok', 'ledger'].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((name) => name !== 'codex-acp-1.6.2_test-snapshots.jsonl') // a test wrapper, read unwrapped
    .map((name) => `${dir}/${name}`),
);

async function load(path: string): Promise<Session> {
  return ingest(readFileSync(join(FIXTURES, path)), { chunkSize: 4096 });
}

function table(session: Session): string {
  return [...session.calls.values()]
    .map((call) => [call.id, call.label, call.subject ?? '—', displayStatus(call, session.ended), call.permission?.outcome?.outcome ?? ''].join(' | '))
    .join('\n');
}

describe.each(samples)('%s', (path) => {
  test('accounting reconciles and the calls are as pinned', async () => {
    const session = await load(path);
    const { counts } = session;
    expect(counts.lines).toBeGreaterThan(0);
    expect(counts.events + counts.unknown + counts.bad).toBe(counts.lines);
    expect(counts.bad).toBe(0);
    await expect(`${session.format} ${JSON.stringify(counts)}\n${table(session)}\n`).toMatchFileSnapshot(
      join(FIXTURES, '__snapshots__', `${path.replace('/', '__')}.calls.txt`),
    );
  });
});

const calls = (session: Session) => summarize(session).calls.map(({ id, label, subject, status }) => ({ id, label, subject, status }));

describe('hand-checked samples', () => {
  test('claude-code-acp #122: a tool_call sent twice merges; the placeholder title and {} rawInput do not win', async () => {
    const session = await load('acp/claude-code-acp_issue-122_tool_call-sent-twice.jsonl');
    expect(calls(session)).toEqual([{ id: 'toolu_017BcJAQLqfkM1fkE6Xw1vhf', label: 'Run Command', subject: 'git diff', status: 'completed' }]);
    expect(session.calls.values().next().value?.title).toBe('`git diff`');
  });

  test('gemini-cli live turn: kinds give labels, locations give subjects, permission outcomes join', async () => {
    const session = await load('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
    expect(calls(session).map(({ label, subject, status }) => [label, subject, status])).toEqual([
      ['Edit', '/home/dev/ws/hello.py', 'completed'],
      ['Edit', '/home/dev/ws/hello.py', 'completed'],
      // No rawInput and no locations: a real "names nothing", not the title.
      ['Run Command', null, 'completed'],
    ]);
    for (const call of session.calls.values()) expect(call.permission?.outcome).toMatchObject({ outcome: 'selected' });
    // Captures carry t_ms, so calls have durations.
    expect([...session.calls.values()].every((call) => call.durationMs !== undefined)).toBe(true);
    const stops = session.items.filter((item) => item.type === 'turn_end');
    expect(stops.map((item) => item.type === 'turn_end' && item.stopReason)).toEqual(['end_turn']);
  });

  test('Zed export: a pretty-printed JSON array, one record per element', async () => {
    const session = await load('acp/zed-1.13.2_acp-logs-export_ny-gemini-acp-0.2.2_excerpt.json');
    expect(session.format).toBe('zed-export');
    expect(session.counts.lines).toBe(24);
    expect(calls(session).map(({ label, subject }) => [label, subject])).toEqual([['Search', '**/*'], ['Run Command', 'ls -la']]);
  });

  test('Grok esc-interrupt: an interrupted call is unfinished, the turn ends cancelled with usage', async () => {
    const session = await load('grok/esc-interrupt.updates.jsonl');
    const [call] = session.calls.values();
    expect([call?.label, call?.subject, call && displayStatus(call, true)]).toEqual(['Run Command', 'sleep 45', 'unfinished']);
    const ends = session.items.flatMap((item) => (item.type === 'turn_end' ? [[item.stopReason, item.usage?.inputTokens]] : []));
    expect(ends).toEqual([['cancelled', 13463], ['end_turn', 13599]]);
  });

  test('ledger golden files: chains intact; a legacy tool_called without an id is a call keyed by its line', async () => {
    const p0 = await load('ledger/golden-p0.ledger-00000000000000000000.jsonl');
    expect(p0.chain).toEqual({ state: 'intact', lines: 19 });
    expect(calls(p0)).toEqual([
      { id: 'call-1', label: 'Tool', subject: null, status: 'completed' },
      { id: 'call-2', label: 'Tool', subject: null, status: 'completed' },
    ]);
    const s1 = await load('ledger/golden-s1.ledger-00000000000000000000.jsonl');
    expect(s1.chain).toEqual({ state: 'intact', lines: 6 });
    expect(calls(s1)).toEqual([{ id: 'line:4', label: 'Run Command', subject: null, status: 'pending' }]);
  });

  test('a ledger line from a newer writer (unknown envelope key, huge version) is still an event', async () => {
    for (const path of ['ledger/ledger-v2.ledger-00000000000000000000.jsonl', 'ledger/ledger-ahead.ledger-00000000000000000000.jsonl']) {
      const session = await load(path);
      expect(session.counts).toEqual({ lines: 1, events: 1, unknown: 0, bad: 0 });
      expect(session.items[0]).toMatchObject({ type: 'event', name: 'city_initialized' });
    }
  });
});
