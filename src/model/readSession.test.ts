import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen-session.mjs';
import { ingest, streamChunksReusing } from './readSession';

describe('ingest, cancelled', () => {
  it('keeps what was read and cancels the stream it was reading (its file or connection is let go)', async () => {
    let cancelled = false;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new TextEncoder().encode(`{"sessionUpdate":"tool_call","toolCallId":"c${sent++}","title":"ls","kind":"execute","status":"completed"}\n`)),
      cancel: () => void (cancelled = true),
    });
    const abort = new AbortController();
    const session = await ingest(stream, { signal: abort.signal, onProgress: (p) => void (p.records >= 3 && abort.abort()) });
    expect(session.calls.size).toBe(3);
    expect(session.diagnostics.warnings.at(-1)?.message).toContain('reading was cancelled');
    expect(cancelled).toBe(true);
  });
});

describe('a file read into one buffer, used again for every chunk', () => {
  const bytes = Uint8Array.from({ length: (3 << 20) + 12345 }, (_, i) => (i * 7919) % 251);

  it('hands over every byte in order, from a byte stream and from one that is not', async () => {
    for (const [stream, atLeast] of [[new Blob([bytes]).stream(), bytes.length / (64 * 1024)], [new Response(bytes).body!.pipeThrough(new TransformStream()), 1]] as const) {
      const read: Uint8Array[] = [];
      // Each chunk copied before the next is asked for, as a reader that keeps bytes must.
      for await (const chunk of streamChunksReusing(stream, 64 * 1024)) read.push(chunk.slice());
      expect(Buffer.concat(read).equals(Buffer.from(bytes))).toBe(true);
      expect(read.length).toBeGreaterThanOrEqual(Math.floor(atLeast));
    }
  });

  it('gives ingest the session it reads from the bytes themselves, lines cut anywhere between chunks', async () => {
    const { text } = generate({ format: 'acp', calls: 900, seed: 3 });
    const encoded = new TextEncoder().encode(text);
    const reused = await ingest(streamChunksReusing(new Blob([encoded]).stream(), 4093), { chunkSize: 1000 });
    const whole = await ingest(encoded);
    expect(reused.counts).toEqual(whole.counts);
    expect([...reused.calls.values()]).toEqual([...whole.calls.values()]);
    expect(reused.items).toEqual(whole.items);
    expect(encoded.length).toBeGreaterThan(100 * 4093);
  });
});
