// docs/CONTRACTS.md rule by rule, on small hand-written inputs named after the case they guard.
import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, test } from 'vitest';
import { displayXaiKind, ingest, summarize, type Session, type ToolCall } from './index';

const rpc = (update: object, sessionId = 's1') => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
const lines = (...records: string[]) => `${records.join('\n')}\n`;
const only = (session: Session): ToolCall => {
  expect(session.calls.size).toBe(1);
  return session.calls.values().next().value!;
};
const tool = (fields: object) => ({ 'x.ai/tool': { version: 1, name: 'read_file', label: 'Read', ...fields } });

describe('§2 accounting', () => {
  test('events + unknown + bad = non-blank lines; bad lines carry number, offset, reason, excerpt', async () => {
    const text = lines(
      rpc({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }),
      '',
      '{"jsonrpc":"2.0","method":"session/upd',
      '[1,2]',
      rpc({ sessionUpdate: 'brand_new_update', x: 1 }),
      rpc({ sessionUpdate: 'tool_call_update', status: 'completed' }),
      JSON.stringify({ jsonrpc: '2.0', method: 'vendor/thing', params: {} }),
      '   ',
    ) + `{"long":"${'x'.repeat(500)}`;
    const session = await ingest(text);
    expect(session.counts).toEqual({ lines: 7, events: 1, unknown: 3, bad: 3 });
    expect(session.diagnostics.bad.map(({ line, reason }) => [line, reason.split(':')[0]])).toEqual([
      [3, 'not JSON'],
      [4, 'JSON is not an object (an array)'],
      [9, 'truncated last line (no newline at the end)'],
    ]);
    const firstBad = session.diagnostics.bad[0]!;
    expect(firstBad.offset).toBe(text.indexOf('\n{"jsonrpc":"2.0","method":"session/upd\n') + 1);
    expect(session.diagnostics.bad[2]!.excerpt).toHaveLength(200);
    // Unknown records are kept in order, shown raw, never dropped.
    expect(session.items.filter((item) => item.type === 'unknown').map((item) => item.type === 'unknown' && item.reason)).toEqual([
      'unknown session update brand_new_update',
      'tool_call_update without a toolCallId',
      'unknown method vendor/thing',
    ]);
  });

  test('a ledger line needs v, seq, kind and data: without seq it is unknown, not an event', async () => {
    const withSeq = JSON.stringify({ v: 2, seq: 0, kind: 'note', data: { text: 'a' } });
    const withoutSeq = JSON.stringify({ v: 2, kind: 'tool_called', data: { id: 'x', name: 'read', args: { path: 'p' } } });
    const session = await ingest(lines(withSeq, withoutSeq));
    expect(session.counts).toEqual({ lines: 2, events: 1, unknown: 1, bad: 0 });
    expect(session.calls.size).toBe(0);
  });

  test('a BOM, CRLF line ends and a last line without a newline', async () => {
    const text = `\uFEFF${rpc({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'x', kind: 'read' })}\r\n${rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' })}`;
    const session = await ingest(text, { chunkSize: 3 });
    expect(session.counts).toEqual({ lines: 2, events: 2, unknown: 0, bad: 0 });
    expect(only(session).status).toBe('completed');
  });
});

describe('§3 x.ai/tool read loosely', () => {
  test('an envelope with a non-string label is absent: the ACP kind decides, and the raw view counts it', async () => {
    const session = await ingest(rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'q', kind: 'search', rawInput: { query: 'rust' }, _meta: tool({ label: 42 }) }));
    const call = only(session);
    expect([call.label, call.subject, call.invalidEnvelopes]).toEqual(['Search', 'rust', 1]);
    expect(call.history[0]!.invalidEnvelope).toMatch(/label/);
  });

  test('a new namespace and an unknown kind do not break the reader; the label is used as it is', async () => {
    const session = await ingest(rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'deploy', _meta: tool({ label: 'Deploy App', kind: 'hologram', namespace: 'grok_build_next' }) }));
    const call = only(session);
    expect(call.label).toBe('Deploy App');
    expect(displayXaiKind(call.tool?.kind)).toBe('other');
  });

  test('an input given once survives a later valid envelope without one; a later invalid one changes nothing', async () => {
    const session = await ingest(lines(
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'read', _meta: tool({ input: { path: '/a.ts' } }) }),
      rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: tool({ label: 'Read', read_only: true }) }),
      rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { 'x.ai/tool': { version: 2, label: 'Write', name: 'w' } } }),
    ));
    const call = only(session);
    expect([call.label, call.subject, call.tool?.read_only, call.invalidEnvelopes]).toEqual(['Read', '/a.ts', true, 1]);
  });
});

