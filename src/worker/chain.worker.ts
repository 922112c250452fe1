// The ledger chain's verifier, beside the parser worker that starts it (one per read): it hashes
// the batches of ledger lines the parser sends and answers each with the chain's state, so the
// hashing (as costly as parsing the same lines) leaves the parsing thread.
import { ChainVerifier, verifyBatch, type ChainBatch, type ChainReply, type ChainWarning } from '../model/chain';

const scope = self as unknown as {
  postMessage(msg: ChainReply): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ChainBatch>) => void): void;
};

const warnings: ChainWarning[] = [];
const ready = ChainVerifier.create((warning) => warnings.push(warning));

// Batches are verified in the order they came: `then` callbacks on one promise run in order.
scope.addEventListener('message', (e) => {
  const batch = e.data;
  void ready.then((verifier) => {
    verifyBatch(verifier, batch);
    scope.postMessage({ seq: batch.seq, state: verifier.state, warnings: warnings.splice(0) });
  });
});
