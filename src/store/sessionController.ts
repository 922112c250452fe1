// Runs loads into a store: one load at a time, cancellable. A failure is in the store's load state
// (what the viewer shows) and rejects the load (so the caller's query knows it failed).
import { createDefaultLoader, type SessionLoader } from '../worker/loader';
import type { LoadSource } from '../worker/protocol';
import { blobReader, type CallSummary, type SourceLocation } from '../model';
import type { Result } from '../ingest/result';
import type { SessionStore } from './createSessionStore';

export interface SessionController {
  /** Reads `source` into the store from scratch. Rejects when the source cannot be read. */
  load: (source: LoadSource, signal?: AbortSignal) => Promise<void>;
  /** Stops the current load; what was read stays. */
  cancel: () => void;
  /** Completes a call read light (its output left in the file) and puts the full call in the store. */
  needDetail: (call: CallSummary) => void;
  /**
   * The value of the record at `loc` in the file loaded last, read from it again: an agent's log
   * entry a light read left in its line (an event whose `raw` is undefined).
   */
  readRecord: (loc: SourceLocation) => Promise<Result<unknown>>;
  dispose: () => void;
}

export function createSessionController(store: SessionStore, makeLoader: () => SessionLoader = createDefaultLoader): SessionController {
  let loader: SessionLoader | null = null;
  let current: AbortController | null = null;
  const hydrating = new Set<string>();
  // Only a file read as it is can be read again (a light read is never of a redacted source).
  let readAgain: ((loc: SourceLocation) => Promise<string> | string) | null = null;

  // A light read leaves calls' input and output in the file: the loader searches it there, for
  // each new search text and once more when the read is done, and the store merges what it finds.
  let searched = { text: '', done: false };
  const unsubscribe = store.subscribe(() => {
    const snap = store.getSnapshot();
    const text = snap.filter.text.trim().toLowerCase();
    const done = snap.load.state === 'done';
    if (text === searched.text && done === searched.done) return;
    searched = { text, done };
    const search = loader?.search;
    if (!search || text === '' || snap.calls.first()?.detail !== 'light') return;
    search(text).then(
      (keys) => store.setSearchHits(text, keys),
      () => undefined,
    );
  });

  return {
    async load(source, signal) {
      current?.abort();
      const controller = new AbortController();
      current = controller;
      const onOuterAbort = (): void => controller.abort();
      signal?.addEventListener('abort', onOuterAbort);
      loader ??= makeLoader();
      readAgain = source.kind === 'blob' && source.redact !== true ? blobReader(source.blob) : null;
      store.reset();
      store.setLoadState('loading');
      let failure: string | null = null;
      try {
        await loader.load(
          source,
          (e) => {
            // A superseded load must not write into the store of its successor.
            if (current !== controller) return;
            switch (e.type) {
              case 'delta':
                store.applyDelta(e.delta);
                break;
              case 'done':
                store.setLoadState('done');
                break;
              case 'cancelled':
                store.setLoadState('cancelled');
                break;
              case 'error':
                failure = e.message;
                store.setLoadState('error', e.message);
                break;
            }
          },
          controller.signal,
        );
      } catch (err) {
        // The store is the one place a viewer reads its load state from: a loader that throws says so there too.
        failure = err instanceof Error ? err.message : String(err);
        if (current === controller) store.setLoadState('error', failure);
      } finally {
        signal?.removeEventListener('abort', onOuterAbort);
        if (current === controller) current = null;
      }
      if (failure !== null) throw new Error(failure);
    },
    cancel() {
      current?.abort();
    },
    needDetail(call) {
      if (call.detail === 'full' || !loader) return;
      const rev = store.revisionOf(call.key);
      const tag = `${call.key}@${rev}`;
      if (hydrating.has(tag)) return;
      hydrating.add(tag);
      loader
        .hydrate(call)
        .then((read) => {
          if (!read.ok) store.setDetailError(call.key, read.error);
          else if (read.value.detail === 'full') store.replaceCall(read.value, rev);
        })
        .catch((err: unknown) => store.setDetailError(call.key, err instanceof Error ? err.message : String(err)))
        .finally(() => hydrating.delete(tag));
    },
    async readRecord(loc) {
      if (!readAgain) return { ok: false, error: 'the source cannot be read again' };
      try {
        return { ok: true, value: JSON.parse(await readAgain(loc)) as unknown };
      } catch (err) {
        return { ok: false, error: `line ${loc.line.toLocaleString('en')} could not be read again (has the file changed since it was read?): ${err instanceof Error ? err.message : String(err)}` };
      }
    },
    dispose() {
      unsubscribe();
      current?.abort();
      loader?.dispose();
      loader = null;
    },
  };
}