describe('§4 merging', () => {
  test('an update before its tool_call is held; last write wins per field; null and placeholders keep', async () => {
    const session = await ingest(lines(
      rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'in_progress', rawInput: { path: '/x.md' } }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Read x', kind: 'read', status: 'pending', rawInput: {}, content: [{ type: 'content', content: { type: 'text', text: 'one' } }] }),
      rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', title: '', kind: null, content: [{ type: 'content', content: { type: 'text', text: 'two' } }], _meta: { a: 1 } }),
      rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { b: 2 } }),
    ));
    const call = only(session);
    expect(call.firstLine).toBe(1);
    expect(call.status).toBe('pending');
    expect(call.title).toBe('Read x');
    expect(call.kind).toBe('read');
    expect(call.rawInput).toEqual({ path: '/x.md' });
    expect(call.content).toEqual([{ type: 'content', content: { type: 'text', text: 'two' } }]);
    expect(call.meta).toEqual({ a: 1, b: 2 });
    expect(call.history.map((entry) => [entry.line, entry.fields])).toEqual([
      [1, ['status', 'rawInput']],
      [2, ['title', 'kind', 'status', 'content']],
      [3, ['content', '_meta']],
      [4, ['_meta']],
    ]);
  });

  test('the same toolCallId in two sessions is two calls', async () => {
    const session = await ingest(lines(
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'a' }, 's1'),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'b' }, 's2'),
    ));
    expect([...session.calls.values()].map((call) => [call.sessionId, call.title])).toEqual([['s1', 'a'], ['s2', 'b']]);
  });
});

describe('§5 labels', () => {
  test('claudeCode.toolName is looked up first; a present name not in the table falls to the kind, not the next name', async () => {
    const session = await ingest(lines(
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 't', kind: 'edit', name: 'Read', _meta: { claudeCode: { toolName: 'Glob' } } }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 't', kind: 'execute', name: 'Read', _meta: { claudeCode: { toolName: 'SomethingNew' } } }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 't', kind: 'switch_mode' }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'd', title: 't', kind: 'made_up' }),
    ));
    expect(summarize(session).calls.map((call) => call.label)).toEqual(['List Files', 'Run Command', 'Switch Mode', 'Tool']);
  });

  test('mcp__SERVER__TOOL not in the table is looked up as TOOL (claude-code-acp\'s mcp__acp__Write is a Write, not an edit)', async () => {
    const named = (id: string, toolName: string, kind = 'edit') =>
      rpc({ sessionUpdate: 'tool_call', toolCallId: id, title: 't', kind, _meta: { claudeCode: { toolName } } });
    const session = await ingest(lines(
      named('a', 'mcp__acp__Write'),
      named('b', 'mcp__my__server__Read', 'other'),
      named('c', 'mcp__notion__search_pages', 'fetch'),
      named('d', 'mcp__Write', 'other'),
      named('e', 'xmcp__acp__Write', 'other'),
    ));
    // b: the part after the last `__`; c: a TOOL the table lacks falls to the kind; d, e: not of the form.
    expect(summarize(session).calls.map((call) => call.label)).toEqual(['Write', 'Read', 'Web Fetch', 'Tool', 'Tool']);
  });
});

