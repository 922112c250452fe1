// The delta as the builder writes it (`takeDelta`): what the page is sent after each take, from
// where the last delta left off.
import { describe, expect, test } from 'vitest';
import { SessionBuilder } from './builder';
import { DELTA_PARTS, DELTA_PART_NAMES, type SessionDelta } from './delta';

const encoder = new TextEncoder();

function builderWith(detail: 'full' | 'light' = 'full') {
  const builder = new SessionBuilder({ detail });
  const push = (message: object) => builder.push(encoder.encode(`${JSON.stringify(message)}\n`));
  const update = (sessionId: string, update: object) => push({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
  return { builder, push, update };
}

const progress = { bytesRead: 10 };

describe('takeDelta', () => {
  test('a terminal is sent when it is written, and not again until it is written again', () => {
    const { builder, push } = builderWith();
    push({ jsonrpc: '2.0', id: 1, method: 'terminal/create', params: { sessionId: 's', command: 'npm' } });
    push({ jsonrpc: '2.0', id: 1, result: { terminalId: 't' } });
    expect(builder.takeDelta({ progress }).terminals).toEqual([{ terminalId: 't', command: 'npm', output: '', truncated: false }]);
    push({ jsonrpc: '2.0', id: 'x', method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'go' }] } });
    expect(builder.takeDelta({ progress }).terminals).toEqual([]);
    push({ jsonrpc: '2.0', id: 2, method: 'terminal/output', params: { sessionId: 's', terminalId: 't' } });
    push({ jsonrpc: '2.0', id: 2, result: { output: 'ok', truncated: false, exitStatus: { exitCode: 0 } } });
    expect(builder.takeDelta({ progress }).terminals).toEqual([{ terminalId: 't', command: 'npm', output: 'ok', truncated: false, exitCode: 0 }]);
  });

  test('each list is sent from where the last delta left it, and every part the table requires is there', () => {
    const { builder, push, update } = builderWith();
    update('a', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    builder.push(encoder.encode('not json\n'));
    const first = builder.takeDelta({ progress });
    for (const part of DELTA_PART_NAMES) if (!DELTA_PARTS[part].optional) expect(first).toHaveProperty(part);
    expect(first).toMatchObject({ sessionIds: ['a'], sessionIdsFrom: 0, badFrom: 0, itemsFrom: 0, progress: { bytesRead: 10, records: 2 } });
    expect(first.bad).toHaveLength(1);
    expect(first).not.toHaveProperty('findings');
    expect(first).not.toHaveProperty('contentHash');
    update('b', { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'ls', kind: 'execute', status: 'pending' });
    push({ jsonrpc: '2.0', id: 9, result: {} });
    const second: SessionDelta = builder.takeDelta({ progress, contentHash: 'h' });
    expect(second).toMatchObject({ sessionIds: ['b'], sessionIdsFrom: 1, bad: [], badFrom: 1, contentHash: 'h' });
    expect(second.warnings.map((warning) => warning.message)).toEqual(['response to a request not in the input (id 9)']);
    expect(second.calls.map(({ call }) => call.id)).toEqual(['c']);
  });

  test('a redacted read sends the findings its reader says are ready, each once, from where the last delta left them', () => {
    const { builder, update } = builderWith();
    const all = [{ line: 1, kind: 'aws' }];
    const seen: string[][] = [];
    const findings = {
      all,
      ready: (calls: SessionDelta['calls']) => {
        seen.push(calls.map(({ call }) => call.id));
        return all.length;
      },
    };
    update('s', { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'cat', kind: 'read' });
    expect(builder.takeDelta({ progress, findings })).toMatchObject({ findings: [{ line: 1, kind: 'aws' }], findingsFrom: 0 });
    all.push({ line: 2, kind: 'jwt' });
    expect(builder.takeDelta({ progress, findings })).toMatchObject({ findings: [{ line: 2, kind: 'jwt' }], findingsFrom: 1 });
    expect(seen).toEqual([['c'], []]);
  });

  test('a light builder sends rows: no history, no output', () => {
    const { builder, update } = builderWith('light');
    update('s', { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'cat', kind: 'read', status: 'pending' });
    update('s', { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'bulk' } }] });
    const [patch] = builder.takeDelta({ progress }).calls;
    expect(patch?.call).toMatchObject({ id: 'c', status: 'completed' });
    expect(patch?.call).not.toHaveProperty('history');
  });
});
