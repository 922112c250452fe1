// The ledger hash chain (CONTRACTS §9), verified apart from the parse. The builder tells a
// `ChainInput` of every non-blank line and of each ledger line's `prev` and exact bytes; a
// `ChainVerifier` hashes them where it is (the CLI, tests, the in-thread viewer), or a
// `ChainBatcher` copies them into batches for a verifier elsewhere (a worker beside the parser's),
// so the hashing, as costly as the JSON.parse of the same lines, leaves the parsing thread.
import { createBLAKE3, type IHasher } from 'hash-wasm';
import type { ChainState } from './types';

export interface ChainWarning {
  line: number;
  message: string;
}

/** What the builder tells the chain, line by line, and where it reads the chain's state. */
export interface ChainInput {
  /** Ready to verify (the hasher is loaded); awaited once before the first line. */
  init(): Promise<void>;
  /** A non-blank line, ledger or not, told before its record: a line between ledger lines breaks the chain. */
  line(line: number): void;
  /** A ledger line's `prev` and its exact bytes, `source[start, end)`: valid only during the call. */
  ledgerLine(line: number, prev: string | undefined, source: Uint8Array, start: number, end: number): void;
  /** The chain as far as it is verified; null before the first ledger line is. */
  readonly state: ChainState | null;
}

const ZERO_HASH = '0'.repeat(64);

/** Hashes ledger lines where it runs and keeps the chain's state. */
export class ChainVerifier implements ChainInput {
  state: ChainState | null = null;
  private hasher: IHasher | null = null;
  /** BLAKE3 of the last chained ledger line, once there is one (`chained`). */
  private chainPrev: Uint8Array = new Uint8Array(0);
  private chained = false;
  private chainPrevLine = 0;
  /** The first non-blank line after the last chained one (0: none yet): a ledger line must be it. */
  private lineAfterChain = 0;

  constructor(private readonly warn: (warning: ChainWarning) => void = () => undefined) {}

  /** A verifier with its hasher loaded. */
  static async create(warn?: (warning: ChainWarning) => void): Promise<ChainVerifier> {
    const verifier = new ChainVerifier(warn);
    await verifier.init();
    return verifier;
  }

  async init(): Promise<void> {
    this.hasher ??= await createBLAKE3();
  }

  line(line: number): void {
    if (this.chained && this.lineAfterChain === 0) this.lineAfterChain = line;
  }

  ledgerLine(line: number, prev: string | undefined, source: Uint8Array, start: number, end: number): void {
    const chain = (this.state ??= { state: 'intact', lines: 0 });
    chain.lines++;
    if (chain.state === 'broken') return;
    if (!this.hasher) {
      this.warn({ line, message: 'ledger chain not verified: BLAKE3 was not loaded (call init())' });
      this.state = { state: 'broken', lines: chain.lines, line, reason: 'not verified' };
      return;
    }
    // The digest stays binary and is compared with `prev` in place: no hex string per line.
    const matches = !this.chained ? prev === ZERO_HASH : prev !== undefined && hexEquals(prev, this.chainPrev);
    // CONTRACTS §9: the chain runs over every non-blank line, so a line between two ledger lines
    // (garbage, a record of another shape) breaks it at the ledger line after it.
    const inserted = this.chained && this.lineAfterChain !== line ? this.lineAfterChain : 0;
    if (!matches || inserted) {
      const reason = !this.chained
        ? `the first ledger line's prev is ${describeHash(prev)}, not 64 zeros`
        : inserted
          ? `line ${inserted} is not part of the chain: it was inserted between ledger lines ${this.chainPrevLine} and ${line}`
          : `prev is ${describeHash(prev)}, but line ${this.chainPrevLine} hashes to ${toHex(this.chainPrev).slice(0, 12)}…`;
      this.state = { state: 'broken', lines: chain.lines, line, reason };
      return;
    }
    // A plain view: `subarray` on a Node Buffer goes through its species constructor, much slower.
    const view = new Uint8Array(source.buffer, source.byteOffset + start, end - start);
    this.chainPrev = this.hasher.init().update(view).digest('binary');
    this.chained = true;
    this.chainPrevLine = line;
    this.lineAfterChain = 0;
  }
}

