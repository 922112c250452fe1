// What the ledger chain's verifier does with each message from the parser, apart from the worker
// that runs it (chain.worker.ts), so it can be run in-thread too.
import { createBLAKE3, type IHasher } from 'hash-wasm';
import { ChainVerifier, verifyBatch, type ChainWarning } from '../model/chain';
import { hashBlob } from './hashBlob';
import type { FromChainWorker, ToChainWorker } from './remoteChain';

export interface ChainScope {
  postMessage(msg: FromChainWorker): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToChainWorker>) => void): void;
}

export function serveChain(scope: ChainScope): void {
  const warnings: ChainWarning[] = [];
  let content: IHasher | null = null;
  // A file is hashed beside the batches rather than in their queue: the chain's answers keep coming while it is read.
  let fileDigest: Promise<string | undefined> | null = null;
  // Messages are handled in the order they came: each waits for the one before (and for BLAKE3).
  let queue: Promise<ChainVerifier> = ChainVerifier.create((warning) => warnings.push(warning));
  void queue.then(() => scope.postMessage({ type: 'ready' }));

  scope.addEventListener('message', (e) => {
    const msg = e.data;
    queue = queue.then(async (verifier) => {
      switch (msg.type) {
        case 'batch':
          verifyBatch(verifier, msg.batch);
          scope.postMessage({ type: 'chain', reply: { seq: msg.batch.seq, state: verifier.state, warnings: warnings.splice(0) } });
          break;
        case 'contentOf':
          // Unreadable here, it is left to the parser (which reads the same file) to hash or fail.
          fileDigest = createBLAKE3().then((hasher) => hashBlob(hasher, msg.blob)).catch(() => undefined);
          break;
        case 'contentFrom':
          content = (await createBLAKE3()).load(msg.state);
          break;
        case 'content':
          content?.update(msg.bytes);
          break;
        case 'digest': {
          const hex = fileDigest ? await fileDigest : content?.digest('hex');
          scope.postMessage({ type: 'digest', hex });
          break;
        }
      }
      return verifier;
    });
  });
}
