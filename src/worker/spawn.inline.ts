// How the parser worker is started in the library build (vite.lib.config.ts swaps this module in
// for spawn.ts): the worker's code is inlined, so a host's bundler has no extra file to find,
// copy and serve. Where a page's CSP forbids blob: workers, the loader falls back to parsing in-thread.
import ParserWorker from './session.worker.ts?worker&inline';

export function spawnParserWorker(): Worker {
  return new ParserWorker({ name: 'loupe-parser' });
}