describe('§6 subjects', () => {
  test('{"10":"a","2":"b"} gives "a" by source byte order, in rawInput, envelope input and ledger args', async () => {
    const raw = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"r","title":"t","rawInput":{"10":"a","2":"b","limit":5}}}}';
    const env = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"e","title":"t","_meta":{"x.ai/tool":{"version":1,"name":"n","label":"Tool","input":{"10":"a","2":"b"}}}}}}';
    const session = await ingest(lines(raw, env));
    expect(summarize(session).calls.map((call) => call.subject)).toEqual(['a', 'a']);
    const ledgerLine = '{"v":2,"run":"r","seq":0,"prev":"' + '0'.repeat(64) + '","t":0,"who":"w","kind":"tool_called","data":{"args":{"10":"x","2":"y"},"id":"k","name":"probe"}}';
    expect(summarize(await ingest(ledgerLine)).calls[0]?.subject).toBe('x');
  });

  test('preferred keys in order; arrays of strings joined; envelope input before rawInput before locations; none is null', async () => {
    const session = await ingest(lines(
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 't', rawInput: { description: 'd', command: ['bash', '-lc', 'make'] } }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 't', rawInput: { file_path: '/raw' }, _meta: tool({ input: { path: '/canonical' } }) }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 't', rawInput: { n: 1 }, locations: [{ path: '/loc' }] }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'd', title: 'a title is not a subject' }),
    ));
    expect(summarize(session).calls.map((call) => call.subject)).toEqual(['make', '/canonical', '/loc', null]);
  });

  test('a command array [SHELL, -c|-lc|…, SCRIPT] is named by SCRIPT; any other array is joined', async () => {
    const commands: unknown[][] = [
      ['/bin/bash', '-lc', 'cat notes.txt'],
      ['/usr/bin/zsh', '-lic', 'ls -la'],
      ['sh', '-c', 'echo hi'],
      ['python3', '-c', 'print(1)'],
      ['bash', '-x', 'run.sh'],
      ['bash', '-lc', 'ls', 'extra'],
      ['fish', '-cl', 'ls'],
    ];
    const session = await ingest(lines(
      ...commands.map((command, i) => rpc({ sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: 't', rawInput: i === 2 ? { cmd: command } : { command } })),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'args', title: 't', rawInput: { args: ['/bin/bash', '-lc', 'pwd'] } }),
    ));
    expect(summarize(session).calls.map((call) => call.subject)).toEqual([
      'cat notes.txt', 'ls -la', 'echo hi', 'python3 -c print(1)', 'bash -x run.sh', 'bash -lc ls extra', 'ls', null,
    ]);
  });

  test('locations[0].path comes before the first-string fallback, after the preferred keys (codex-acp edits)', async () => {
    const session = await ingest(lines(
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'call_fake_4_5', title: 'Edit', kind: 'edit', rawInput: { call_id: 'call_fake_4_5', changes: {} }, locations: [{ path: '/w/notes.txt' }] }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'p', title: 't', rawInput: { call_id: 'x', path: '/w/a.js' }, locations: [{ path: '/w/b.js' }] }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'f', title: 't', rawInput: { call_id: 'only-a-string' } }),
    ));
    expect(summarize(session).calls.map((call) => call.subject)).toEqual(['/w/notes.txt', '/w/a.js', 'only-a-string']);
  });

  test('ledger: a present subject key wins, null included; without it, subject_of(args) with the ledger keys', async () => {
    const line = (seq: number, data: object) => JSON.stringify({ v: 2, run: 'r', seq, prev: '0'.repeat(64), t: seq, who: 'w', kind: 'tool_called', data });
    const session = await ingest(lines(
      line(0, { args: { path: 'p' }, id: 'a', name: 'read', subject: null }),
      line(1, { args: { url: 'u', addr: 'sim/a' }, id: 'b', name: 'x' }),
      line(2, { args: { text: 't' }, id: 'c', name: 'edit', subject: 'lobby/x.rs' }),
    ));
    expect(summarize(session).calls.map((call) => [call.label, call.subject])).toEqual([['Read', null], ['Tool', 'sim/a'], ['Edit', 'lobby/x.rs']]);
  });
});

