// The parser worker: one per viewer instance. Loads run one at a time; a new load cancels the old.
import { hydrate, pump } from './pump';
import type { FromWorker, LoadSource, ToWorker } from './protocol';

const scope = self as unknown as {
  postMessage(msg: FromWorker): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToWorker>) => void): void;
};

const running = new Map<number, AbortController>();
// The source of the latest load, kept so light calls can be completed when they are opened.
let lastSource: { id: number; source: LoadSource } | null = null;

scope.addEventListener('message', (e) => {
  const msg = e.data;
  if (msg.type === 'cancel') {
    running.get(msg.id)?.abort();
    return;
  }
  if (msg.type === 'hydrate') {
    const src = lastSource?.id === msg.id ? lastSource.source : null;
    if (!src) {
      scope.postMessage({ type: 'hydrated', id: msg.id, reqId: msg.reqId, call: null, error: 'the source is no longer open' });
      return;
    }
    hydrate(src, msg.call).then(
      (call) => scope.postMessage({ type: 'hydrated', id: msg.id, reqId: msg.reqId, call }),
      (err: unknown) => scope.postMessage({ type: 'hydrated', id: msg.id, reqId: msg.reqId, call: null, error: String(err) }),
    );
    return;
  }
  lastSource = { id: msg.id, source: msg.source };
  for (const c of running.values()) c.abort();
  const controller = new AbortController();
  running.set(msg.id, controller);
  void pump(msg.source, (ev) => scope.postMessage({ ...ev, id: msg.id }), controller.signal).finally(() =>
    running.delete(msg.id),
  );
});
