// The parser with its ledger chain verified in a worker of its own: the same chain as in place,
// sent in batches, kept current for a live ledger, complete when a read is cancelled, and verified
// in place when that worker cannot start.
import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, it, vi } from 'vitest';
import type { ChainBatch } from '../model/chain';
import { serveChain } from './chainService';
import { pump } from './pump';
import type { FromChainWorker, ToChainWorker } from './remoteChain';
import { collect, manualStream } from './testing/streams';

const hasher = await createBLAKE3();
const contentHashOf = (bytes: Uint8Array) => hasher.init().update(bytes).digest('hex');

function ledger(count: number, padding = 0): string[] {
  const out: string[] = [];
  let prev = '0'.repeat(64);
  for (let seq = 0; seq < count; seq++) {
    const line = JSON.stringify({ v: 2, run: 'r', seq, prev, t: seq, who: 'w', kind: 'note', data: { text: `n${seq}${' '.repeat(padding)}` } });
    out.push(line);
    prev = hasher.init().update(line).digest('hex');
  }
  return out;
}
const encode = (lines: string[]) => new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));

/**
 * A verifier worker in this thread: the worker's own message handling (serveChain), with messages
 * cloned (buffers transferred) and delivered a little later, as between threads.
 */
class FakeChainWorker {
  static started: FakeChainWorker[] = [];
  readonly batches: ChainBatch[] = [];
  /** Bytes of the input the parser sent over chunk by chunk, for the content hash. */
  contentBytes = 0;
  /** Files the parser handed over whole, for the content hash. */
  readonly files: Blob[] = [];
  /** What the worker answered when asked for the content hash. */
  readonly digests: (string | undefined)[] = [];
  terminated = false;
  /** Settles once the parser has been told the worker is ready. */
  readonly ready: Promise<void>;
  private saidReady = (): void => undefined;
  private readonly listeners = new Map<string, ((e: unknown) => void)[]>();
  private handle: ((e: MessageEvent<ToChainWorker>) => void) | null = null;

  constructor(private readonly mode: 'works' | 'failsToStart' | 'silent' | 'stopsWhenAskedForDigest' = 'works') {
    FakeChainWorker.started.push(this);
    this.ready = new Promise((resolve) => (this.saidReady = resolve));
    if (mode === 'silent') return;
    if (mode === 'failsToStart') {
      setTimeout(() => this.fail(), 0);
      return;
    }
    serveChain({ postMessage: (msg) => this.answer(msg), addEventListener: (_type, fn) => void (this.handle = fn) });
  }

