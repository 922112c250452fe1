// The parser's side of a chain verifier in a worker of its own: ledger lines go out in batches
// (their bytes transferred), the chain's state comes back, and a verifier that cannot start leaves
// the chain to be verified here.
import { ChainBatcher, type ChainReply, type ChainWarning } from '../model/chain';
import type { ChainState } from '../model';

export interface RemoteChain {
  /** What the builder tells of each line (`BuilderOptions.chain`). */
  batcher: ChainBatcher;
  /** Stops the worker; call once the batcher is drained. */
  close(): void;
}

/** A verifier in a worker from `spawn`; null where none can be started (the builder then verifies in place). */
export function remoteChain(spawn: () => Worker, onReply: (state: ChainState | null, warnings: ChainWarning[]) => void): RemoteChain | null {
  let worker: Worker;
  try {
    worker = spawn();
  } catch {
    return null;
  }
  const batcher = new ChainBatcher((batch, transfer) => worker.postMessage(batch, transfer ? [batch.bytes.buffer] : []), onReply);
  worker.addEventListener('message', (e: MessageEvent<ChainReply>) => batcher.receive(e.data));
  const failed = (reason: string): void => {
    worker.terminate();
    void batcher.verifierFailed(reason);
  };
  worker.addEventListener('error', (e: ErrorEvent) => {
    // Handled here: a blocked or failed verifier is not an error of the page.
    e.preventDefault();
    failed(e.message || 'the verifier worker could not start');
  });
  worker.addEventListener('messageerror', () => failed('a verifier message could not be read'));
  return { batcher, close: () => worker.terminate() };
}
