// Every real sample in fixtures/ (see fixtures/README.md): accounting reconciles, and the labels,
// subjects and statuses of its calls are pinned. The hand-checked rows below are read off the
// contract; the full tables are file snapshots in fixtures/__snapshots__/, a readable projection.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { displayStatus, ingest, summarize, type Session, type ToolCall } from './index';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const samples = ['acp', 'grok', 'ledger', 'native'].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((name) => name !== 'codex-acp-1.6.2_test-snapshots.jsonl') // a test wrapper, read unwrapped
    .map((name) => `${dir}/${name}`),
);

async function load(path: string): Promise<Session> {
  return ingest(readFileSync(join(FIXTURES, path)), { chunkSize: 4096 });
}

/**
 * One row per call: id | label | subject | display status | permission outcome | direction | time.
 * Times are relative (to the file's first call, and durations), so the table reads the same in
 * every time zone: a text log's times are local.
 */
function table(session: Session): string {
  const calls = [...session.calls.values()];
  const starts = calls.flatMap((call) => (call.startMs === undefined ? [] : [call.startMs]));
  const origin = starts.length > 0 ? Math.min(...starts) : 0;
  const timeOf = (call: ToolCall): string => {
    if (call.startMs === undefined) return 'no times';
    const start = `+${call.startMs - origin} ms`;
    if (call.durationMs !== undefined) return `${start}, took ${call.durationMs} ms`;
    if (call.inputEndMs !== undefined) return `${start}, open ${call.inputEndMs - call.startMs} ms to the end`;
    return start;
  };
  return calls
    .map((call) =>
      [call.id, call.label, call.subject ?? '—', displayStatus(call, session.ended), call.permission?.outcome?.outcome ?? '', call.dir ?? '—', timeOf(call)].join(' | '),
    )
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
    expect(calls(session)).toEqual([{ id: 'toolu_017BcJAQLqfkM1fkE6Xw1vhf', label: 'Run Command', subject: 'git diff', status: 'done' }]);
    expect(session.calls.values().next().value?.title).toBe('`git diff`');
  });

  test('gemini-cli live turn: the id names the tool, locations give subjects, permission outcomes join', async () => {
    const session = await load('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
    expect(calls(session).map(({ label, subject, status }) => [label, subject, status])).toEqual([
      // `write_file__…`: the id's head is in the name table (§5 rule 3), before kind `edit`.
      ['Write', '/home/dev/ws/hello.py', 'done'],
      ['Edit', '/home/dev/ws/hello.py', 'done'],
      // No rawInput and no locations: a real "names nothing", not the title.
      ['Run Command', null, 'done'],
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
      { id: 'call-1', label: 'Tool', subject: null, status: 'done' },
      { id: 'call-2', label: 'Tool', subject: null, status: 'done' },
    ]);
    const s1 = await load('ledger/golden-s1.ledger-00000000000000000000.jsonl');
    expect(s1.chain).toEqual({ state: 'intact', lines: 6 });
    expect(calls(s1)).toEqual([{ id: 'line:4', label: 'Run Command', subject: null, status: 'unfinished' }]);
  });

  test('an id that comes back: repeated while pending it is one call, after it ended it opens a new one (§4)', async () => {
    const session = await load('acp/id-reuse_per-turn-numbering_from-contract.jsonl');
    expect(calls(session).map(({ id, label, subject, status }) => [id, label, subject, status])).toEqual([
      ['gemini_call_0', 'Read', '/w/a.txt', 'done'],
      ['gemini_call_0', 'Edit', '/w/a.txt', 'failed'],
      ['gemini_call_1', 'Run Command', 'ls /w', 'done'],
      ['gemini_call_0', 'Read', '/w/b.txt', 'unfinished'],
    ]);
    const [first, rejected] = session.calls.values();
    // The ended call keeps what it had; the permission asked later went to the newest call.
    expect(first?.permission).toBeUndefined();
    expect(rejected?.permission?.outcome).toEqual({ outcome: 'selected', optionId: 'cancel', optionName: 'Reject' });
    expect(first?.history.map((entry) => entry.source)).toEqual(['tool_call', 'tool_call', 'tool_call_update']);
  });

  test('other recorders: direction and time come from each line, and joins use them', async () => {
    // The inspector trace's permission request has the id of the client's initialize: joined by direction.
    const inspector = await load('acp/acp-inspector_trace_from-contract.jsonl');
    const [write] = inspector.calls.values();
    expect([write?.label, write?.dir, write?.durationMs, write?.permission?.outcome]).toEqual(['Write', 'agent->client', 3220, { outcome: 'selected', optionId: 'reject', optionName: 'Reject' }]);
    // acpx: the agent's terminal/create (id 0) is answered by the client, not taken for the initialize response.
    const acpx = await load('acp/acpx_session-log_from-contract.jsonl');
    expect(acpx.terminals.get('term-1')).toMatchObject({ command: 'npm test', exitCode: 0 });
    expect(summarize(acpx).calls[0]).toMatchObject({ status: 'unfinished', note: 'the command exited 0; no completion was recorded' });
    // JetBrains: `OUT` is the IDE (client) talking; times are the lines' own.
    const jetbrains = await load('acp/jetbrains-ide_acp-transport-log_acp-replay-example.log');
    expect(jetbrains.format).toBe('text-log');
    expect([...jetbrains.calls.values()].every((call) => call.dir === 'agent->client' && call.durationMs !== undefined)).toBe(true);
  });

  // Published agents recorded through `loupe tee` (fixtures/native/; provenance in fixtures/README.md).
  const W = (agent: string) => `/home/dev/run1/work/${agent}-capture`;
  const rows = (session: Session) => calls(session).map(({ label, subject, status }) => [label, subject, status]);

  test('codex-acp 0.16.0: commands by their script, edits by their location, the refused rm failed (§6, §7)', async () => {
    expect(rows(await load('native/codex-acp.acp.jsonl'))).toEqual([
      // codex-acp gives shell commands the ACP kinds read and search: the label follows what it said.
      ['Read', 'cat notes.txt', 'done'],
      ['Search', 'ls -la', 'done'],
      ['Search', 'grep -rn TODO .', 'done'],
      ['Edit', `${W('codex-acp')}/notes.txt`, 'done'],
      ['Edit', `${W('codex-acp')}/out/result.txt`, 'done'],
      ['Run Command', 'echo hi', 'done'],
      ['Read', 'cat missing-file.txt', 'failed'],
      ['Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
      ['Run Command', 'rm -f src/app.js', 'failed'],
    ]);
  });

  test('claude-code-acp 0.16.2: mcp__acp__Write is a Write (§5); the refused rm failed', async () => {
    const session = await load('native/claude-code-acp.acp.jsonl');
    expect(rows(session)).toEqual([
      ['Read', `${W('claude-code-acp')}/notes.txt`, 'done'],
      ['Run Command', 'ls -la', 'done'],
      ['Edit', `${W('claude-code-acp')}/notes.txt`, 'done'],
      ['Search', W('claude-code-acp'), 'done'],
      ['Write', `${W('claude-code-acp')}/out/result.txt`, 'done'],
      // The adapter reported the failing cat as completed (its terminal says exit 1): the input decides.
      ['Run Command', 'cat missing-file.txt', 'done'],
      ['List Files', '**/*.js', 'done'],
      ['Run Command', 'echo hi', 'done'],
      ['Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
      ['Run Command', 'rm -f src/app.js', 'failed'],
    ]);
    const write = [...session.calls.values()].find((call) => call.label === 'Write');
    expect(write?.meta.claudeCode).toMatchObject({ toolName: 'mcp__acp__Write' });
  });

  test('claude-agent-acp 0.23.1: the same session as claude-code-acp, the failing cat failed as the adapter says', async () => {
    expect(rows(await load('native/claude-agent-acp.acp.jsonl'))).toEqual([
      ['Read', `${W('claude-agent-acp')}/notes.txt`, 'done'],
      ['Run Command', 'ls -la', 'done'],
      ['Edit', `${W('claude-agent-acp')}/notes.txt`, 'done'],
      ['Search', W('claude-agent-acp'), 'done'],
      ['Write', `${W('claude-agent-acp')}/out/result.txt`, 'done'],
      ['Run Command', 'cat missing-file.txt', 'failed'],
      ['List Files', '**/*.js', 'done'],
      ['Run Command', 'echo hi', 'done'],
      ['Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
      ['Run Command', 'rm -f src/app.js', 'failed'],
    ]);
  });

  test('lines that are all unknown say format unknown, not empty', async () => {
    const session = await load('acp/gemini-cli-0.61.0_scripted-model_fake-responses.jsonl');
    expect([session.format, session.counts.unknown]).toEqual(['unknown', 5]);
  });

  test('a ledger line from a newer writer (unknown envelope key, huge version) is still an event', async () => {
    for (const path of ['ledger/ledger-v2.ledger-00000000000000000000.jsonl', 'ledger/ledger-ahead.ledger-00000000000000000000.jsonl']) {
      const session = await load(path);
      expect(session.counts).toEqual({ lines: 1, events: 1, unknown: 0, bad: 0 });
      expect(session.items[0]).toMatchObject({ type: 'event', name: 'city_initialized' });
    }
  });
});