describe('§7 status and time', () => {
  test('durations from Grok agentTimestampMs; none invented for raw JSON-RPC', async () => {
    const grok = (ms: number, update: object) => JSON.stringify({ timestamp: Math.floor(ms / 1000), method: 'session/update', params: { sessionId: 's', update, _meta: { agentTimestampMs: ms } } });
    const timed = only(await ingest(lines(grok(1000, { sessionUpdate: 'tool_call', toolCallId: 'c', title: 't' }), grok(3500, { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed' }))));
    expect(timed.durationMs).toBe(2500);
    const untimed = only(await ingest(lines(rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 't' }), rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed' }))));
    expect(untimed.durationMs).toBeUndefined();
  });
});

describe('§7 a call refused at its permission request', () => {
  const capture = (t: number, dir: string, msg: object) => JSON.stringify({ t_ms: t, dir, msg: { jsonrpc: '2.0', ...msg } });
  const options = [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }, { optionId: 'never', name: 'Never', kind: 'reject_always' }];
  const refused = (optionId: string, ...after: string[]) => lines(
    rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'rm -rf build', kind: 'execute', status: 'pending' }, 's'),
    capture(2, 'agent->client', { id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'c' }, options } }),
    capture(3, 'client->agent', { id: 1, result: { outcome: { outcome: 'selected', optionId } } }),
    ...after,
  );

  test('reject_once or reject_always with no later status is failed, not unfinished (codex-acp sends nothing more)', async () => {
    expect(summarize(await ingest(refused('no'))).calls.map((call) => call.status)).toEqual(['failed']);
    expect(summarize(await ingest(refused('never'))).calls.map((call) => call.status)).toEqual(['failed']);
  });

  test('an allowed or cancelled request leaves the call unfinished; a later status still wins after a refusal', async () => {
    expect(summarize(await ingest(refused('yes'))).calls.map((call) => call.status)).toEqual(['unfinished']);
    const later = refused('no', rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed' }, 's'));
    expect(summarize(await ingest(later)).calls.map((call) => call.status)).toEqual(['done']);
  });
  test('each request keeps the options it offered, the same or not as another’s, and each call its own answer', async () => {
    const ask = (id: number, callId: string, offered: object[]) => JSON.stringify({ jsonrpc: '2.0', id, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: callId }, options: offered } });
    const answer = (id: number, optionId: string) => JSON.stringify({ jsonrpc: '2.0', id, result: { outcome: { outcome: 'selected', optionId } } });
    const fewer = options.slice(0, 2);
    const renamed = [options[0]!, { ...options[1]!, name: 'Refuse' }, options[2]!];
    const session = await ingest(lines(ask(1, 'a', options), ask(2, 'b', fewer), ask(3, 'c', renamed), ask(4, 'd', options), answer(1, 'yes'), answer(4, 'no')), { detail: 'light' });
    const calls = [...session.calls.values()];
    expect(calls.map((call) => call.permission?.options)).toEqual([options, fewer, renamed, options]);
    expect(calls.map((call) => call.permission?.outcome)).toEqual([
      { outcome: 'selected', optionId: 'yes', optionName: 'Allow' }, undefined, undefined, { outcome: 'selected', optionId: 'no', optionName: 'Reject' },
    ]);
  });
});

describe('§8 joins', () => {
  const capture = (t: number, dir: string, msg: object) => JSON.stringify({ t_ms: t, dir, msg: { jsonrpc: '2.0', ...msg } });

  test('the same id in flight both ways: a response joins the request sent the other way', async () => {
    const session = await ingest(lines(
      capture(1, 'client->agent', { id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'go' }] } }),
      capture(2, 'agent->client', { id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'c', title: 'rm', kind: 'delete' }, options: [{ optionId: 'no', name: 'Reject', kind: 'reject_once' }] } }),
      capture(3, 'client->agent', { id: 1, result: { outcome: { outcome: 'selected', optionId: 'no' } } }),
      capture(4, 'agent->client', { id: 1, result: { stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } } }),
    ));
    expect(only(session).permission?.outcome).toEqual({ outcome: 'selected', optionId: 'no', optionName: 'Reject' });
    const end = session.items.find((item) => item.type === 'turn_end');
    expect(end).toMatchObject({ stopReason: 'end_turn', usage: { inputTokens: 10, totalTokens: 12 } });
  });

  test('ids 1 and "1" are two requests: each response joins its own', async () => {
    const session = await ingest(lines(
      JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'c' }, options: [{ optionId: 'no', name: 'Reject', kind: 'reject_once' }] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [] } }),
      JSON.stringify({ jsonrpc: '2.0', id: '1', result: { outcome: { outcome: 'selected', optionId: 'no' } } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } }),
    ));
    expect(only(session).permission?.outcome).toEqual({ outcome: 'selected', optionId: 'no', optionName: 'Reject' });
    expect(session.items.find((item) => item.type === 'turn_end')).toMatchObject({ stopReason: 'end_turn' });
    expect(session.diagnostics.warnings).toEqual([]);
  });

  test('raw NDJSON: a response joins the most recent unanswered request with that id', async () => {
    const session = await ingest(lines(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { sessionId: 's', prompt: [] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'c' }, options: [] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'cancelled' } } }),
      JSON.stringify({ jsonrpc: '2.0', id: 7, result: { stopReason: 'cancelled' } }),
    ));
    expect(only(session).permission?.outcome).toEqual({ outcome: 'cancelled' });
    expect(session.items.find((item) => item.type === 'turn_end')).toMatchObject({ stopReason: 'cancelled' });
  });

  test('terminal output joins a call through its terminal content block', async () => {
    const session = await ingest(lines(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'terminal/create', params: { sessionId: 's', command: 'npm', args: ['test'] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { terminalId: 't1' } }),
      rpc({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'npm test', kind: 'execute', content: [{ type: 'terminal', terminalId: 't1' }] }, 's'),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'terminal/output', params: { sessionId: 's', terminalId: 't1' } }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, result: { output: '\u001b[32mok\u001b[0m 3 passed', truncated: false, exitStatus: { exitCode: 0 } } }),
    ));
    expect(session.terminals.get('t1')).toMatchObject({ command: 'npm test', output: '\u001b[32mok\u001b[0m 3 passed', exitCode: 0 });
  });
});

