// Drives a SessionBuilder over any byte source, in chunks: the whole input is never one string.
import { isSqlite } from '../ingest/sqlite/wal';
import { SessionBuilder, type BuilderOptions } from './builder';
import type { IngestProgress, Session } from './session';

export type ByteSource = Uint8Array | string | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface IngestOptions extends BuilderOptions {
  /** After each slice is read: where the worker sends its deltas from, and the CLI its progress. */
  onProgress?: (progress: IngestProgress, builder: SessionBuilder) => void;
  signal?: AbortSignal;
  /** Size of the slices the input is fed in, whatever size its chunks come in; tests use tiny ones. */
  chunkSize?: number;
  /** Read into this builder (initialised) instead of a new one: its owner takes changes as it goes. */
  builder?: SessionBuilder;
  /**
   * A SQLite database's write-ahead log (the `-wal` file beside it), when the source is a database:
   * its committed transactions are part of what the database holds (OpenCode writes in WAL mode).
   */
  wal?: Uint8Array;
}

const DEFAULT_CHUNK = 1 << 20;

/**
 * Reads a whole source into a session model: the one driver of a SessionBuilder, for the CLI, the
 * benchmarks and the viewer's parser alike. Bad input never throws: it is counted and reported.
 * Cancelled, it returns what was read, not ended; a source that fails to read rejects.
 */
export async function ingest(source: ByteSource, options: IngestOptions = {}): Promise<Session> {
  const builder = options.builder ?? new SessionBuilder({ detail: options.detail, decodeEachLine: options.decodeEachLine, keepEvents: options.keepEvents, keep: options.keep });
  await builder.init();
  const totalBytes = sizeOf(source);
  // The first bytes say whether the source is a SQLite database (OpenCode's), read whole, or lines.
  const head: Uint8Array[] = [];
  let headLength = 0;
  let database: Uint8Array[] | null = null;
  let databaseLength = 0;
  for await (let chunk of chunksOf(source, options.chunkSize ?? DEFAULT_CHUNK)) {
    if (options.signal?.aborted) {
      builder.session.diagnostics.warnings.push({ line: builder.linesRead, message: 'reading was cancelled; what was read so far is shown' });
      return builder.session;
    }
    if (database !== null) {
      // Kept until the end: a copy (a source may use its buffer again for the next chunk).
      database.push(chunk.slice());
      databaseLength += chunk.length;
      options.onProgress?.({ bytesRead: databaseLength, totalBytes, records: 0 }, builder);
      continue;
    }
    if (headLength < SQLITE_HEAD) {
      head.push(chunk);
      headLength += chunk.length;
      if (headLength < SQLITE_HEAD) {
        // Kept across the next read: a copy (a source may use its buffer again for the next chunk).
        head[head.length - 1] = chunk.slice();
        continue;
      }
      const first = concat(head, headLength);
      if (isSqlite(first)) {
        database = [first === chunk ? first.slice() : first];
        databaseLength = headLength;
        continue;
      }
      chunk = first;
    }
    builder.push(chunk);
    options.onProgress?.({ bytesRead: builder.bytesRead, totalBytes, records: builder.linesRead }, builder);
  }
  if (database !== null) {
    const { readOpenCodeDatabase } = await import('../ingest/formats/opencode');
    builder.pushDatabase(await readOpenCodeDatabase(concat(database, databaseLength), options.wal));
  } else if (headLength > 0 && headLength < SQLITE_HEAD) {
    builder.push(concat(head, headLength));
  }
  builder.end();
  return builder.session;
}

/** Bytes enough to tell a SQLite database by its magic (`SQLite format 3\0`). */
const SQLITE_HEAD = 16;

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function sizeOf(source: ByteSource): number | undefined {
  if (source instanceof Uint8Array) return source.length;
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size;
  return undefined;
}

/** The source's bytes in slices of at most `chunkSize` (large chunks are cut; small ones pass as they are). */
export async function* chunksOf(source: ByteSource, chunkSize: number): AsyncGenerator<Uint8Array> {
  for await (const chunk of rawChunksOf(source)) {
    if (chunk.length <= chunkSize) yield chunk;
    else for (let at = 0; at < chunk.length; at += chunkSize) yield chunk.subarray(at, at + chunkSize);
  }
}

async function* rawChunksOf(source: ByteSource): AsyncGenerator<Uint8Array> {
  if (typeof source === 'string') source = new TextEncoder().encode(source);
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) source = source.stream();
  if (isReadableStream(source)) {
    yield* streamChunks(source);
    return;
  }
  yield* source as AsyncIterable<Uint8Array>;
}

/**
 * A stream's chunks (empty ones skipped): the one way Loupe reads a stream, whoever reads it (a
 * file's or a fetch's body, a stream handed to the viewer, the CLI's stdin). Stopped before its end
 * (the reader stops, `signal` aborts, a read fails), the stream is cancelled, which frees the file
 * handle or the network connection behind it; read to its end, its lock is released. An abort
 * rejects with the signal's reason.
 */
export async function* streamChunks(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      if (value.byteLength > 0) yield value;
    }
  } finally {
    if (ended) reader.releaseLock();
    else reader.cancel().catch(() => undefined);
  }
}

/**
 * A byte stream's chunks read into one buffer of `bufferBytes`, used again for every read: each
 * chunk is valid only until the next is asked for, so a reader that keeps bytes copies them (the
 * LineReader does). Chromium makes a new ArrayBuffer for every chunk of a File's stream otherwise,
 * and reading a 100 MB file took 3 times as long (a worker, best of 3: 135–140 against 353–372 ms;
 * a new buffer for each BYOB read, 431–434). A stream that is not a byte stream is read as
 * `streamChunks` reads it. Stopped early, the stream is cancelled, as there.
 */
export async function* streamChunksReusing(stream: ReadableStream<Uint8Array>, bufferBytes: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    yield* streamChunks(stream, signal);
    return;
  }
  let ended = false;
  let buffer = new ArrayBuffer(bufferBytes);
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done || value === undefined) {
        ended = true;
        return;
      }
      // The buffer handed to read() was transferred: the one to use next is the chunk's.
      buffer = value.buffer;
      if (value.byteLength > 0) yield value;
    }
  } finally {
    if (ended) reader.releaseLock();
    else reader.cancel().catch(() => undefined);
  }
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}
