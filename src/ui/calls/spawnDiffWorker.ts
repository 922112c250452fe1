// How the diff worker is started in the app: a module file emitted by Vite and loaded by URL.
// The library build swaps in spawnDiffWorker.inline.ts (see vite.lib.config.ts).
export function spawnDiffWorker(): Worker {
  return new Worker(new URL('./diff.worker.ts', import.meta.url), { type: 'module', name: 'loupe-diff' });
}
