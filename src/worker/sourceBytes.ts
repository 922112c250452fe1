// A load source's bytes: the one reader of what a viewer is given, for the parser (pump.ts) and
// for an export reading the records again. A file is streamed, never read whole; a stream stopped
// early is cancelled (model/readSession.ts `streamChunks`); a URL that answers with an error or a
// web page is refused with why.
import { streamChunks, streamChunksReusing } from '../model';
import type { LoadSource } from './protocol';

export interface SourceReadOptions {
  /** Stops the read: it rejects with the signal's reason, and the file or connection is let go. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** The source's size in bytes, once known (a blob's at once, a URL's from its Content-Length when not compressed). */
  onSize?: (bytes: number) => void;
  /**
   * A file's chunks may be read into one buffer used again for each (`streamChunksReusing`): set by
   * a reader that keeps nothing of a chunk once it asks for the next, or copies what it keeps.
   */
  reuseBuffer?: boolean;
}

/** What a file is read into when its buffer is used again: about what Chromium hands over a chunk at a time. */
const FILE_BUFFER_BYTES = 1 << 20;

const TEXT_CHUNK = 1 << 20;

/** Give the event loop a turn so a cancel message (and the UI, in-thread) get through. */
const yieldTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export async function* sourceBytes(source: LoadSource, opts: SourceReadOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal, onSize } = opts;
  switch (source.kind) {
    case 'blob':
      onSize?.(source.blob.size);
      yield* opts.reuseBuffer === true ? streamChunksReusing(source.blob.stream(), FILE_BUFFER_BYTES, signal) : streamChunks(source.blob.stream(), signal);
      return;
    case 'stream':
      yield* streamChunks(source.stream, signal);
      return;
    case 'url':
      yield* urlBytes(source.url, opts);
      return;
    case 'text':
      yield* inChunks(new TextEncoder().encode(source.text), onSize);
      return;
    case 'records':
      // Records handed over already parsed are read as the JSONL they would have been.
      yield* inChunks(new TextEncoder().encode(source.records.map((record) => JSON.stringify(record)).join('\n') + '\n'), onSize);
      return;
  }
}

/** A source read again from the start (an export re-reads the records a view was made of); a stream cannot be. */
export async function* sourceBytesAgain(source: LoadSource): AsyncGenerator<Uint8Array> {
  if (source.kind === 'stream') throw new Error('A stream is read once: it cannot be read again to export its records');
  yield* sourceBytes(source);
}

async function* inChunks(bytes: Uint8Array, onSize: SourceReadOptions['onSize']): AsyncGenerator<Uint8Array> {
  onSize?.(bytes.byteLength);
  for (let i = 0; i < bytes.byteLength; i += TEXT_CHUNK) {
    yield bytes.subarray(i, Math.min(bytes.byteLength, i + TEXT_CHUNK));
    await yieldTurn();
  }
}

async function* urlBytes(url: string, { signal, onSize, fetch: doFetch = fetch.bind(globalThis) }: SourceReadOptions): AsyncGenerator<Uint8Array> {
  let res: Response;
  try {
    res = await doFetch(url, signal ? { signal } : {});
  } catch (err) {
    signal?.throwIfAborted();
    // Browsers do not say why a fetch failed; these are the usual reasons.
    throw new Error(`Could not load ${url}: the network request failed (offline, blocked, or the server does not allow cross-origin reads). ${err instanceof Error ? err.message : ''}`.trim(), { cause: err });
  }
  if (!res.ok) throw new Error(`Could not load ${url}: HTTP ${res.status} ${res.statusText}`.trim());
  // A dev server or SPA host answers a missing file with its index page; that is not a session.
  if (/^text\/html\b/i.test(res.headers.get('content-type') ?? '')) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`Could not load ${url}: the server sent a web page (text/html), not a session file`);
  }
  const len = Number(res.headers.get('content-length'));
  // Content-Length is the encoded size; with compression it is only a hint, so it is ignored then.
  if (Number.isFinite(len) && len > 0 && !res.headers.get('content-encoding')) onSize?.(len);
  if (!res.body) {
    const buf = new Uint8Array(await res.arrayBuffer());
    onSize?.(buf.byteLength);
    yield buf;
    return;
  }
  yield* streamChunks(res.body, signal);
}
