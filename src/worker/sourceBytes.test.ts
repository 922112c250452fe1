import { describe, expect, it } from 'vitest';
import { sourceBytes, sourceBytesAgain } from './sourceBytes';

/** Every chunk a read gives. */
async function chunks(bytes: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of bytes) out.push(chunk);
  return out;
}

const page = (type: string) => () => Promise.resolve(new Response('<!doctype html><title>app</title>', { status: 200, headers: { 'content-type': type } }));

describe('a source read again for an export', () => {
  it('streams a file in chunks, never holding it whole', async () => {
    // A file larger than memory allows cannot be read as one buffer: this one refuses to be.
    class LargeFile extends Blob {
      override arrayBuffer(): Promise<ArrayBuffer> {
        return Promise.reject(new Error('read whole'));
      }
    }
    const blob = new LargeFile([new Uint8Array(3 << 20).fill(0x61)]);
    const read = await chunks(sourceBytesAgain({ kind: 'blob', blob }));
    expect(read.reduce((n, c) => n + c.byteLength, 0)).toBe(blob.size);
  });

  it('refuses a stream, which was read once', async () => {
    await expect(chunks(sourceBytesAgain({ kind: 'stream', stream: new ReadableStream() }))).rejects.toThrow('A stream is read once');
  });

  it('gives records handed over parsed as the JSONL they would have been', async () => {
    const read = await chunks(sourceBytesAgain({ kind: 'records', records: [{ a: 1 }, { b: 2 }] }));
    expect(new TextDecoder().decode(read[0])).toBe('{"a":1}\n{"b":2}\n');
  });
});

describe('a URL source', () => {
  it('is refused when the server sends a web page instead of a session (a dev server answering a missing file)', async () => {
    await expect(chunks(sourceBytes({ kind: 'url', url: 'http://x/a.jsonl' }, { fetch: page('text/html; charset=utf-8') }))).rejects.toThrow('the server sent a web page');
    await expect(chunks(sourceBytes({ kind: 'url', url: 'http://x/a.jsonl' }, { fetch: page('application/x-ndjson') }))).resolves.toHaveLength(1);
  });
});

describe('a stream source stopped early', () => {
  it('is cancelled, letting go of what is behind it, whether the reader stops or the signal aborts', async () => {
    for (const stop of ['break', 'abort'] as const) {
      let cancelled = false;
      const stream = new ReadableStream<Uint8Array>({
        pull: (c) => c.enqueue(new Uint8Array([0x7b, 0x7d, 0x0a])),
        cancel: () => void (cancelled = true),
      });
      const abort = new AbortController();
      const read = async () => {
        for await (const _ of sourceBytes({ kind: 'stream', stream }, { signal: abort.signal })) {
          if (stop === 'break') break;
          abort.abort(new Error('stopped'));
        }
      };
      if (stop === 'break') await read();
      else await expect(read()).rejects.toThrow('stopped');
      expect(cancelled).toBe(true);
    }
  });
});
