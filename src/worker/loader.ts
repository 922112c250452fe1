// A loader runs a source through the parser and reports deltas. Two implementations share one
// interface: a Web Worker (the default in browsers) and an in-thread path (tests, a fallback where
// workers are unavailable, and redacted loads in the inlined builds).
import type { OpenSession, PumpOptions } from './pump';
import type { Redactor } from './redactStream';
import { cloneBounded } from './sendable';
import { spawnParserWorker, WORKER_LOADS_CHUNKS } from './spawn';
import { fail, ok, type Result } from '../ingest/result';
import { isToolCall, type CallSummary, type ToolCall } from '../model/types';
import type { FromWorker, LoaderEvent, LoadSource, ToWorker } from './protocol';

export interface SessionLoader {
  /** Resolves when the load ends (done, cancelled or failed: each is reported through onEvent first). */
  load: (source: LoadSource, onEvent: (e: LoaderEvent) => void, signal: AbortSignal) => Promise<void>;
  /** The full state of a call of the latest load, or why it could not be read; a full call comes back as it is. */
  hydrate: (call: CallSummary) => Promise<Result<ToolCall>>;
  /**
   * Keys of the latest load's calls whose input or output, left in the file by a light read,
   * holds `text` (the page has the rest and searches it itself). Optional: a loader without it
   * finds only what the page holds.
   */
  search?: (text: string) => Promise<string[]>;
  dispose: () => void;
}

export function createInThreadLoader(opts: PumpOptions = {}): SessionLoader {
  let open: OpenSession | null = null;
  return {
    // Loaded on demand so pages that use the Worker do not also download the parser.
    load: async (source, onEvent, signal) => {
      open = null;
      const { pump } = await import('./pump');
      const redactor: Redactor = () => import('../share/redact/redactLine').then((m) => m.createLineRedactor);
      return pump(source, onEvent, signal, { redactor, ...opts, clone: true, onSession: (s) => void (open = s) });
    },
    hydrate: async (call) => {
      if (isToolCall(call) && call.detail === 'full') return ok(call);
      if (!open) return fail('the source is no longer open');
      const read = await open.fullCall(call.key);
      // Same as crossing the worker boundary: the store never shares the builder's objects.
      return read.ok ? ok(cloneBounded(read.value)) : read;
    },
    search: async (text) => (open ? open.searchCalls(text) : []),
    dispose: () => {
      open = null;
    },
  };
}

/** `spawn` starts a parser worker (tests hand in a stand-in). */
export function createWorkerLoader(spawn: () => Worker = spawnParserWorker): SessionLoader {
  let worker: Worker | null = null;
  let nextId = 1;
  let lastLoad = 0;
  let nextReq = 1;
  const listeners = new Map<number, (e: LoaderEvent) => void>();
  const pendingHydrations = new Map<number, (read: Result<ToolCall>) => void>();
  const pendingSearches = new Map<number, (keys: string[]) => void>();

  /** Every request in flight ends: loads with `event`, reads of calls with `why`, searches with nothing found. */
  const settleAll = (event: LoaderEvent, why: string): void => {
    for (const resolve of pendingHydrations.values()) resolve(fail(why));
    pendingHydrations.clear();
    for (const resolve of pendingSearches.values()) resolve([]);
    pendingSearches.clear();
    for (const fn of [...listeners.values()]) fn(event);
    listeners.clear();
  };

  const ensure = (): Worker => {
    if (worker) return worker;
    const w = spawn();
    w.addEventListener('message', (e: MessageEvent<FromWorker>) => {
      const m = e.data;
      if (m.type === 'searched') {
        pendingSearches.get(m.reqId)?.(m.keys);
        pendingSearches.delete(m.reqId);
        return;
      }
      if (m.type === 'hydrated') {
        pendingHydrations.get(m.reqId)?.(m.result);
        pendingHydrations.delete(m.reqId);
        return;
      }
      listeners.get(m.id)?.(m);
    });
    w.addEventListener('error', (e) => {
      // A worker that failed is not asked again: the next load starts a new one, and nothing
      // waiting on this one waits for ever.
      const message = `Parser worker failed: ${e.message || 'unknown error'}`;
      w.terminate();
      if (worker === w) {
        worker = null;
        lastLoad = 0;
      }
      settleAll({ type: 'error', message }, message);
    });
    worker = w;
    return w;
  };

  return {
    load(source, onEvent, signal) {
      const w = ensure();
      const id = nextId++;
      lastLoad = id;
      return new Promise<void>((resolve) => {
        const finish = (): void => {
          listeners.delete(id);
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const msg: ToWorker = { type: 'cancel', id };
          w.postMessage(msg);
        };
        listeners.set(id, (e) => {
          onEvent(e);
          if (e.type !== 'delta') finish();
        });
        signal.addEventListener('abort', onAbort);
        const msg: ToWorker = { type: 'load', id, source };
        // A stream can only be read where it lives: transfer it into the worker.
        w.postMessage(msg, source.kind === 'stream' ? [source.stream] : []);
        if (signal.aborted) onAbort();
      });
    },
    hydrate(call) {
      if (isToolCall(call) && call.detail === 'full') return Promise.resolve(ok(call));
      if (!worker || lastLoad === 0) return Promise.resolve(fail('the source is no longer open'));
      const reqId = nextReq++;
      const w = worker;
      return new Promise<Result<ToolCall>>((resolve) => {
        pendingHydrations.set(reqId, resolve);
        const msg: ToWorker = { type: 'hydrate', id: lastLoad, reqId, key: call.key };
        w.postMessage(msg);
      });
    },
    search(text) {
      if (!worker || lastLoad === 0) return Promise.resolve([]);
      const reqId = nextReq++;
      const w = worker;
      return new Promise<string[]>((resolve) => {
        pendingSearches.set(reqId, resolve);
        const msg: ToWorker = { type: 'search', id: lastLoad, reqId, text };
        w.postMessage(msg);
      });
    },
    dispose() {
      worker?.terminate();
      worker = null;
      settleAll({ type: 'cancelled' }, 'the viewer was closed');
    },
  };
}

/** The worker loader where Workers exist, else the in-thread one. */
export function createDefaultLoader(): SessionLoader {
  if (typeof Worker !== 'function') return createInThreadLoader();
  const viaWorker = createWorkerLoader();
  let fallback: SessionLoader | null = null;
  let inThread: SessionLoader | null = null;
  // The loader of the latest load, which answers for its calls.
  let latest: SessionLoader = viaWorker;
  return {
    load(source, onEvent, signal) {
      if (source.redact && !WORKER_LOADS_CHUNKS && !fallback) {
        latest = inThread ??= createInThreadLoader();
        return inThread.load(source, onEvent, signal);
      }
      latest = fallback ?? viaWorker;
      if (fallback) return fallback.load(source, onEvent, signal);
      try {
        return viaWorker.load(source, onEvent, signal);
      } catch {
        // A page's CSP can forbid workers; parsing in-thread is slower but shows the same session.
        latest = fallback = createInThreadLoader();
        return fallback.load(source, onEvent, signal);
      }
    },
    hydrate: (call) => latest.hydrate(call),
    search: (text) => latest.search?.(text) ?? Promise.resolve([]),
    dispose() {
      viaWorker.dispose();
      fallback?.dispose();
      inThread?.dispose();
    },
  };
}
