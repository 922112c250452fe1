// Search finds a call by what is in its input and output, whether the page holds it (a full read)
// or the worker has to look in the file for it (a light read: the output stays in the file).
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createInThreadLoader } from '../worker/loader';
import { createSessionController } from './sessionController';
import { createSessionStore, type SessionStore } from './createSessionStore';

const ACPX = readFileSync(new URL('../../fixtures/acp/acpx_session-log_from-contract.jsonl', import.meta.url));
const TEE_TEXT = readFileSync(new URL('../../fixtures/acp/loupe-tee_text-frames.jsonl', import.meta.url));
const REUSE = readFileSync(new URL('../../fixtures/acp/id-reuse_per-turn-numbering_from-contract.jsonl', import.meta.url));

/** The file searches the loader was asked for, each as the promise of its answer. */
const fileSearches = new WeakMap<SessionStore, Promise<string[]>[]>();

async function open(bytes: Buffer, light: boolean): Promise<SessionStore> {
  const store = createSessionStore();
  const asked: Promise<string[]>[] = [];
  fileSearches.set(store, asked);
  const ctl = createSessionController(store, () => {
    const loader = createInThreadLoader({ throttleMs: 0, lightFromBytes: light ? 0 : Infinity });
    const search = loader.search;
    if (!search) return loader;
    return { ...loader, search: (text: string) => { const answer = search(text); asked.push(answer); return answer; } };
  });
  await ctl.load({ kind: 'blob', blob: new Blob([new Uint8Array(bytes)]) });
  return store;
}

/** The ids (and subjects) of the calls the view shows. */
function shownCalls(store: SessionStore): string[] {
  const snap = store.getSnapshot();
  return snap.shownRows.flatMap((index) => {
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
    // A light read asks the file (whose answer the store merges before this await resumes); a
    // full read holds every call and asks nothing. Either way key names are not content.
    const asked = fileSearches.get(store) ?? [];
    expect(asked).toHaveLength(light ? 1 : 0);
    await Promise.all(asked);
    expect(shownCalls(store)).toEqual([]);
  });
});

describe("search reaches tee's stderr and text lines", () => {
  it('finds an agent stderr line and a text frame by their words', async () => {
    const store = await open(TEE_TEXT, false);
    const shownEvents = () => {
      const snap = store.getSnapshot();
      return snap.shownRows.flatMap((index) => {
        const item = snap.items.get(index);
        return item?.type === 'event' ? [item.summary] : [];
      });
    };
    store.setFilter({ text: 'slow to ANSWER' });
    expect(shownEvents()).toEqual(['WARN tool runner slow to answer']);
    store.setFilter({ text: 'is this thing on' });
    expect(shownEvents()).toEqual(['hello? is this thing on']);
  });
});
