// The parser's side of a verifier in a worker of its own: ledger lines go out in batches (their
// bytes transferred) and the chain's state comes back; the input goes out too, for its content
// hash: a file once (the worker reads it), other inputs chunk by chunk. A verifier that cannot
// start leaves both to be hashed here.
import type { IHasher } from 'hash-wasm';
import type { ChainState } from '../model';
import { ChainBatcher, type ChainBatch, type ChainReply, type ChainWarning } from '../model/chain';
import { hashBlob } from './hashBlob';

export type ToChainWorker =
  | { type: 'batch'; batch: ChainBatch }
  /** The input is this file: the worker hashes it whole, from the file (a Blob is posted without copying its bytes). */
  | { type: 'contentOf'; blob: Blob }
  /** The content hasher's state so far: the worker hashes on from it. */
  | { type: 'contentFrom'; state: Uint8Array }
  | { type: 'content'; bytes: Uint8Array }
  | { type: 'digest' };

export type FromChainWorker =
  | { type: 'ready' }
  | { type: 'chain'; reply: ChainReply }
  | { type: 'digest'; hex: string | undefined };

export interface RemoteChain {
  /** What the builder tells of each line (`BuilderOptions.chain`). */
  batcher: ChainBatcher;
  /**
   * The input's content hash, hashed in the worker once it has started (before that, and if it
   * never starts, in `local`). `digest` is undefined if the worker stopped after taking it over.
   */
  contentHash(local: IHasher): { update(chunk: Uint8Array): void; digest(): Promise<string | undefined> };
  /**
   * The content hash of a file, read and hashed in the worker while the parser reads it: the parser
   * neither hashes nor copies its chunks. If the worker is not ready by the end of the read, or
   * stops, the file is read again and hashed in `local`, so the digest is always the file's.
   */
  contentHashOf(blob: Blob, local: IHasher): { update(chunk: Uint8Array): void; digest(): Promise<string> };
  /** Stops the worker; call once the batcher is drained and the digest taken. */
  close(): void;
}

/**
 * A worker that has not said it is ready by then is taken for one that cannot start (a nested
 * worker a browser or a page's policy does not allow may neither run nor fail): the read must not
 * wait on it forever.
 */
const START_TIMEOUT_MS = 10_000;

/** A verifier in a worker from `spawn`; null where none can be started (the builder then verifies in place). */
export function remoteChain(spawn: () => Worker, onReply: (state: ChainState | null, warnings: ChainWarning[]) => void): RemoteChain | null {
  let worker: Worker;
  try {
    worker = spawn();
  } catch {
    return null;
  }
  const post = (msg: ToChainWorker, transfer: Transferable[] = []): void => worker.postMessage(msg, transfer);
  const batcher = new ChainBatcher((batch, transfer) => post({ type: 'batch', batch }, transfer ? [batch.bytes.buffer] : []), onReply);
  let ready = false;
  let stopped = false;
  let digested: ((hex: string | undefined) => void) | null = null;
  worker.addEventListener('message', (e: MessageEvent<FromChainWorker>) => {
    const msg = e.data;
    if (msg.type === 'ready') {
      ready = true;
      clearTimeout(startTimer);
    }
    else if (msg.type === 'chain') batcher.receive(msg.reply);
    else digested?.(msg.hex);
  });
  const failed = (reason: string): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(startTimer);
    worker.terminate();
    digested?.(undefined);
    void batcher.verifierFailed(reason);
  };
  worker.addEventListener('error', (e: ErrorEvent) => {
    // Handled here: a blocked or failed verifier is not an error of the page.
    e.preventDefault();
    failed(e.message || 'the verifier worker could not start');
  });
  worker.addEventListener('messageerror', () => failed('a verifier message could not be read'));
  const startTimer = setTimeout(() => failed('the verifier worker did not start'), START_TIMEOUT_MS);
  /** The worker's content hash; undefined if it stops before answering. */
  const askDigest = (): Promise<string | undefined> =>
    new Promise((resolve) => {
      digested = resolve;
      post({ type: 'digest' });
    });
  return {
    batcher,
    contentHash(local) {
      let handedOver = false;
      return {
        update(chunk) {
          if (!handedOver && (!ready || stopped)) {
            local.update(chunk);
            return;
          }
          if (stopped) return;
          if (!handedOver) {
            post({ type: 'contentFrom', state: local.save() });
            handedOver = true;
          }
          // A copy of its own, to transfer: the parser may still hold the chunk (a line carried over).
          const bytes = new Uint8Array(chunk);
          post({ type: 'content', bytes }, [bytes.buffer]);
        },
        digest() {
          if (!handedOver) return Promise.resolve(local.digest('hex'));
          if (stopped) return Promise.resolve(undefined);
          return askDigest();
        },
      };
    },
    contentHashOf(blob, local) {
      post({ type: 'contentOf', blob });
      return {
        update: () => undefined,
        async digest() {
          // Not ready by now, the worker is not waited for (it may never start): the read is done.
          const hex = ready && !stopped ? await askDigest() : undefined;
          return hex ?? hashBlob(local, blob);
        },
      };
    },
    close: () => {
      clearTimeout(startTimer);
      worker.terminate();
    },
  };
}
