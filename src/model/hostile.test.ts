// Issue 12's hostile inputs through the Node reader, each written by scripts/hostile.mjs at its
// stated size: nothing throws, the counts reconcile, and each reads as the contract says. How long
// each takes, at two sizes, is printed by `npm run bench:hostile` (linear time is measured there,
// not asserted here); the tests below check the structures that make it linear.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeHostileCases } from '../../scripts/hostile.mjs';
import { SessionBuilder } from './builder';
import { ingest, type Session } from './index';
import { nonBlankLines } from './testing/nonBlankLines';

const dir = mkdtempSync(join(tmpdir(), 'loupe-hostile-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const encoder = new TextEncoder();


/** Writes case `name` (at `scale` of its stated size), reads it with `ingest()` and checks the accounting. */
async function read(name: string, scale = 1): Promise<{ session: Session; text: string }> {
  const [written] = writeHostileCases(dir, name, { scale });
  const text = readFileSync(written!.file, 'utf8');
  const session = await ingest(text);
  const { lines, events, unknown, bad } = session.counts;
  expect(events + unknown + bad).toBe(lines);
  expect(session.diagnostics.bad).toHaveLength(bad);
  if (!written!.file.endsWith('.json')) expect(lines).toBe(nonBlankLines(text));
  return { session, text };
}

function depthOf(value: unknown): number {
  let depth = 0;
  let at = value;
  while (typeof at === 'object' && at !== null) {
    depth++;
    at = Object.values(at)[0];
  }
  return depth;
}

const rpc = (sessionId: string, update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
const image = { sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'AA==' } };

describe('hostile inputs read in Node', () => {
  test('a rawInput 2,000 levels deep is kept whole, with the 2,000 calls around it', async () => {
    const { session } = await read('deep-raw-input');
    expect(session.calls.size).toBe(2001);
    const deep = [...session.calls.values()].find((call) => call.id === 'deep')!;
    expect(depthOf(deep.rawInput)).toBe(2001);
    expect([...session.calls.values()].at(-1)?.id).toBe('after-999');
  });

  test('50,000 image chunks make one agent message with 50,000 blocks', async () => {
    const { session } = await read('image-chunks');
    expect(session.items).toHaveLength(2);
    const message = session.items[1]!;
    expect(message.type === 'message' && message.blocks.length).toBe(50_000);
  });

  test('image chunks are appended to one list until changes are taken; a taken message keeps its blocks', () => {
    const builder = new SessionBuilder();
    const push = (line: string) => builder.push(encoder.encode(`${line}\n`));
    const blocksOfLast = () => {
      const last = builder.session.items.at(-1)!;
      return last.type === 'message' ? last.blocks : [];
    };
    push(rpc('s', image));
    push(rpc('s', image));
    const growing = blocksOfLast();
    push(rpc('s', image));
    // Appended in place: no copy of the list per chunk.
    expect(blocksOfLast()).toBe(growing);
    expect(growing).toHaveLength(3);
    const taken = builder.takeChanges().items.at(-1)!;
    push(rpc('s', image));
    // What was handed out stays as it was (the store holds it); the builder copied once.
    expect(taken.type === 'message' && taken.blocks).toHaveLength(3);
    expect(blocksOfLast()).not.toBe(growing);
    expect(blocksOfLast()).toHaveLength(4);
    const copied = blocksOfLast();
    push(rpc('s', image));
    expect(blocksOfLast()).toBe(copied);
  });

  test('40,000 requests with one id: replies sent the same way join none, replies sent back join every one', async () => {
    const unjoined = (await read('same-id-requests')).session;
    expect(unjoined.diagnostics.warnings.filter((w) => w.message.startsWith('response to a request not in the input'))).toHaveLength(40_000);
    const joined = (await read('same-id-replies')).session;
    expect(joined.diagnostics.warnings).toHaveLength(0);
    expect(joined.items).toHaveLength(40_000);
  });

  test('replies join the latest unanswered request sent the other way, or with no direction', async () => {
    const capture = (dir: string, msg: object) => JSON.stringify({ t_ms: 0, dir, msg });
    const create = (command: string) => ({ jsonrpc: '2.0', id: 7, method: 'terminal/create', params: { sessionId: 's', command } });
    const created = (terminalId: string) => ({ jsonrpc: '2.0', id: 7, result: { terminalId } });
    const session = await ingest([
      capture('agent->client', create('first')),
      JSON.stringify(create('undirected')),
      capture('agent->client', create('third')),
      capture('client->agent', create('sent the same way as the replies')),
      capture('client->agent', created('t3')),
      capture('client->agent', created('t2')),
      capture('client->agent', created('t1')),
      capture('client->agent', created('none left')),
    ].join('\n'));
    expect([...session.terminals.values()].map((t) => [t.terminalId, t.command])).toEqual([['t3', 'third'], ['t2', 'undirected'], ['t1', 'first']]);
    // The request sent the same way as the replies is never joined.
    expect(session.diagnostics.warnings).toEqual([{ line: 8, message: 'response to a request not in the input (id 7)' }]);
  });

  test('20,000 calls on one terminal and 20,000 polls of it: every call shows the terminal\'s last output', async () => {
    const { session } = await read('terminal-fan-out');
    expect(session.calls.size).toBe(20_000);
    expect([...session.calls.values()].every((call) => call.terminalIds?.[0] === 'term')).toBe(true);
    expect(session.terminals.get('term')?.output).toBe('y\n'.repeat(1 + (19_999 % 8)));
  });

  test('terminal output re-sends no call: the terminal is sent on its own, and views read it from there', () => {
    const builder = new SessionBuilder();
    const push = (message: object) => builder.push(encoder.encode(`${JSON.stringify(message)}\n`));
    push({ jsonrpc: '2.0', id: 'c', method: 'terminal/create', params: { sessionId: 's', command: 'yes' } });
    push({ jsonrpc: '2.0', id: 'c', result: { terminalId: 't' } });
    for (let i = 0; i < 3; i++) {
      push(JSON.parse(rpc('s', { sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: 'yes', kind: 'execute', content: [{ type: 'terminal', terminalId: 't' }] })) as object);
    }
    push(JSON.parse(rpc('s', { sessionUpdate: 'tool_call', toolCallId: 'other', title: 'ls', kind: 'execute' })) as object);
    builder.takeChanges();
    for (let i = 0; i < 50; i++) {
      push({ jsonrpc: '2.0', id: `o${i}`, method: 'terminal/output', params: { sessionId: 's', terminalId: 't' } });
      push({ jsonrpc: '2.0', id: `o${i}`, result: { output: `y${i}`, truncated: false } });
    }
    expect(builder.takeChanges().calls).toEqual([]);
    expect(builder.session.terminals.get('t')?.output).toBe('y49');
  });

  test('one call updated 200,000 times is one call with every update in its history', async () => {
    const { session } = await read('one-call-updates');
    expect(session.calls.size).toBe(1);
    const busy = [...session.calls.values()][0]!;
    expect(busy.history).toHaveLength(200_001);
    expect(busy.rawOutput).toEqual({ step: 199_999 });
  });

  test('100,000 sessions (a tenth of the stated million, which bench:hostile reads) are each noted once', async () => {
    const { session } = await read('million-sessions', 0.1);
    expect(session.sessionIds).toHaveLength(100_000);
    expect(new Set(session.sessionIds).size).toBe(100_000);
  });

  test('a 10 MB agent message is one message', async () => {
    const { session } = await read('huge-message');
    const message = session.items[1]!;
    expect(message.type === 'message' && message.text.length).toBeGreaterThan(10 * 1024 * 1024);
  });

  test('__proto__, constructor and toString in _meta stay keys: the label is the kind\'s, no prototype changes', async () => {
    const { session } = await read('meta-proto');
    const call = [...session.calls.values()][0]!;
    expect(call.label).toBe('Read');
    expect(Object.getPrototypeOf(call.meta)).toBe(Object.prototype);
    expect(Object.keys(call.meta).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(call.meta, '__proto__')?.value).toEqual({ claudeCode: { toolName: 'Bash' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('ids holding NUL stay distinct: four ids, four calls', async () => {
    const { session } = await read('nul-ids');
    const calls = [...session.calls.values()];
    expect(calls.map((call) => [call.sessionId, call.id, call.label])).toEqual([
      ['a\u0000b', 'c', 'Read'],
      ['a', 'b\u0000c', 'Edit'],
      ['\u0000ledger', 'x', 'Run Command'],
      ['r', 'x', 'Read'],
    ]);
    expect(new Set(calls.map((call) => call.key)).size).toBe(4);
  });

  test('a Zed export with one unterminated string loses that element only', async () => {
    const { session, text } = await read('zed-unterminated');
    expect(session.counts).toEqual({ lines: 1000, events: 999, unknown: 0, bad: 1 });
    const brokenLine = text.split('\n').findIndex((line) => line.includes('"call 10 {[')) + 1;
    const bad = session.diagnostics.bad[0]!;
    // Reported where its element starts, a few lines above the broken string.
    expect(bad.line).toBeLessThan(brokenLine);
    expect(brokenLine - bad.line).toBeLessThan(12);
    const ids = [...session.calls.values()].map((call) => call.id);
    expect(ids).not.toContain('zed-10');
    expect(ids.slice(9, 11)).toEqual(['zed-9', 'zed-11']);
    expect(ids.at(-1)).toBe('zed-999');
  });

  test.each([['ledger-garbage-inserted'], ['ledger-foreign-inserted']])('%s: the chain breaks at the ledger line after it and names it', async (name) => {
    const { session } = await read(name);
    expect(session.chain).toEqual({ state: 'broken', lines: 19, line: 10, reason: 'line 9 is not part of the chain: it was inserted between ledger lines 8 and 10' });
  });

  test('escape sequences in ids, outputs and a bad line are read as they are', async () => {
    const { session } = await read('terminal-injection');
    expect(session.counts).toEqual({ lines: 7, events: 6, unknown: 0, bad: 1 });
    expect([...session.calls.values()][0]?.id).toContain('\u001b]52;');
  });
});
