// How the parser worker starts the ledger chain's verifier in the app: a module file of its own,
// emitted by Vite next to the parser's and loaded by URL.
export function spawnChainWorker(): Worker {
  return new Worker(new URL('./chain.worker.ts', import.meta.url), { type: 'module', name: 'loupe-chain' });
}
