// What `npm run bench:fold` runs (scripts/bench-fold.mjs builds it as the CLI is built): an input's
// records read once by ingest's reader, then folded again and again into fresh builders, so the
// fold is timed without the bytes, the line splitting and JSON.parse before it; and the stages
// before the fold on their own (lines and decoding; the reader, which parses and classifies).
import { LineReader } from '../../ingest/lines';
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
  for (let at = 0; at < bytes.length; at += CHUNK) reader.push(bytes.subarray(at, at + CHUNK));
  reader.end();
  return calls;
}

const CHUNK = 1 << 20;

/** The input split into lines and decoded, nothing more: the first stage of every read. Returns how many characters it decoded. */
export function readLinesAlone(bytes: Uint8Array): number {
  let characters = 0;
  const lines = new LineReader((line) => void (characters += line.text.length));
  for (let at = 0; at < bytes.length; at += CHUNK) lines.push(bytes.subarray(at, at + CHUNK));
  lines.end();
  return characters;
}

/** The reader alone (lines, JSON.parse or the skim, classification), its records dropped. Returns how many it made. */
export function readerAlone(bytes: Uint8Array, detail: Detail): number {
  let records = 0;
  const discard: RecordSink = { beginLine: () => undefined, record: () => void records++, bad: () => void records++, warning: () => undefined };
  const reader = new RecordReader(discard, { light: detail === 'light' });
  for (let at = 0; at < bytes.length; at += CHUNK) reader.push(bytes.subarray(at, at + CHUNK));
  reader.end();
  return records;
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
