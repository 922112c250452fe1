// Agents' own logs (CONTRACTS §10): the real samples in fixtures/native/ read as the contract says,
// the same session read from Claude Code's log and from its ACP capture gives the same calls, and
// entry types never seen before still read, each shown by its type.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { outputFailed, patchFiles } from '../ingest/formats/codex';
import { compactionLines, sessionSummaries, sessionTree, usageSeries } from './insights';
import { hydrateCall, ingest, summarize, type Session, type TranscriptItem } from '../model';

const FIXTURES = join(import.meta.dirname, '../../fixtures/native');
const CLAUDE = 'claude-code-2.1.83_via-claude-agent-acp.jsonl';
const CLAUDE_ACP = 'claude-agent-acp.acp.jsonl';
const OLD_CLAUDE = 'claude-code-2.1.44_via-claude-code-acp.jsonl';
const CODEX = 'codex-0.137.0_rollout.jsonl';

const bytes = (name: string) => readFileSync(join(FIXTURES, name));
const load = (name: string, chunkSize = 4096) => ingest(bytes(name), { chunkSize });
const lines = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join('\n') + '\n';
const calls = (session: Session) => summarize(session).calls.map(({ id, label, subject, status }) => ({ id, label, subject, status }));
const messages = (session: Session) =>
  session.items.flatMap((item) => (item.type === 'message' ? [[item.role, item.text]] : []));
const events = (session: Session) => session.items.flatMap((item) => (item.type === 'event' ? [item.name] : []));
const plans = (session: Session) => session.items.flatMap((item) => (item.type === 'plan' ? [item.entries.map((e) => `${e.status}: ${e.content}`)] : []));