/**
 * Ledger lines on their way to a verifier elsewhere. Per line, in `lines`: its number, the first
 * non-blank line after the ledger line before it (0: none, or this is the first ledger line), and
 * where its bytes end in `bytes` (they start where the previous line's end).
 */
export interface ChainBatch {
  seq: number;
  lines: Float64Array;
  bytes: Uint8Array;
  prevs: (string | undefined)[];
}

/** A verifier's answer to a batch: the chain's state once it and every batch before it are verified. */
export interface ChainReply {
  seq: number;
  state: ChainState | null;
  warnings: ChainWarning[];
}

/** Feeds a batch to a verifier, as the builder would have fed its lines. */
export function verifyBatch(verifier: ChainVerifier, batch: ChainBatch): void {
  const { lines, bytes, prevs } = batch;
  let start = 0;
  for (let i = 0; i < prevs.length; i++) {
    const line = lines[3 * i]!;
    const firstAfterPrevious = lines[3 * i + 1]!;
    const end = lines[3 * i + 2]!;
    // While the chain holds, the verifier's last chained line is the batcher's previous ledger
    // line; once it breaks, which lines came between no longer matters.
    if (firstAfterPrevious !== 0) verifier.line(firstAfterPrevious);
    verifier.line(line);
    verifier.ledgerLine(line, prevs[i], bytes, start, end);
    start = end;
  }
}

const FIRST_BATCH_BYTES = 64 * 1024;

/**
 * Copies ledger lines into batches for a verifier elsewhere (`post`: the buffer is the batch's
 * own, to transfer) and keeps the state it answers with. A batch goes out when the reader calls
 * `send` (after each slice it reads: a live input's lines are verified as they arrive), never a
 * message per line.
 */
export class ChainBatcher implements ChainInput {
  state: ChainState | null = null;
  private seenLedger = false;
  private firstAfterLedger = 0;
  private bytes = new Uint8Array(FIRST_BATCH_BYTES);
  private bytesUsed = 0;
  private lines: number[] = [];
  private prevs: (string | undefined)[] = [];
  private sent = 0;
  private answered = 0;
  private drained: (() => void)[] = [];
  /** Batches not yet answered, kept to be verified here if the verifier stops before answering any. */
  private unanswered: ChainBatch[] = [];
  /** Verifies here, once the verifier stopped before answering. */
  private fallback: ChainVerifier | null = null;
  /** The verifier stopped after answering: the chain it carried is gone, lines are only counted. */
  private lost = false;

  /**
   * @param post hands a batch to the verifier, transferring `batch.bytes.buffer` when `transfer` is set.
   * @param onReply after each answer: the chain's state so far, and warnings to show.
   */
  constructor(
    private readonly post: (batch: ChainBatch, transfer: boolean) => void,
    private readonly onReply: (state: ChainState | null, warnings: ChainWarning[]) => void,
  ) {}

  async init(): Promise<void> {}

  line(line: number): void {
    if (this.fallback) this.fallback.line(line);
    else if (this.seenLedger && this.firstAfterLedger === 0) this.firstAfterLedger = line;
  }

