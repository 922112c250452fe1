// Drives a SessionBuilder over any byte source, in chunks: the whole input is never one string.
import { SessionBuilder, type BuilderOptions } from './builder';
import type { IngestProgress, Session } from './session';

export type ByteSource = Uint8Array | string | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface IngestOptions extends BuilderOptions {
  onProgress?: (progress: IngestProgress, builder: SessionBuilder) => void;
  signal?: AbortSignal;
  /** Size of the slices a string or Uint8Array source is fed in; tests use tiny ones. */
  chunkSize?: number;
}

const DEFAULT_CHUNK = 1 << 20;

/** Reads a whole source into a session model. Bad input never throws: it is counted and reported. */
export async function ingest(source: ByteSource, options: IngestOptions = {}): Promise<Session> {
  const builder = new SessionBuilder({ detail: options.detail });
  await builder.init();
  const totalBytes = sizeOf(source);
  for await (const chunk of chunksOf(source, options.chunkSize ?? DEFAULT_CHUNK)) {
    if (options.signal?.aborted) {
      builder.session.diagnostics.warnings.push({ line: builder.records, message: 'reading was cancelled; what was read so far is shown' });
      return builder.session;
    }
    builder.push(chunk);
    options.onProgress?.({ bytesRead: builder.bytesRead, totalBytes, records: builder.records }, builder);
  }
  builder.end();
  return builder.session;
}

function sizeOf(source: ByteSource): number | undefined {
  if (source instanceof Uint8Array) return source.length;
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size;
  return undefined;
}

export async function* chunksOf(source: ByteSource, chunkSize: number): AsyncGenerator<Uint8Array> {
  if (typeof source === 'string') source = new TextEncoder().encode(source);
  if (source instanceof Uint8Array) {
    for (let at = 0; at < source.length; at += chunkSize) yield source.subarray(at, at + chunkSize);
    return;
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) source = source.stream();
  if (isReadableStream(source)) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* source as AsyncIterable<Uint8Array>;
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}