describe('Claude Code', () => {
  test.each([
    [CLAUDE, CLAUDE_ACP],
    // Its Read/Edit/Write/Bash are mcp__acp__* (§5); the failing cat is done in both, as each says.
    [OLD_CLAUDE, 'claude-code-acp.acp.jsonl'],
  ])('%s and its ACP capture list the same calls, with the same labels, subjects and statuses', async (log, capture) => {
    const native = await load(log);
    const acp = await load(capture);
    expect(native.format).toBe('claude-code');
    expect(calls(native)).toEqual(calls(acp));
    expect(calls(native)).toHaveLength(10);
  });

  test('every line is an event; messages, thoughts and the plan are read; TodoWrite is a plan, not a call', async () => {
    const session = await load(CLAUDE);
    expect(session.counts).toEqual({ lines: 47, events: 47, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual(['4b56d36c-807f-4005-b88e-b42e393376e0']);
    expect(messages(session).filter(([, text]) => text === 'Please tidy up notes.txt and report on the workspace.')).toEqual([['user', 'Please tidy up notes.txt and report on the workspace.']]);
    expect(messages(session).filter(([role]) => role === 'agent')).toHaveLength(4);
    expect(plans(session)).toEqual([['in_progress: Read notes.txt', 'pending: Edit notes.txt', 'pending: Write out/result.txt']]);
    expect([...session.calls.values()].some((call) => call.name === 'TodoWrite')).toBe(false);
    // Entries that stand for nothing else are shown by their type.
    expect(events(session)).toContain('queue-operation');
    expect(events(session)).toContain('progress');
    expect(events(session)).toContain('last-prompt');
  });

  test('turns: a native log marks no turn end, so each prompt is a turn (a slash command is not)', async () => {
    const session = await load(CLAUDE);
    const [summary] = sessionSummaries(session.sessionIds, session.items, session.calls, session.ended);
    expect(summary?.turns).toBe(1);
    const two = await ingest(lines(
      { type: 'user', uuid: 'u1', sessionId: 's1', message: { role: 'user', content: 'first' } },
      { type: 'user', uuid: 'u2', sessionId: 's1', message: { role: 'user', content: '<command-name>/model</command-name>' } },
      { type: 'user', uuid: 'u3', sessionId: 's1', message: { role: 'user', content: 'second' } },
    ));
    expect(sessionSummaries(two.sessionIds, two.items, two.calls, two.ended).map((s) => s.turns)).toEqual([2]);
  });

  test('usage counts once per message id, from its last entry', async () => {
    const session = await load(CLAUDE);
    const points = usageSeries(session.items);
    // Eleven responses; each first entry says output_tokens 1, the last 20.
    expect(points).toHaveLength(11);
    expect(points.every((point) => point.outputTokens === 20 && point.inputTokens === 100)).toBe(true);
  });

  test('the same, read in one-byte chunks and read light', async () => {
    const whole = summarize(await load(CLAUDE));
    expect(summarize(await load(CLAUDE, 1))).toEqual(whole);
    const light = await ingest(bytes(CLAUDE), { detail: 'light' });
    expect(summarize(light).calls).toEqual(whole.calls);
  });

  test('a light call opened reads its output back from its lines (search and export see it)', async () => {
    const source = bytes(CLAUDE);
    const light = await ingest(source, { detail: 'light' });
    const ls = [...light.calls.values()].find((call) => call.subject === 'ls -la')!;
    expect(ls.rawOutput).toBeUndefined();
    const read = await hydrateCall(ls, (loc) => source.subarray(loc.offset, loc.offset + loc.length).toString('utf8'));
    expect(read.ok && JSON.stringify(read.value.content)).toContain('notes.txt');
  });

  test('the older Claude Code (2.1.44, tools named mcp__acp__*) reads: ten calls, the refused one failed', async () => {
    const session = await load(OLD_CLAUDE);
    expect(session.counts.bad + session.counts.unknown).toBe(0);
    const read = calls(session);
    expect(read.map(({ subject }) => subject)).toContain('rm -f src/app.js');
    expect(read.find(({ subject }) => subject === 'rm -f src/app.js')?.status).toBe('failed');
    expect(read).toHaveLength(10);
  });

  const entry = (over: Record<string, unknown>) => ({ sessionId: 's1', timestamp: '2026-01-01T00:00:00.000Z', ...over });

  test('an entry read again (same uuid) is counted, not folded twice', async () => {
    const use = entry({ type: 'assistant', uuid: 'u1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] } });
    const said = entry({ type: 'assistant', uuid: 'u2', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'hello' }] } });
    const session = await ingest(lines(use, said, use, said));
    expect(session.counts).toEqual({ lines: 4, events: 4, unknown: 0, bad: 0 });
    expect(calls(session)).toEqual([{ id: 't1', label: 'Run Command', subject: 'ls', status: 'unfinished' }]);
    expect(messages(session)).toEqual([['agent', 'hello']]);
  });

  test('a sub-agent entry (isSidechain + agentId) is its own session', async () => {
    const session = await ingest(lines(
      entry({ type: 'assistant', uuid: 'u1', message: { content: [{ type: 'tool_use', id: 't1', name: 'Task', input: { description: 'look', prompt: 'go' } }] } }),
      entry({ type: 'assistant', uuid: 'u2', isSidechain: true, agentId: 'a7', message: { content: [{ type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/x' } }] } }),
    ));
    expect(summarize(session).calls.map(({ id, session: s, label }) => [id, s, label])).toEqual([['t1', 's1', 'Subagent'], ['t2', 'a7', 'Read']]);
    expect(session.sessionIds).toEqual(['s1', 'a7']);
  });

  test('a Task call is linked to the sub-agent session it started (its result names the agent)', async () => {
    const session = await ingest(lines(
      entry({ type: 'assistant', uuid: 'u1', message: { content: [{ type: 'tool_use', id: 't1', name: 'Task', input: { description: 'look', prompt: 'go', subagent_type: 'Explore' } }] } }),
      entry({ type: 'user', uuid: 'u2', isSidechain: true, agentId: 'a7', message: { role: 'user', content: 'go' } }),
      entry({ type: 'assistant', uuid: 'u3', isSidechain: true, agentId: 'a7', message: { content: [{ type: 'tool_use', id: 't2', name: 'Glob', input: { pattern: '*' } }] } }),
      entry({ type: 'user', uuid: 'u4', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'found it' }] }] }, toolUseResult: { status: 'completed', agentId: 'a7', content: [{ type: 'text', text: 'found it' }] } }),
    ));
    const { roots } = sessionTree(sessionSummaries(session.sessionIds, session.items, session.calls, session.ended), session.items, session.calls);
    expect(roots.map((node) => [node.summary.sessionId, node.children.map((child) => [child.summary.sessionId, child.viaCall?.id])])).toEqual([['s1', [['a7', 't1']]]]);
  });

  test('a compaction boundary is a marker; a thinking block is a thought; is_error fails the call', async () => {
    const session = await ingest(lines(
      entry({ type: 'assistant', uuid: 'u1', message: { content: [{ type: 'thinking', thinking: 'hmm', signature: 'x' }, { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] } }),
      entry({ type: 'user', uuid: 'u2', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'nope', is_error: true }] } }),
      entry({ type: 'system', subtype: 'compact_boundary', uuid: 'u3', content: 'Conversation compacted' }),
    ));
    expect(messages(session)).toEqual([['thought', 'hmm']]);
    expect(calls(session)).toEqual([{ id: 't1', label: 'Read', subject: '/a', status: 'failed' }]);
    expect(compactionLines(session.items)).toEqual([3]);
  });
});

