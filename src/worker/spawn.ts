// How the parser worker is started in the app: a separate module file, emitted by Vite next to
// the bundle and loaded by URL.
//
// The worker does the fetching (`?src=`), so it must be held to the page's Content-Security-Policy,
// the one src/app/csp.ts narrows to this origin and the one `?src=` names. A worker started from
// its own URL takes the policy of that file's response, which a static host sends none of: it
// could fetch a `data:` URL, or follow a redirect anywhere. A worker started from a blob: URL
// takes the page's policy instead; so the worker is a blob holding one line that imports the real
// module (same origin, allowed by script-src 'self'), and everything it fetches is checked against
// the page's connect-src, redirects included.
import workerUrl from './session.worker.ts?worker&url';

export function spawnParserWorker(): Worker {
  const module = new URL(workerUrl, import.meta.url).href;
  const blob = URL.createObjectURL(new Blob([`import ${JSON.stringify(module)};\n`], { type: 'text/javascript' }));
  const worker = new Worker(blob, { type: 'module', name: 'loupe-parser' });
  // The blob is read when the worker starts; it is let go once the worker has spoken (or failed).
  const release = () => {
    URL.revokeObjectURL(blob);
    worker.removeEventListener('message', release);
    worker.removeEventListener('error', release);
  };
  worker.addEventListener('message', release);
  worker.addEventListener('error', release);
  return worker;
}

/** The worker is a file of its own, so it can load the redaction ruleset (a chunk beside it) when asked. */
export const WORKER_LOADS_CHUNKS = true;
