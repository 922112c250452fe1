// How the parser worker starts the ledger chain's verifier in the library and html-export builds
// (their Vite configs swap this module in for spawnChainWorker.ts): inlined like the parser
// itself, so a host has no extra file to serve. Where it cannot start, the parser verifies the chain.
import ChainWorker from './chain.worker.ts?worker&inline';

export function spawnChainWorker(): Worker {
  return new ChainWorker({ name: 'loupe-chain' });
}