  ledgerLine(line: number, prev: string | undefined, source: Uint8Array, start: number, end: number): void {
    if (this.lost) {
      if (this.state) this.state = { ...this.state, lines: this.state.lines + 1 };
      return;
    }
    if (this.fallback) {
      this.fallback.ledgerLine(line, prev, source, start, end);
      this.state = this.fallback.state;
      return;
    }
    const length = end - start;
    if (this.bytesUsed + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.bytesUsed + length));
      grown.set(this.bytes.subarray(0, this.bytesUsed));
      this.bytes = grown;
    }
    this.bytes.set(new Uint8Array(source.buffer, source.byteOffset + start, length), this.bytesUsed);
    this.bytesUsed += length;
    this.lines.push(line, this.seenLedger ? this.firstAfterLedger : 0, this.bytesUsed);
    this.prevs.push(prev);
    this.seenLedger = true;
    this.firstAfterLedger = 0;
  }

  /** Sends the lines batched since the last send, if any. */
  send(): void {
    if (this.prevs.length === 0 || this.fallback || this.lost) return;
    const batch = this.takeBatch(++this.sent);
    this.unanswered.push(batch);
    // Until the verifier has answered once, a batch is copied, not transferred: one that never
    // starts leaves its batches to be verified here.
    this.post(batch, this.answered > 0);
  }

  /** A verifier's answer. */
  receive(reply: ChainReply): void {
    if (reply.seq <= this.answered || this.fallback || this.lost) return;
    this.answered = reply.seq;
    this.unanswered = this.unanswered.filter((batch) => batch.seq > reply.seq);
    this.state = reply.state;
    this.onReply(this.state, reply.warnings);
    if (this.answered === this.sent) this.settle();
  }

  /** Sends what is batched and resolves once every line told so far is verified. */
  drain(): Promise<void> {
    this.send();
    if (this.answered === this.sent || this.fallback || this.lost) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /**
   * The verifier stopped (it could not start, or failed). When it answered nothing (it never
   * started, the usual case), every line is verified here instead; otherwise the chain it carried
   * is lost, and the state says the chain is not verified from the first line it did not answer.
   */
  async verifierFailed(reason: string): Promise<void> {
    if (this.fallback || this.lost) return;
    const warnings: ChainWarning[] = [];
    if (this.answered === 0) {
      const verifier = await ChainVerifier.create((warning) => warnings.push(warning));
      for (const batch of [...this.unanswered, this.takeBatch(0)]) verifyBatch(verifier, batch);
      if (this.firstAfterLedger !== 0) verifier.line(this.firstAfterLedger);
      this.fallback = verifier;
      this.state = verifier.state;
    } else {
      const line = this.unanswered[0]?.lines[0] ?? this.lines[0] ?? 0;
      warnings.push({ line, message: `ledger chain not verified from this line on: ${reason}` });
      const lines = (this.state?.lines ?? 0) + this.unanswered.reduce((sum, batch) => sum + batch.prevs.length, 0) + this.prevs.length;
      this.state = this.state?.state === 'broken' ? { ...this.state, lines } : { state: 'broken', lines, line, reason: 'not verified' };
      this.lost = true;
      this.takeBatch(0);
    }
    this.unanswered = [];
    this.onReply(this.state, warnings);
    this.settle();
  }

  /** The lines batched so far, as a batch with a buffer of its own (to transfer); the next starts afresh. */
  private takeBatch(seq: number): ChainBatch {
    const batch: ChainBatch = { seq, lines: Float64Array.from(this.lines), bytes: this.bytes.subarray(0, this.bytesUsed), prevs: this.prevs };
    // Sized for what the last one held: a steady input reuses no buffer but grows none either.
    this.bytes = new Uint8Array(Math.max(FIRST_BATCH_BYTES, this.bytes.length));
    this.bytesUsed = 0;
    this.lines = [];
    this.prevs = [];
    return batch;
  }

  private settle(): void {
    for (const resolve of this.drained.splice(0)) resolve();
  }
}

const HEX = '0123456789abcdef';

/** True when `hex` is exactly the lowercase hex spelling of `bytes` (what a hex digest compares equal to). */
function hexEquals(hex: string, bytes: Uint8Array): boolean {
  if (hex.length !== bytes.length * 2) return false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (hex.charCodeAt(2 * i) !== HEX.charCodeAt(byte >> 4) || hex.charCodeAt(2 * i + 1) !== HEX.charCodeAt(byte & 15)) return false;
  }
  return true;
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += HEX[byte >> 4]! + HEX[byte & 15]!;
  return hex;
}

function describeHash(value: string | undefined): string {
  return value === undefined ? 'missing' : `${value.slice(0, 12)}…`;
}
