// The parser with its ledger chain verified in a worker of its own: the same chain as in place,
// sent in batches, kept current for a live ledger, complete when a read is cancelled, and verified
// in place when that worker cannot start.
import { createBLAKE3, type IHasher } from 'hash-wasm';
import { describe, expect, it, vi } from 'vitest';
import { ChainVerifier, verifyBatch, type ChainBatch } from '../model/chain';
import { pump } from './pump';
import type { LoaderEvent, SessionDelta } from './protocol';
import type { FromChainWorker, ToChainWorker } from './remoteChain';

const hasher = await createBLAKE3();
const workerHasher = await createBLAKE3();
const contentHashOf = (bytes: Uint8Array) => hasher.init().update(bytes).digest('hex');

function ledger(count: number): string[] {
  const out: string[] = [];
  let prev = '0'.repeat(64);
  for (let seq = 0; seq < count; seq++) {
    const line = JSON.stringify({ v: 2, run: 'r', seq, prev, t: seq, who: 'w', kind: 'note', data: { text: `n${seq}` } });
    out.push(line);
    prev = hasher.init().update(line).digest('hex');
  }
  return out;
}
const encode = (lines: string[]) => new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));

/** A verifier worker in this thread: messages are cloned (buffers transferred) and answered a little later, as from another thread. */
class FakeChainWorker {
  static started: FakeChainWorker[] = [];
  readonly batches: ChainBatch[] = [];
  contentBytes = 0;
  terminated = false;
  private readonly listeners = new Map<string, ((e: unknown) => void)[]>();
  private readonly verifier = ChainVerifier.create();
  private content: IHasher | null = null;

  constructor(private readonly failToStart = false, private readonly silent = false) {
    FakeChainWorker.started.push(this);
    if (silent) return;
    if (failToStart) setTimeout(() => this.dispatch('error', { message: 'blocked by CSP', preventDefault: () => undefined }), 0);
    else void this.verifier.then(() => this.answer({ type: 'ready' }));
  }

  addEventListener(type: string, listener: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  postMessage(message: ToChainWorker, transfer: Transferable[]): void {
    const msg = structuredClone(message, { transfer });
    if (msg.type === 'batch') this.batches.push(msg.batch);
    if (this.failToStart || this.silent) return;
    if (msg.type === 'batch') {
      void this.verifier.then((verifier) => {
        verifyBatch(verifier, msg.batch);
        this.answer({ type: 'chain', reply: { seq: msg.batch.seq, state: verifier.state, warnings: [] } });
      });
    } else if (msg.type === 'contentFrom') this.content = workerHasher.load(msg.state);
    else if (msg.type === 'content') {
      this.contentBytes += msg.bytes.length;
      this.content!.update(msg.bytes);
    } else this.answer({ type: 'digest', hex: this.content!.digest('hex') });
  }

  terminate(): void {
    this.terminated = true;
  }

  private answer(msg: FromChainWorker): void {
    const reply = structuredClone(msg);
    setTimeout(() => this.terminated || this.dispatch('message', { data: reply }), 5);
  }

  private dispatch(type: string, event: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

const spawn = (failToStart = false, silent = false) => () => new FakeChainWorker(failToStart, silent) as unknown as Worker;

function collect() {
  const events: LoaderEvent[] = [];
  const deltas = () => events.filter((e): e is { type: 'delta'; delta: SessionDelta } => e.type === 'delta').map((e) => e.delta);
  return { events, deltas, emit: (e: LoaderEvent) => events.push(e) };
}

function manualStream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  return { stream, push: (b: Uint8Array) => ctl.enqueue(b), close: () => ctl.close() };
}

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
    for (const chainVerifier of [spawn(true), () => { throw new Error('no nested workers here'); }]) {
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
      const done = pump({ kind: 'stream', stream: new Blob([encode(broken)]).stream() }, c.emit, new AbortController().signal, { chainVerifier: spawn(false, true) }).then(() => {
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
