// How the parser worker is started in the library and html-export builds (vite.lib.config.ts and
// vite.export.config.ts swap this module in for spawn.ts): the worker's code is inlined, so a
// host's bundler has no extra file to find, copy and serve. Where a page's CSP forbids blob: workers, the loader falls back to parsing in-thread.
import ParserWorker from './session.worker.ts?worker&inline';

export function spawnParserWorker(): Worker {
  return new ParserWorker({ name: 'loupe-parser' });
}

/**
 * An inlined worker runs from a blob: URL, where the chunks it would import on demand (the
 * redaction ruleset) cannot be found: a redacted load is read in-thread instead, where the host's
 * bundler loads that chunk.
 */
export const WORKER_LOADS_CHUNKS = false;
