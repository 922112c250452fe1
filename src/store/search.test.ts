// Search finds a call by what is in its input and output, whether the page holds it (a full read)
// or the worker has to look in the file for it (a light read: the output stays in the file).
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createInThreadLoader } from '../worker/loader';
import { createSessionController } from './controller';
import { createSessionStore, type SessionStore } from './createSessionStore';

const ACPX = readFileSync(new URL('../../fixtures/acp/acpx_session-log_from-contract.jsonl', import.meta.url));
const REUSE = readFileSync(new URL('../../fixtures/acp/id-reuse_per-turn-numbering_from-contract.jsonl', import.meta.url));

async function open(bytes: Buffer, light: boolean): Promise<SessionStore> {
  const store = createSessionStore();
  const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0, lightFromBytes: light ? 0 : Infinity }));
  await ctl.load({ kind: 'blob', blob: new Blob([new Uint8Array(bytes)]) });
  return store;
}

/** The ids (and subjects) of the calls the view shows. */
function shownCalls(store: SessionStore): string[] {
  const snap = store.getSnapshot();
  return snap.view.flatMap((index) => {
    const item = snap.items.get(index);
    const call = item?.type === 'call' ? snap.calls.get(item.callKey) : undefined;
    return call ? [`${call.id} ${call.subject ?? ''}`] : [];
  });
}

describe.each([['a full read', false], ['a light read', true]] as const)('search, in %s', (_, light) => {
  it('finds a call by a string only in its terminal output', async () => {
    const store = await open(ACPX, light);
    store.setFilter({ text: 'quokka-7731' });
    await vi.waitFor(() => expect(shownCalls(store)).toEqual(['call_1 npm test']));
  });

  it('finds a call by a string only in its output content, and by its raw input', async () => {
    const store = await open(ACPX, light);
    expect(store.getSnapshot().calls.first()?.detail).toBe(light ? 'light' : 'full');
    store.setFilter({ text: 'PANGOLIN-4410' });
    await vi.waitFor(() => expect(shownCalls(store)).toEqual(['call_2 /work/demo/package.json']));
    const reuse = await open(REUSE, light);
    // `ALPHA` is only the content the rejected write would have written (its rawInput).
    reuse.setFilter({ text: 'ALPHA' });
    await vi.waitFor(() => expect(shownCalls(reuse)).toEqual(['gemini_call_0 /w/a.txt', 'gemini_call_0 /w/a.txt']));
  });

  it('does not find calls by the JSON around what they hold', async () => {
    const store = await open(ACPX, light);
    store.setFilter({ text: 'toolCallId' });
    // Given time to answer, the search still finds nothing: key names are not content.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shownCalls(store)).toEqual([]);
  });
});
