// The parser worker: one per viewer instance. Loads run one at a time; a new load cancels the old.
import { pump } from './pump';
import type { FromWorker, ToWorker } from './protocol';

const scope = self as unknown as {
  postMessage(msg: FromWorker): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToWorker>) => void): void;
};

const running = new Map<number, AbortController>();

scope.addEventListener('message', (e) => {
  const msg = e.data;
  if (msg.type === 'cancel') {
    running.get(msg.id)?.abort();
    return;
  }
  for (const c of running.values()) c.abort();
  const controller = new AbortController();
  running.set(msg.id, controller);
  void pump(msg.source, (ev) => scope.postMessage({ ...ev, id: msg.id }), controller.signal).finally(() =>
    running.delete(msg.id),
  );
});
