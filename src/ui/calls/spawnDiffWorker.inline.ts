// The library build's diff worker, inlined so a host's bundler has no extra file to serve.
// Where a page's CSP forbids blob: workers, useLineDiff falls back to the linear diff.
import DiffWorker from './diff.worker.ts?worker&inline';

export function spawnDiffWorker(): Worker {
  return new DiffWorker({ name: 'loupe-diff' });
}
