// Reads a source in chunks into a SessionBuilder and emits throttled deltas. Shared by the Worker
// and the in-thread loader so both paths behave the same.
import { createBLAKE3 } from 'hash-wasm';
import { blobReader, hydrateCall, ingest, isToolCall, SessionBuilder, type FindingsToSend } from '../model';
import { searchLeftInFile } from './fileSearch';
import type { IngestProgress, ToolCall } from '../model';
import { fail, ok, type Result } from '../ingest/result';
import { remoteChain } from './remoteChain';
import { cloneBounded } from './sendable';
import { sourceBytes } from './sourceBytes';
import { splitDelta } from './splitDelta';
import { redactedBytes, redactedRecords, type Redactor, type SecretFinding } from './redactStream';
import type { LoaderEvent, LoadSource } from './protocol';

export interface PumpOptions {
  /** Minimum time between deltas; the first rows are sent as soon as they exist. */
  throttleMs?: number;
  /**
   * A delta is also sent once this many records are pending, whatever the time: the main thread
   * spends time on each delta in proportion to its size, and must never be blocked for long.
   */
  maxRecordsPerDelta?: number;
  /** Deep-copy what is sent (the in-thread path must not share the builder's live objects). */
  clone?: boolean;
  fetch?: typeof fetch;
  /** Files at least this large are read light: call bulk stays in the file until a call is opened. */
  lightFromBytes?: number;
  /** How a redacted load loads the ruleset; without it a redacted load fails (nothing unredacted is shown). */
  redactor?: Redactor;
  /** Starts a worker to verify the ledger chain in, off this thread; without it (or where it cannot start) the builder verifies it. */
  chainVerifier?: () => Worker;
  /** Receives a handle on the read, to complete calls later (see OpenSession). */
  onSession?: (session: OpenSession) => void;
}

/** Above this, keeping every call's output in memory costs more than re-reading it on open. */
export const LIGHT_FROM_BYTES = 48 * 1024 * 1024;

/** Whether calls read from `source` can be completed later by re-reading their lines. */
export function isLight(source: LoadSource, opts: PumpOptions): boolean {
  // A light read completes a call by reading its lines again from the file, unredacted: a
  // redacted load reads everything once.
  return source.kind === 'blob' && source.redact !== true && source.blob.size >= (opts.lightFromBytes ?? LIGHT_FROM_BYTES);
}

/** A finished (or running) read that can still answer for its calls. */
export interface OpenSession {
  /** The full state of a call: for a light read, its lines are read again from the file. */
  fullCall: (key: string) => Promise<Result<ToolCall>>;
  /** Keys of calls whose input or output, left in the file by a light read, holds `text`; none for a full read. */
  searchCalls: (text: string) => Promise<string[]>;
}

const RECORDS_CHUNK = 500;
const SLICE = 256 * 1024;
const FIRST_SLICE = 32 * 1024;

class AbortedError extends Error {}

function aborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AbortedError('cancelled');
}

