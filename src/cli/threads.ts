// Worker threads of the CLI run the module that starts them (its `import.meta.url`): the built CLI
// then needs no entry of its own for them, and a module knows it is the thread by `workerData.role`.
import { Worker } from 'node:worker_threads';

/**
 * Starts `module` as a thread and waits for its first message, `{type: 'ready'}`; undefined when it
 * cannot start (the sources run unbundled, under a test runner, where a thread cannot load them).
 */
export async function startThread(module: URL, workerData: { role: string }): Promise<Worker | undefined> {
  let worker: Worker;
  try {
    worker = new Worker(module, { workerData });
  } catch {
    return undefined;
  }
  const ready = await new Promise<boolean>((done) => {
    worker.once('message', (message: { type?: unknown }) => done(message.type === 'ready'));
    worker.once('error', () => done(false));
    worker.once('exit', () => done(false));
  });
  if (!ready) {
    void worker.terminate();
    return undefined;
  }
  return worker;
}
