// A delta too deeply nested to clone (Chromium's postMessage overflows its stack on a rawInput
// 2,000 levels deep) is sent bounded: every row read still reaches the page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { writeHostileCases } from '../../scripts/hostile.mjs';
import { isToolCall, type ToolCall } from '../model';
import type { LoaderEvent } from './protocol';
import { pump } from './pump';
import { boundDepth, sendBounded, SENDABLE_DEPTH, TOO_DEEP_NOTE } from './sendable';

const dir = mkdtempSync(join(tmpdir(), 'loupe-sendable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Deepest nesting of objects and arrays in `value`, without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [at, depth] = stack.pop()!;
    if (typeof at !== 'object' || at === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(at)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Like Chromium's postMessage in a worker: a message nested past its native stack throws. */
function postMessageLike(events: LoaderEvent[]) {
  return (event: LoaderEvent): void => {
    if (depthOf(event) > 1000) throw new RangeError('Maximum call stack size exceeded');
    events.push(structuredClone(event));
  };
}

test('a rawInput 2,000 levels deep: the load ends with every call, the deep one bounded with a note', async () => {
  const [written] = writeHostileCases(dir, 'deep-raw-input');
  const events: LoaderEvent[] = [];
  const postMessage = postMessageLike(events);
  // As the worker posts (session.worker.ts): what cannot be posted whole is posted bounded.
  await pump({ kind: 'text', text: readFileSync(written!.file, 'utf8') }, (event) => sendBounded(postMessage, event), new AbortController().signal, { throttleMs: 0 });
  expect(events.at(-1)).toEqual({ type: 'done' });
  const calls = new Map<string, ToolCall>();
  for (const event of events) if (event.type === 'delta') for (const { call } of event.delta.calls) if (isToolCall(call)) calls.set(call.id, call);
  expect(calls.size).toBe(2001);
  const deep = calls.get('deep')!;
  expect(depthOf(deep.rawInput)).toBeLessThan(SENDABLE_DEPTH);
  expect(JSON.stringify(deep.rawInput)).toContain(JSON.stringify(TOO_DEEP_NOTE));
  // Only what could not be sent is bounded: the calls around it are whole.
  expect(calls.get('after-999')?.rawInput).toEqual({ path: '/tmp/a999' });
});

test('the in-thread loader copies a delta too deep to clone the same way', async () => {
  const [written] = writeHostileCases(dir, 'deep-raw-input');
  const events: LoaderEvent[] = [];
  const realClone = globalThis.structuredClone;
  // Node's structuredClone has a deeper stack than a browser's: refuse what a browser would.
  globalThis.structuredClone = ((value: unknown) => {
    if (depthOf(value) > 1000) throw new RangeError('Maximum call stack size exceeded');
    return realClone(value);
  });
  try {
    await pump({ kind: 'text', text: readFileSync(written!.file, 'utf8') }, (e) => events.push(e), new AbortController().signal, { throttleMs: 0, clone: true });
  } finally {
    globalThis.structuredClone = realClone;
  }
  expect(events.at(-1)).toEqual({ type: 'done' });
  const ids = events.flatMap((e) => (e.type === 'delta' ? e.delta.calls.map(({ call }) => call.id) : []));
  expect(new Set(ids).size).toBe(2001);
});

test('boundDepth keeps shallow values as they are and __proto__ keys as keys', () => {
  const value = JSON.parse('{"__proto__":{"polluted":true},"a":[1,{"b":"c"}]}') as unknown;
  const bounded = boundDepth(value, 3);
  expect(bounded).toEqual(value);
  expect(Object.getPrototypeOf(bounded)).toBe(Object.prototype);
  expect(Object.hasOwn(bounded as object, '__proto__')).toBe(true);
  expect(boundDepth({ a: { b: { c: 1 } } }, 2)).toEqual({ a: { b: TOO_DEEP_NOTE } });
});