describe('Codex', () => {
  test('the rollout: calls by their commands and patched files; failures from exit codes and aborts', async () => {
    const session = await load(CODEX);
    expect(session.format).toBe('codex');
    expect(session.counts).toEqual({ lines: 44, events: 44, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual(['01a231f0-8607-7e42-a1ef-30bb58ce5759']);
    expect(calls(session).map(({ label, subject, status }) => [label, subject, status])).toEqual([
      ['Run Command', 'cat notes.txt', 'done'],
      ['Run Command', 'ls -la', 'done'],
      ['Run Command', 'grep -rn TODO .', 'done'],
      ['Edit', 'notes.txt', 'done'],
      ['Edit', 'out/result.txt', 'done'],
      ['Run Command', 'echo hi', 'done'],
      ['Run Command', 'cat missing-file.txt', 'failed'],
      ['Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
      // Refused at its permission: Codex wrote `aborted` as its output.
      ['Run Command', 'rm -f src/app.js', 'failed'],
    ]);
    expect(plans(session)).toEqual([['in_progress: Read notes.txt', 'pending: Edit notes.txt', 'pending: Write out/result.txt']]);
  });

  test('messages once (event_msg repeats them), usage the sum of last_token_usage', async () => {
    const session = await load(CODEX);
    const agent = messages(session).filter(([role]) => role === 'agent');
    expect(agent.map(([, text]) => text)).toEqual(['Reading the notes first.', 'Two commands at once, one of them fails.']);
    // The user said one thing; Codex's own `<environment_context>` and `<turn_aborted>` notes are events.
    expect(messages(session).filter(([role]) => role === 'user')).toEqual([['user', 'Please tidy up notes.txt and report on the workspace.']]);
    const points = usageSeries(session.items);
    expect(points).toHaveLength(9);
    expect(points.reduce((sum, point) => sum + (point.outputTokens ?? 0), 0)).toBe(180);
  });

  test('arguments are a JSON string: subjects by its own key order', async () => {
    const session = await ingest(lines(
      { timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 'c1' } },
      { timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'function_call', name: 'mystery', arguments: '{"10":"first","2":"second"}', call_id: 'k1' } },
      { timestamp: '2026-01-01T00:00:02Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: 'not json', call_id: 'k2' } },
      { timestamp: '2026-01-01T00:00:03Z', type: 'response_item', payload: { type: 'local_shell_call', call_id: 'k3', action: { type: 'exec', command: ['ls'] } } },
      { timestamp: '2026-01-01T00:00:04Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'k3', output: { content: 'x', success: false } } },
    ));
    expect(calls(session)).toEqual([
      { id: 'k1', label: 'Tool', subject: 'first', status: 'unfinished' },
      { id: 'k2', label: 'Run Command', subject: null, status: 'unfinished' },
      { id: 'k3', label: 'Run Command', subject: 'ls', status: 'failed' },
    ]);
    expect(summarize(session).calls.every((call) => call.session === 'c1')).toBe(true);
  });

  test('failure detection', () => {
    expect(outputFailed('{"output":"x","metadata":{"exit_code":2,"duration_seconds":0.1}}')).toBe(true);
    expect(outputFailed('{"output":"x","metadata":{"exit_code":0}}')).toBe(false);
    expect(outputFailed('Chunk ID: 1\nProcess exited with code 127\nOutput:\n')).toBe(true);
    expect(outputFailed('Exit code: 1\nWall time: 0 seconds')).toBe(true);
    expect(outputFailed('aborted by user')).toBe(true);
    expect(outputFailed({ success: false })).toBe(true);
    expect(outputFailed('Plan updated')).toBe(false);
    expect(patchFiles('*** Begin Patch\n*** Add File: a.txt\n+x\n*** Delete File: b.txt\n*** Update File: c.txt\n@@\n*** End Patch')).toBe('a.txt b.txt c.txt');
    expect(patchFiles('not a patch')).toBeUndefined();
  });
});

test('long lines read light give the same calls as read whole (the skim leaves native lines to the full parse)', async () => {
  const big = 'x'.repeat(20_000);
  const input = lines(
    { type: 'system', subtype: 'informational', uuid: 'l0', sessionId: 's', content: big },
    { type: 'assistant', uuid: 'l1', sessionId: 's', message: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'yes' } }] } },
    { type: 'user', uuid: 'l2', sessionId: 's', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: big, is_error: true }] }, toolUseResult: { stdout: big } },
    { timestamp: '2026-01-01T00:00:00Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'seq 1 9999'], content: big }), call_id: 'k1' } },
    { timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'k1', output: `${big}\nProcess exited with code 3` } },
  );
  const whole = summarize(await ingest(input));
  const light = summarize(await ingest(input, { detail: 'light' }));
  expect(light).toEqual(whole);
  expect(whole.calls.map(({ subject, status }) => [subject, status])).toEqual([['yes', 'failed'], ['seq 1 9999', 'failed']]);
});

