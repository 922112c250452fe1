// How the parser worker is started in the app: a separate module file, emitted by Vite next to
// the bundle and loaded by URL.
export function spawnParserWorker(): Worker {
  return new Worker(new URL('./session.worker.ts', import.meta.url), { type: 'module', name: 'loupe-parser' });
}

/** The worker is a file of its own, so it can load the redaction ruleset (a chunk beside it) when asked. */
export const WORKER_LOADS_CHUNKS = true;
