// The worker loader when its worker fails: everything waiting on it settles, and it is not reused.
import { describe, expect, test } from 'vitest';
import type { CallSummary } from '../model/types';
import { createWorkerLoader } from './loader';
import type { LoaderEvent, ToWorker } from './protocol';

/** A parser worker that answers nothing: it records what it was sent and fails when told to. */
class SilentWorker extends EventTarget {
  readonly sent: ToWorker[] = [];
  terminated = false;
  postMessage(message: ToWorker): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  fail(message: string): void {
    this.dispatchEvent(Object.assign(new Event('error'), { message }));
  }
}

const lightRow = { key: 'c1', id: 'c1', detail: 'light' } as unknown as CallSummary;

describe('createWorkerLoader', () => {
  test('a worker error ends the load, every read of a call and every search; the next load starts a new worker', async () => {
    const spawned: SilentWorker[] = [];
    const loader = createWorkerLoader(() => {
      const worker = new SilentWorker();
      spawned.push(worker);
      return worker as unknown as Worker;
    });
    const events: LoaderEvent[] = [];
    const loading = loader.load({ kind: 'text', text: '{}\n' }, (e) => events.push(e), new AbortController().signal);
    const reading = loader.hydrate(lightRow);
    const searching = loader.search?.('needle');
    spawned[0]!.fail('out of memory');

    await loading;
    expect(events).toEqual([{ type: 'error', message: 'Parser worker failed: out of memory' }]);
    expect(await reading).toEqual({ ok: false, error: 'Parser worker failed: out of memory' });
    expect(await searching).toEqual([]);
    expect(spawned[0]!.terminated).toBe(true);

    // Nothing is asked of the failed worker again.
    expect(await loader.hydrate(lightRow)).toMatchObject({ ok: false });
    void loader.load({ kind: 'text', text: '{}\n' }, () => {}, new AbortController().signal);
    expect(spawned).toHaveLength(2);
    expect(spawned[0]!.sent.map((m) => m.type)).toEqual(['load', 'hydrate', 'search']);
    expect(spawned[1]!.sent.map((m) => m.type)).toEqual(['load']);
    loader.dispose();
  });
});