describe('§9 ledger integrity', () => {
  async function chain(texts: string[]): Promise<string[]> {
    const hasher = await createBLAKE3();
    let prev = '0'.repeat(64);
    return texts.map((text, seq) => {
      const line = JSON.stringify({ v: 2, run: 'r', seq, prev, t: seq, who: 'w', kind: 'note', data: { text } });
      prev = hasher.init().update(line).digest('hex');
      return line;
    });
  }

  test('an intact chain, then an altered line: broken at the line after it', async () => {
    const ledger = await chain(['a', 'b', 'c', 'd']);
    expect((await ingest(lines(...ledger))).chain).toEqual({ state: 'intact', lines: 4 });
    const altered = [...ledger];
    altered[1] = altered[1]!.replace('"b"', '"B"');
    expect((await ingest(lines(...altered))).chain).toMatchObject({ state: 'broken', line: 3 });
    const dropped = [ledger[0]!, ledger[2]!, ledger[3]!];
    expect((await ingest(lines(...dropped))).chain).toMatchObject({ state: 'broken', line: 2 });
    expect((await ingest(lines(...ledger.slice(1)))).chain).toMatchObject({ state: 'broken', line: 1 });
  });

  test('a tool_result before its tool_called is held; the call finishes with its duration', async () => {
    const line = (seq: number, kind: string, data: object) => JSON.stringify({ v: 2, run: 'r', seq, prev: 'x', t: seq, who: 'w', kind, data });
    const session = await ingest(lines(
      line(0, 'tool_result', { tool_use_id: 'k', error: { code: 'not_found' }, took_us: 1500 }),
      line(1, 'tool_called', { args: { path: 'a.rs' }, id: 'k', name: 'read' }),
    ));
    const call = only(session);
    expect([call.label, call.subject, call.status, call.durationMs]).toEqual(['Read', 'a.rs', 'failed', 1.5]);
  });
});

describe('incremental reading', () => {
  test('takeChanges: everything at first, then only what changed; a JSON array left open is reported at its last line', async () => {
    const { SessionBuilder } = await import('./index');
    const builder = new SessionBuilder();
    await builder.init();
    const encode = (text: string) => new TextEncoder().encode(text);
    builder.push(encode(lines(rpc({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'a' }), rpc({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'b' }))));
    expect(builder.takeChanges().calls.map(({ call }) => call.id)).toEqual(['a', 'b']);
    builder.push(encode(lines(rpc({ sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'completed' }))));
    expect(builder.takeChanges().calls.map(({ call }) => [call.id, call.status])).toEqual([['b', 'completed']]);
    builder.end();
    expect(builder.takeChanges().calls.map(({ call }) => call.id)).toEqual(['a']);

    const array = new SessionBuilder();
    await array.init();
    array.push(encode('[\n  {"jsonrpc":"2.0","method":"session/cancel","params":{}},\n\n'));
    array.end();
    expect(array.session.counts).toEqual({ lines: 1, events: 1, unknown: 0, bad: 0 });
    expect(array.session.diagnostics.warnings).toEqual([{ line: 3, message: 'the JSON array was not closed (input truncated?)' }]);
  });
});
