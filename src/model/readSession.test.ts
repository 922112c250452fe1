import { describe, expect, it } from 'vitest';
import { ingest } from './readSession';

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
