// The parser worker: one per viewer instance. Loads run one at a time; a new load cancels the old.
import { fail } from '../ingest/result';
import { pump, type OpenSession } from './pump';
import type { FromWorker, ToWorker } from './protocol';
import { sendBounded } from './sendable';
import { spawnChainWorker } from './spawnChainWorker';
import { workerRedactor } from './workerRedactor';

const scope = self as unknown as {
  postMessage(msg: FromWorker): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToWorker>) => void): void;
};

const running = new Map<number, AbortController>();
// The latest read, kept so its calls can be completed when they are opened.
let open: { id: number; session: OpenSession } | null = null;

/** A message too deeply nested to clone is sent with its deepest levels replaced by a note, not lost. */
const post = (msg: FromWorker): void => sendBounded((m: FromWorker) => scope.postMessage(m), msg);

scope.addEventListener('message', (e) => {
  const msg = e.data;
  if (msg.type === 'cancel') {
    running.get(msg.id)?.abort();
    return;
  }
  if (msg.type === 'search') {
    const session = open?.id === msg.id ? open.session : null;
    const answer = (keys: string[]) => scope.postMessage({ type: 'searched', id: msg.id, reqId: msg.reqId, keys });
    if (!session) answer([]);
    else session.searchCalls(msg.text).then(answer, () => answer([]));
    return;
  }
  if (msg.type === 'hydrate') {
    const session = open?.id === msg.id ? open.session : null;
    if (!session) {
      scope.postMessage({ type: 'hydrated', id: msg.id, reqId: msg.reqId, result: fail('the source is no longer open') });
      return;
    }
    session.fullCall(msg.key).then(
      (result) => post({ type: 'hydrated', id: msg.id, reqId: msg.reqId, result }),
      (err: unknown) => scope.postMessage({ type: 'hydrated', id: msg.id, reqId: msg.reqId, result: fail(String(err)) }),
    );
    return;
  }
  open = null;
  for (const c of running.values()) c.abort();
  const controller = new AbortController();
  running.set(msg.id, controller);
  const id = msg.id;
  const onSession = (session: OpenSession): void => {
    open = { id, session };
  };
  void pump(msg.source, (ev) => post({ ...ev, id }), controller.signal, { onSession, chainVerifier: spawnChainWorker, ...(workerRedactor ? { redactor: workerRedactor } : {}) }).finally(() =>
    running.delete(msg.id),
  );
});
