// The ledger chain's verifier, beside the parser worker that starts it (one per read): it hashes
// the batches of ledger lines the parser sends and answers each with the chain's state, and it
// hashes the input whole for its content hash. BLAKE3 over every byte, twice for a ledger, costs
// about what parsing them does: here it leaves the parsing thread.
import { createBLAKE3, type IHasher } from 'hash-wasm';
import { ChainVerifier, verifyBatch, type ChainWarning } from '../model/chain';
import type { FromChainWorker, ToChainWorker } from './remoteChain';

const scope = self as unknown as {
  postMessage(msg: FromChainWorker): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToChainWorker>) => void): void;
};

const warnings: ChainWarning[] = [];
let content: IHasher | null = null;
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
      case 'contentFrom':
        content = (await createBLAKE3()).load(msg.state);
        break;
      case 'content':
        content?.update(msg.bytes);
        break;
      case 'digest':
        scope.postMessage({ type: 'digest', hex: content ? content.digest('hex') : undefined });
        break;
    }
    return verifier;
  });
});
