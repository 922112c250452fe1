/* global window, document, Worker */
// npm run bench:browser's second page: ingest() alone in a module worker, as the viewer's parser
// runs it, light and full, beside JSON.parse of the same lines in the same worker.
window.benchIngest = (runs) => {
  const file = /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="file-input"]')).files?.[0];
  const worker = new Worker(new URL('./ingest.worker.mjs', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage({ file, runs });
  });
};
