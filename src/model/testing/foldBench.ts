// What `npm run bench:fold` runs (scripts/bench-fold.mjs builds it as the CLI is built): an input's
// records read once by ingest's reader, then folded again and again into fresh builders, so the
// fold is timed without the bytes, the line splitting and JSON.parse before it.
import { RecordReader, type RecordSink } from '../../ingest/reader';
import { SessionBuilder } from '../builder';
import type { Session } from '../session';

export { ingest } from '../readSession';

type Detail = 'full' | 'light';

/** One call the reader made on its sink, to be made again on a builder's. */
type SinkCall = (sink: RecordSink) => void;

/** The calls ingest's reader makes on a builder's sink for these bytes, as a light or full read makes them. */
export function readRecords(bytes: Uint8Array, detail: Detail): SinkCall[] {
  const calls: SinkCall[] = [];
  const recording: RecordSink = {
    beginLine: (line) => calls.push((sink) => sink.beginLine(line)),
    record: (record, range) => calls.push((sink) => sink.record(record, range)),
    bad: (line, offset, reason, text) => calls.push((sink) => sink.bad(line, offset, reason, text)),
    warning: (line, message) => calls.push((sink) => sink.warning(line, message)),
  };
  const reader = new RecordReader(recording, { light: detail === 'light' });
  const chunk = 1 << 20;
  for (let at = 0; at < bytes.length; at += chunk) reader.push(bytes.subarray(at, at + chunk));
  reader.end();
  return calls;
}

/** The records folded into a fresh builder, to the end of the input. */
export async function foldRecords(calls: readonly SinkCall[], detail: Detail): Promise<Session> {
  const builder = new SessionBuilder({ detail });
  await builder.init();
  const sink = builder.records;
  for (const call of calls) call(sink);
  builder.end();
  return builder.session;
}
