// The call merge is pure: it never writes into the call or the update it is given (deep-frozen
// ones are accepted), shares what did not change, and a call the builder handed out never changes.
import { expect, test } from 'vitest';
import type { ToolUpdate } from '../ingest/records';
import { SessionBuilder } from './builder';
import { mergeLedgerResult, mergeToolUpdate, newCall, withInputEnd, withPermissionOutcome, type MergeContext } from './merge';
import type { ToolCall } from './types';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

const context = (line: number, ts?: number): MergeContext => ({ detail: 'full', loc: { line, offset: line * 100, length: 100 }, ts });

function toolUpdate(fields: Record<string, unknown>, tag: ToolUpdate['tag'] = 'tool_call_update'): ToolUpdate {
  return { type: 'tool', tag, fields: { toolCallId: 'c1', ...fields }, envelope: { state: 'absent' } };
}

function started(): ToolCall {
  const call = newCall('k', 'c1', 's', 0, 1, 'full', true);
  return mergeToolUpdate(call, toolUpdate({
    title: 'Read a.txt', kind: 'read', status: 'pending', rawInput: { path: 'a.txt' },
    locations: [{ path: 'a.txt' }], content: [{ type: 'terminal', terminalId: 't1' }], _meta: { claudeCode: { toolName: 'Read' } },
  }, 'tool_call'), 'tool_call', context(1, 1000));
}

test('merging into a deep-frozen call and update leaves both as they were', () => {
  const call = deepFreeze(started());
  const update = deepFreeze(toolUpdate({ status: 'completed', _meta: { extra: 1 }, content: [{ type: 'terminal', terminalId: 't2' }] }));
  const before = JSON.stringify([call, update]);
  const merged = mergeToolUpdate(call, update, 'tool_call_update', context(2, 1500));
  expect(JSON.stringify([call, update])).toBe(before);
  expect(merged).not.toBe(call);
  expect(merged).toMatchObject({ status: 'completed', durationMs: 500, terminalIds: ['t1', 't2'], meta: { claudeCode: { toolName: 'Read' }, extra: 1 } });
  expect(merged.history.map((entry) => entry.line)).toEqual([1, 2]);
  expect(call.history).toHaveLength(1);
  expect(call.status).toBe('pending');
});

test('what an update does not touch is shared with the call it was merged into', () => {
  const call = deepFreeze(started());
  const merged = mergeToolUpdate(call, deepFreeze(toolUpdate({ status: 'in_progress' })), 'tool_call_update', context(2));
  expect(merged.locations).toBe(call.locations);
  expect(merged.meta).toBe(call.meta);
  expect(merged.terminalIds).toBe(call.terminalIds);
  expect(merged.rawInput).toBe(call.rawInput);
  expect(merged.content).toBe(call.content);
});

test('an update that changes nothing returns the same call', () => {
  const call = deepFreeze(withInputEnd(started(), 2000));
  expect(withInputEnd(call, 2000)).toBe(call);
  expect(withInputEnd(call, 3000)).not.toBe(call);
  // No permission request to answer.
  expect(withPermissionOutcome(call, { outcome: 'cancelled' })).toBe(call);
});

test('a ledger result merges into a frozen call without writing into its ledger data', () => {
  const call = deepFreeze(newCall('l', 'u1', 'run', 0, 1, 'full', false));
  const merged = mergeLedgerResult(call, deepFreeze({ type: 'tool_result', toolUseId: 'u1', name: 'bash', result: 'ok', hasResult: true, hasError: false, tookUs: 2500 }), context(3));
  expect(merged).toMatchObject({ status: 'completed', durationMs: 2.5, ledger: { name: 'bash', result: 'ok' } });
  expect(call.ledger).toBeUndefined();
  expect(call.history).toHaveLength(0);
});

// ---------------------------------------------------------------------------------------------
// The builder hands out its own call objects and never changes them afterwards.

const SID = 's';
const rpcUpdate = (update: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SID, update } });
const toolCall = (id: string, fields: Record<string, unknown> = {}) => rpcUpdate({ sessionUpdate: 'tool_call', toolCallId: id, title: `call ${id}`, kind: 'execute', status: 'pending', ...fields });
const toolCallUpdate = (id: string, fields: Record<string, unknown>) => rpcUpdate({ sessionUpdate: 'tool_call_update', toolCallId: id, ...fields });
const permission = (rpcId: number, id: string) => ({
  jsonrpc: '2.0', id: rpcId, method: 'session/request_permission',
  params: { sessionId: SID, toolCall: { toolCallId: id }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] },
});
const allowed = (rpcId: number) => ({ jsonrpc: '2.0', id: rpcId, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });

test('calls taken from the builder never change as later updates, joins and the end arrive', () => {
  const builder = new SessionBuilder();
  const taken: { call: ToolCall; historyFrom: number; json: string }[] = [];
  const take = () => {
    for (const { call, historyFrom } of builder.takeChanges().calls) {
      // Frozen: a write into a taken call (or its history) would throw here, in a strict module.
      taken.push({ call: deepFreeze(call), historyFrom, json: JSON.stringify(call) });
    }
  };
  builder.pushValue(toolCall('a'));
  builder.pushValue(toolCall('b'));
  take();
  builder.pushValue(permission(1, 'a'));
  take();
  builder.pushValue(allowed(1));
  // Long enough that the history outgrows the exact-length copies and grows in place.
  for (let i = 0; i < 30; i++) {
    builder.pushValue(toolCallUpdate('a', { status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: `part ${i}` } }] }));
    if (i % 7 === 0) take();
  }
  builder.pushValue(toolCallUpdate('b', { status: 'completed' }));
  take();
  builder.end();
  take();

  for (const { call, json } of taken) expect(JSON.stringify(call)).toBe(json);
  const latest = builder.session.calls.get(taken.findLast(({ call }) => call.id === 'a')!.call.key)!;
  // Each take handed out the history entries not taken before: put together, they are the history.
  const takenA = taken.filter(({ call }) => call.id === 'a');
  expect(takenA.map(({ historyFrom }) => historyFrom)).toEqual([0, 1, 2, 3, 10, 17, 24, 31, 32]);
  expect(takenA.map(({ call }) => call.history.length)).toEqual([1, 1, 1, 7, 7, 7, 7, 1, 0]);
  expect(takenA.flatMap(({ call }) => call.history)).toEqual(latest.history);
  expect(latest.history).toHaveLength(32);
  expect(latest.permission?.outcome).toEqual({ outcome: 'selected', optionId: 'allow', optionName: 'Allow' });
  expect(taken.find(({ call, historyFrom }) => call.id === 'a' && historyFrom === 1)!.call.permission?.outcome).toBeUndefined();
});

test('a call taken before the input ended does not get the end time the end gives it', () => {
  const builder = new SessionBuilder();
  builder.pushValue({ timestamp: 1000, method: 'session/update', params: { sessionId: SID, update: { sessionUpdate: 'tool_call', toolCallId: 'x', status: 'in_progress' }, _meta: { agentTimestampMs: 1_000_000 } } });
  builder.pushValue({ timestamp: 1005, method: 'session/update', params: { sessionId: SID, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }, _meta: { agentTimestampMs: 1_005_000 } } });
  const [before] = builder.takeChanges().calls.map(({ call }) => call);
  builder.end();
  const [after] = builder.takeChanges().calls.map(({ call }) => call);
  expect(before!.inputEndMs).toBeUndefined();
  expect(after!.inputEndMs).toBe(1_005_000);
  expect(after).not.toBe(before);
});