/** Give the event loop a turn so a cancel message (and the UI, in-thread) get through. */
const yieldTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export async function pump(
  source: LoadSource,
  emit: (e: LoaderEvent) => void,
  signal: AbortSignal,
  opts: PumpOptions = {},
): Promise<void> {
  const throttleMs = opts.throttleMs ?? 100;
  const maxRecords = opts.maxRecordsPerDelta ?? 600;
  let recordsSent = 0;
  const due = (): boolean => Date.now() - lastEmit >= throttleMs || builder.linesRead - recordsSent >= maxRecords;
  const progress: IngestProgress = { bytesRead: 0, records: 0 };
  const light = isLight(source, opts);
  // Its answers come in as the read goes on (a live ledger's chain is current) and are sent with the next delta.
  const chain = opts.chainVerifier && worthAVerifier(source)
    ? remoteChain(opts.chainVerifier, (state, warnings) => {
      builder.chainVerified(state, warnings);
      flushSoon();
    })
    : null;
  const builder = new SessionBuilder({ detail: light ? 'light' : 'full', ...(chain ? { chain: chain.batcher } : {}) });
  opts.onSession?.({
    fullCall: async (key) => {
      const call = builder.session.calls.get(key);
      if (!call) return fail('this read has no such call');
      if (call.detail === 'full' || source.kind !== 'blob') return ok(call);
      return hydrateCall(call, blobReader(source.blob));
    },
    searchCalls: async (text) => (light && source.kind === 'blob' ? searchLeftInFile(source.blob, builder.session.calls.values(), text) : []),
  });
  const redact = source.redact === true;
  const redactor: Redactor = opts.redactor ?? (() => Promise.reject(new Error('redaction is not available in this viewer')));
  const findings: SecretFinding[] = [];
  // A batch's findings come once the parser has read the batch, after the flushes that took its
  // calls' changes: the calls changed since the last batch are kept to find each finding's call.
  const changedInBatch = new Set<ToolCall>();
  let findingsUnmatched = 0;
  const onFound = (found: SecretFinding[]): void => {
    if (found.length) {
      findings.push(...found);
      flush();
    }
    changedInBatch.clear();
  };
  // A redacted read is read full (`isLight`): its changes are whole calls.
  const findingsToSend: FindingsToSend = {
    all: findings,
    ready: (calls) => {
      for (const { call } of calls) if (isToolCall(call)) changedInBatch.add(call);
      matchFindingsToCalls(findings.slice(findingsUnmatched), changedInBatch);
      return (findingsUnmatched = findings.length);
    },
  };
  let lastEmit = -Infinity;
  // The input's BLAKE3, once read whole: what notes on its calls are kept under.
  let contentHash: string | undefined;

  // A live source can pause right after a line: what it sent is shown after at most one throttle
  // interval, not when the next bytes happen to come.
  let idleFlush: ReturnType<typeof setTimeout> | null = null;
  let unsent = false;
  const flushSoon = (): void => {
    unsent = true;
    idleFlush ??= setTimeout(() => {
      idleFlush = null;
      if (unsent && !signal.aborted) flush();
    }, Math.max(0, throttleMs - (Date.now() - lastEmit)));
  };

  const flush = (): void => {
    unsent = false;
    if (idleFlush !== null) clearTimeout(idleFlush);
    idleFlush = null;
    // The builder writes the delta; a redacted read adds the findings its lines' calls are known for.
    const delta = builder.takeDelta({ progress, contentHash, findings: redact ? findingsToSend : undefined });
    recordsSent = builder.linesRead;
    lastEmit = Date.now();
    // A delta too deeply nested to clone is copied bounded: its rows are not lost. (The worker's
    // post bounds what it cannot post the same way.)
    for (const piece of splitDelta(delta)) emit({ type: 'delta', delta: opts.clone ? cloneBounded(piece) : piece });
  };

  try {
    await builder.init();
    aborted(signal);
    if (source.kind === 'records') {
      progress.totalBytes = undefined;
      let recordFindings: SecretFinding[] = [];
      const records = redact ? await redactedRecords(source.records, redactor, (found) => void (recordFindings = found)) : source.records;
      for (let i = 0; i < records.length; i++) {
        builder.pushValue(records[i]);
        if ((i + 1) % RECORDS_CHUNK === 0) {
          if (due()) flush();
          await yieldTurn();
          aborted(signal);
        }
      }
      onFound(recordFindings);
    } else {
      const local = await createBLAKE3();
      // A file is hashed by the verifier from the file itself: its chunks are not copied over to it.
      const hasher = !chain ? local : source.kind === 'blob' ? chain.contentHashOf(source.blob, local) : chain.contentHash(local);
      // Blob streams hand over megabytes at a time; reading them in slices lets deltas stay small.
      // Nothing below keeps a chunk once it asks for the next (the hasher takes it at once, ingest
      // and the redaction's line reader copy what they keep): a file is read into one buffer, used again.
      const read = sourceBytes(source, { signal, reuseBuffer: true, ...(opts.fetch ? { fetch: opts.fetch } : {}), onSize: (n) => void (progress.totalBytes = n) });
      const bytes = hashed(firstSliceSmall(read), hasher);
      // Redacted, the parser reads other bytes than the input's: progress counts the input's.
      let inputRead = 0;
      const input = redact ? redactedBytes(bytes, redactor, onFound, (n) => void (inputRead = n)) : bytes;
      await ingest(input, {
        builder,
        signal,
        chunkSize: SLICE,
        onProgress: (read) => {
          chain?.batcher.send();
          progress.bytesRead = redact ? inputRead : read.bytesRead;
          if (due()) flush();
          else flushSoon();
        },
      });
      aborted(signal);
      contentHash = await hasher.digest('hex');
    }
    if (!builder.session.ended) builder.end();
    if (progress.totalBytes === undefined) progress.totalBytes = progress.bytesRead;
    await chain?.batcher.drain();
    flush();
    emit({ type: 'done' });
  } catch (err) {
    const cancelled = err instanceof AbortedError || signal.aborted;
    // What was read stays on screen, and the session is marked ended so open calls read as
    // unfinished and a line cut off mid-way is reported as the truncated last line it is.
    try {
      if (!builder.session.ended) builder.end();
      // The chain covers every line read, cancelled or not.
      await chain?.batcher.drain();
      flush();
    } catch {
      /* the builder never throws on input; a failed read must not surface a second error */
    }
    if (cancelled) emit({ type: 'cancelled' });
    else emit({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  } finally {
    if (idleFlush !== null) clearTimeout(idleFlush);
    chain?.close();
  }
}

/** Gives each finding the call whose update was on its line (a call's history is in line order). */
function matchFindingsToCalls(unmatched: SecretFinding[], changed: Iterable<ToolCall>): void {
  if (!unmatched.length) return;
  const byLine = new Map<number, SecretFinding[]>();
  let first = Infinity;
  for (const finding of unmatched) {
    const onLine = byLine.get(finding.line);
    if (onLine) onLine.push(finding);
    else byLine.set(finding.line, [finding]);
    first = Math.min(first, finding.line);
  }
  for (const call of changed) {
    for (let index = call.history.length - 1; index >= 0; index--) {
      const line = call.history[index]!.line;
      if (line < first) break;
      for (const finding of byLine.get(line) ?? []) finding.callKey ??= call.key;
    }
  }
}

/**
 * The first chunk cut at FIRST_SLICE: the first delta goes out once that much is read, so the first
 * rows show after a few dozen lines are parsed rather than a whole slice (ingest passes chunks
 * smaller than its slice as they are).
 */
async function* firstSliceSmall(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let first = true;
  for await (const chunk of bytes) {
    if (first && chunk.byteLength > FIRST_SLICE) {
      yield chunk.subarray(0, FIRST_SLICE);
      yield chunk.subarray(FIRST_SLICE);
    } else yield chunk;
    first = false;
  }
}

/** Below this an input is read before a verifier worker would have started: its chain is verified in the builder. */
const VERIFIER_FROM_BYTES = 1 << 20;

function worthAVerifier(source: LoadSource): boolean {
  if (source.kind === 'records') return false;
  if (source.kind === 'blob') return source.blob.size >= VERIFIER_FROM_BYTES;
  if (source.kind === 'text') return source.text.length >= VERIFIER_FROM_BYTES;
  // A stream or a URL: its size is not known, and a live one can grow without end.
  return true;
}

/** The bytes as they pass, fed to `hasher` (before any redaction: notes follow the file, read either way). */
async function* hashed(bytes: AsyncIterable<Uint8Array>, hasher: { update: (data: Uint8Array) => unknown }): AsyncGenerator<Uint8Array> {
  let sinceTurn = 0;
  for await (const chunk of bytes) {
    hasher.update(chunk);
    yield chunk;
    sinceTurn += chunk.byteLength;
    if (sinceTurn >= TURN_EVERY_BYTES) {
      sinceTurn = 0;
      await messageTurn();
    }
  }
}

/**
 * A file's stream hands over buffered chunks as microtasks: without a task turn now and then, the
 * worker's messages (a cancel, the verifier saying it is ready) would wait for the whole read.
 */
const TURN_EVERY_BYTES = 4 << 20;

/** One task turn, without setTimeout's clamping to 4 ms. */
function messageTurn(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