  addEventListener(type: string, listener: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  postMessage(message: ToChainWorker, transfer: Transferable[]): void {
    const msg = structuredClone(message, { transfer });
    if (msg.type === 'batch') this.batches.push(msg.batch);
    if (msg.type === 'content') this.contentBytes += msg.bytes.length;
    if (msg.type === 'contentOf') this.files.push(msg.blob);
    if (msg.type === 'digest' && this.mode === 'stopsWhenAskedForDigest') setTimeout(() => this.fail(), 0);
    else setTimeout(() => this.terminated || this.handle?.({ data: msg } as MessageEvent<ToChainWorker>), 0);
  }

  terminate(): void {
    this.terminated = true;
  }

  private fail(): void {
    this.dispatch('error', { message: 'blocked by CSP', preventDefault: () => undefined });
  }

  private answer(msg: FromChainWorker): void {
    if (msg.type === 'digest') this.digests.push(msg.hex);
    const reply = structuredClone(msg);
    setTimeout(() => {
      if (this.terminated) return;
      this.dispatch('message', { data: reply });
      if (reply.type === 'ready') this.saidReady();
    }, 5);
  }

  private dispatch(type: string, event: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

const spawn = (mode?: ConstructorParameters<typeof FakeChainWorker>[0]) => () => new FakeChainWorker(mode) as unknown as Worker;

describe('the chain verified in a worker beside the parser', () => {
  const lines = ledger(400);
  const broken = [...lines.slice(0, 250), 'garbage', ...lines.slice(250)];

  it.each([
    ['intact', lines],
    ['broken by an inserted line', broken],
  ])('%s: the same chain as verified in place, sent in a few batches, the worker stopped at the end', async (_name, input) => {
    const inPlace = collect();
    await pump({ kind: 'text', text: new TextDecoder().decode(encode(input)) }, inPlace.emit, new AbortController().signal);
    const remote = collect();
    FakeChainWorker.started = [];
    await pump({ kind: 'stream', stream: new Blob([encode(input)]).stream() }, remote.emit, new AbortController().signal, { chainVerifier: spawn() });
    const expected = inPlace.deltas().at(-1)?.chain;
    expect(expected?.lines).toBe(400);
    // The delta sent last, right before the read is done, holds the whole chain.
    expect(remote.events.at(-1)).toEqual({ type: 'done' });
    expect(remote.events.at(-2)).toMatchObject({ type: 'delta', delta: { ended: true, chain: expected, contentHash: contentHashOf(encode(input)) } });
    const [worker] = FakeChainWorker.started;
    expect(worker!.batches.length).toBeLessThan(5);
    expect(worker!.batches.reduce((sum, batch) => sum + batch.prevs.length, 0)).toBe(400);
    expect(worker!.terminated).toBe(true);
  });

  it('a live ledger: the chain is verified as lines arrive, before the input ends; the worker takes over the content hash', async () => {
    FakeChainWorker.started = [];
    const s = manualStream();
    const c = collect();
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, new AbortController().signal, { throttleMs: 0, chainVerifier: spawn() });
    s.push(encode(lines.slice(0, 3)));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.chain).toEqual({ state: 'intact', lines: 3 }), { timeout: 5_000 });
    expect(c.deltas().at(-1)?.ended).toBe(false);
    s.push(encode(lines.slice(3, 5)));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.chain).toEqual({ state: 'intact', lines: 5 }), { timeout: 5_000 });
    s.close();
    await done;
    expect(c.deltas().at(-1)).toMatchObject({ ended: true, chain: { state: 'intact', lines: 5 }, contentHash: contentHashOf(encode(lines.slice(0, 5))) });
    expect(FakeChainWorker.started[0]!.contentBytes).toBe(encode(lines.slice(3, 5)).length);
  });

  it('a cancelled read: the chain covers every line read', async () => {
    const s = manualStream();
    const c = collect();
    const ac = new AbortController();
    const done = pump({ kind: 'stream', stream: s.stream }, c.emit, ac.signal, { throttleMs: 0, chainVerifier: spawn() });
    s.push(encode(lines.slice(0, 7)));
    await vi.waitFor(() => expect(c.deltas().at(-1)?.counts.lines).toBe(7), { timeout: 5_000 });
    ac.abort();
    s.push(encode(lines.slice(7, 9)));
    await done;
    expect(c.events.at(-1)).toEqual({ type: 'cancelled' });
    expect(c.events.at(-2)).toMatchObject({ type: 'delta', delta: { chain: { state: 'intact', lines: 7 } } });
  });

  it('a verifier that cannot start: the chain is verified in the parser, with the same result', async () => {
    for (const chainVerifier of [spawn('failsToStart'), () => { throw new Error('no nested workers here'); }]) {
      const c = collect();
      await pump({ kind: 'stream', stream: new Blob([encode(broken)]).stream() }, c.emit, new AbortController().signal, { chainVerifier });
      expect(c.deltas().at(-1)?.chain).toEqual({ state: 'broken', lines: 400, line: 252, reason: 'line 251 is not part of the chain: it was inserted between ledger lines 250 and 252' });
      expect(c.deltas().at(-1)?.contentHash).toBe(contentHashOf(encode(broken)));
    }
  });

  it('a verifier that neither starts nor fails: the read does not wait on it, and the chain is verified in the parser', async () => {
    vi.useFakeTimers();
    try {
      const c = collect();
      let finished = false;
      const done = pump({ kind: 'stream', stream: new Blob([encode(broken)]).stream() }, c.emit, new AbortController().signal, { chainVerifier: spawn('silent') }).then(() => {
        finished = true;
      });
      for (let waited = 0; !finished && waited < 60_000; waited += 1_000) await vi.advanceTimersByTimeAsync(1_000);
      await done;
      expect(c.events.at(-1)).toEqual({ type: 'done' });
      expect(c.deltas().at(-1)?.chain).toEqual({ state: 'broken', lines: 400, line: 252, reason: 'line 251 is not part of the chain: it was inserted between ledger lines 250 and 252' });
      expect(c.deltas().at(-1)?.contentHash).toBe(contentHashOf(encode(broken)));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the content hash of a file, with the chain verified in a worker', () => {
  // Over the size from which a file gets a verifier worker, in few lines so it parses quickly.
  const file = encode(ledger(520, 2_000));
  const expected = contentHashOf(file);
  /** The file, its read starting once the worker is ready: as a large file's read outlasts the worker's start. */
  const fileReadOnceTheWorkerIsReady = () => {
    const blob = new Blob([file]);
    const stream = (): ReadableStream<Uint8Array> => {
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      void FakeChainWorker.started.at(-1)!.ready.then(() => Blob.prototype.stream.call(blob).pipeTo(writable));
      return readable;
    };
    return Object.assign(blob, { stream });
  };

  it('is hashed by the worker from the file itself: the parser sends none of its bytes over', async () => {
    FakeChainWorker.started = [];
    const c = collect();
    await pump({ kind: 'blob', blob: fileReadOnceTheWorkerIsReady() }, c.emit, new AbortController().signal, { chainVerifier: spawn() });
    expect(c.deltas().at(-1)).toMatchObject({ ended: true, chain: { state: 'intact', lines: 520 }, contentHash: expected });
    const [worker] = FakeChainWorker.started;
    expect(worker!.digests).toEqual([expected]);
    expect(worker!.files).toHaveLength(1);
    expect(worker!.contentBytes).toBe(0);
  });

  it('a verifier that cannot start: the file is hashed in the parser instead, to the same digest', async () => {
    const c = collect();
    await pump({ kind: 'blob', blob: new Blob([file]) }, c.emit, new AbortController().signal, { chainVerifier: spawn('failsToStart') });
    expect(c.events.at(-1)).toEqual({ type: 'done' });
    expect(c.deltas().at(-1)?.contentHash).toBe(expected);
  });

  it('a verifier that stops when asked for the digest: the file is hashed in the parser instead, to the same digest', async () => {
    const c = collect();
    await pump({ kind: 'blob', blob: fileReadOnceTheWorkerIsReady() }, c.emit, new AbortController().signal, { chainVerifier: spawn('stopsWhenAskedForDigest') });
    expect(c.events.at(-1)).toEqual({ type: 'done' });
    expect(c.deltas().at(-1)?.contentHash).toBe(expected);
  });

  it('a verifier that neither starts nor fails: the file is hashed in the parser, to the same digest', async () => {
    vi.useFakeTimers();
    try {
      const c = collect();
      let finished = false;
      const done = pump({ kind: 'blob', blob: new Blob([file]) }, c.emit, new AbortController().signal, { chainVerifier: spawn('silent') }).then(() => {
        finished = true;
      });
      for (let waited = 0; !finished && waited < 60_000; waited += 1_000) await vi.advanceTimersByTimeAsync(1_000);
      await done;
      expect(c.events.at(-1)).toEqual({ type: 'done' });
      expect(c.deltas().at(-1)).toMatchObject({ chain: { state: 'intact', lines: 520 }, contentHash: expected });
    } finally {
      vi.useRealTimers();
    }
  });
});
