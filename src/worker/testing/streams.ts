// Test helpers for driving a read by hand: a stream fed line by line, and the events a read emits.
import type { LoaderEvent, SessionDelta } from '../protocol';

/** A stream the test feeds by hand, so "before the end" is a state, not a race. */
export function manualStream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  return { stream, push: (b: Uint8Array) => ctl.enqueue(b), close: () => ctl.close(), fail: (err: Error) => ctl.error(err) };
}

/** The events a read emits, and its deltas among them. */
export function collect() {
  const events: LoaderEvent[] = [];
  const deltas = () => events.filter((e): e is { type: 'delta'; delta: SessionDelta } => e.type === 'delta').map((e) => e.delta);
  return { events, deltas, emit: (e: LoaderEvent) => events.push(e) };
}
