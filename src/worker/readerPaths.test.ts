// Every reader path gives the same calls for every fixture: the CLI's (light, from a stream), the
// model read whole, and a viewer's loader (in-thread here; the worker runs the same pump), full
// and light. The browser's worker path is checked against the same model in e2e/fixtures.spec.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { displayStatus, ingest, isToolCall, type CallSummary } from '../model';
import type { LoaderEvent } from './protocol';
import { pump } from './pump';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const samples = ['acp', 'grok', 'ledger', 'native'].flatMap((dir) => readdirSync(join(FIXTURES, dir)).map((name) => `${dir}/${name}`));

/** What every reader path must agree on for a call. */
const projection = (call: CallSummary, ended: boolean) => ({
  key: call.key, id: call.id, label: call.label, subject: call.subject, status: displayStatus(call, ended),
  permission: call.permission?.outcome ?? null, dir: call.dir, startMs: call.startMs, durationMs: call.durationMs,
  inputEndMs: call.inputEndMs, terminalIds: call.terminalIds,
});

/** The calls as a viewer's store ends up with them, delta by delta. */
async function viaLoader(bytes: Uint8Array<ArrayBuffer>, light: boolean) {
  const calls = new Map<string, CallSummary>();
  let ended = false;
  const onEvent = (event: LoaderEvent) => {
    if (event.type !== 'delta') return;
    for (const { call } of event.delta.calls) {
      // A light read sends the page rows only: no history, content or raw input.
      if (light) expect(isToolCall(call) || 'rawInput' in call).toBe(false);
      calls.set(call.key, call);
    }
    ended = event.delta.ended;
  };
  const blob = new Blob([bytes]);
  await pump({ kind: 'blob', blob }, onEvent, new AbortController().signal, { throttleMs: 0, clone: true, lightFromBytes: light ? 0 : Infinity });
  return [...calls.values()].map((call) => projection(call, ended));
}

describe.each(samples)('%s', (path) => {
  test('full and light, in Node and through the loader, give the same calls', async () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, path)));
    const full = await ingest(bytes, { chunkSize: 4096 });
    const expected = [...full.calls.values()].map((call) => projection(call, full.ended));
    const light = await ingest(bytes, { chunkSize: 777, detail: 'light' });
    expect([...light.calls.values()].map((call) => projection(call, light.ended))).toEqual(expected);
    expect(await viaLoader(bytes, false)).toEqual(expected);
    expect(await viaLoader(bytes, true)).toEqual(expected);
  });
});