describe('entry types never seen before', () => {
  test('still read, each shown by its type; nothing unknown, nothing bad', async () => {
    const session = await ingest(lines(
      { type: 'hologram-snapshot', uuid: 'h1', sessionId: 's1', beams: 3 },
      { type: 'system', subtype: 'quantum_tunnel', uuid: 'h2', sessionId: 's1', content: 'through the wall' },
      { type: 'assistant', uuid: 'h3', sessionId: 's1', message: { content: [{ type: 'telepathy', payload: 'x' }] } },
      { type: 'user', uuid: 'h4', sessionId: 's1', message: 42 },
      { timestamp: 'never', type: 'response_item', payload: { type: 'mind_meld', with: 'spock' } },
      { timestamp: '2026-01-01T00:00:00Z', type: 'weather_report', payload: { rain: true } },
      { timestamp: '2026-01-01T00:00:00Z', type: 'event_msg', payload: { type: 'token_count', info: null } },
    ));
    expect(session.counts).toEqual({ lines: 7, events: 7, unknown: 0, bad: 0 });
    expect(events(session)).toEqual([
      'hologram-snapshot', 'system/quantum_tunnel', 'assistant', 'user', 'response_item/mind_meld', 'weather_report/undefined', 'event_msg/token_count',
    ].map((name) => name.replace('/undefined', '')));
    const summary = session.items.find((item): item is Extract<TranscriptItem, { type: 'event' }> => item.type === 'event' && item.name === 'system/quantum_tunnel');
    expect(summary?.summary).toBe('through the wall');
  });

  test('a line with a type but the keys of another shape is read as that shape', async () => {
    const session = await ingest(lines({ type: 'x', jsonrpc: '2.0', method: 'session/cancel', params: {} }, { type: 'x', sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } }));
    expect(session.format).not.toBe('claude-code');
    expect(session.counts.events).toBe(2);
  });
});

describe('a log from a release newer than those tested', () => {
  test('is read as far as it is known, and its diagnostics name the release (once)', async () => {
    const text = readFileSync(join(import.meta.dirname, '../../fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl'), 'utf8').replaceAll('"version":"2.1.83"', '"version":"2.3.0"');
    const session = await ingest(new TextEncoder().encode(text));
    const said = session.diagnostics.warnings.filter((w) => w.message.includes('2.3.0'));
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toMatch(/^written by Claude Code 2\.3\.0, newer than the releases Loupe was tested with \(2\.1\.44, 2\.1\.83\)/);
    expect(session.calls.size).toBeGreaterThan(0);
    const tested = await ingest(readFileSync(join(import.meta.dirname, '../../fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl')));
    expect(tested.diagnostics.warnings.filter((w) => w.message.startsWith('written by'))).toEqual([]);
  });
});
