// The jsonl export, the CLI's and the viewer's: the records as read, line by line, each redacted
// where asked. A line with nothing to replace is written as its exact bytes; a redacted one differs
// only inside the strings that held a secret, so the export reads back as the same calls.
import { LineReader } from '../ingest/lines';

export interface JsonlExportOptions {
  redact: boolean;
  /** Lines to write (1-based); all when absent. The viewer passes the lines of the rows its filter shows. */
  keep?: (line: number) => boolean;
  /** A secret replaced, with its line. */
  onFinding?: (line: number, kind: string) => void;
  /** A line too long to read (it is left out). */
  onSkipped?: (line: number) => void;
}

const NEWLINE = new Uint8Array([10]);

export async function* exportJsonl(bytes: AsyncIterable<Uint8Array>, options: JsonlExportOptions): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  // Loaded only when asked for: the ruleset is most of redaction's size.
  const redactor = options.redact ? (await import('./redact/redactLine')).createLineRedactor() : null;
  type Entry = { line: number; text: string; bytes: Uint8Array; terminated: boolean };
  // Lines read and not yet written: a redactor holds a streamed message's lines until it ends.
  const waiting: Entry[] = [];
  let pending: Entry[] = [];
  // Every line is redacted, kept or not: a message streamed over kept and dropped lines is read whole.
  const reader = new LineReader((line) => {
    if (line.tooLong !== undefined) return void options.onSkipped?.(line.line);
    pending.push({ line: line.line, text: line.text, bytes: line.source.slice(line.start, line.end), terminated: line.terminated });
  });
  const write = (results: readonly { text: string; kinds: string[] }[] | null, count: number): Uint8Array => {
    const pieces: Uint8Array[] = [];
    waiting.splice(0, count).forEach((entry, index) => {
      if (options.keep && !options.keep(entry.line)) return;
      const result = results?.[index];
      if (result?.kinds.length) {
        for (const kind of result.kinds) options.onFinding?.(entry.line, kind);
        pieces.push(encoder.encode(result.text));
      } else if (result && result.text !== entry.text) pieces.push(encoder.encode(result.text));
      else pieces.push(entry.bytes);
      // A kept line is a whole record: it ends with a newline even when a filter dropped the ones after it.
      if (entry.terminated || options.keep) pieces.push(NEWLINE);
    });
    return concat(pieces);
  };
  const flush = async (): Promise<Uint8Array> => {
    const batch = pending;
    pending = [];
    waiting.push(...batch);
    if (!redactor) return write(null, batch.length);
    const results = await redactor.push(batch.map((entry) => entry.text));
    return write(results, results.length);
  };
  for await (const chunk of bytes) {
    reader.push(chunk);
    if (pending.length) yield await flush();
  }
  reader.end();
  if (pending.length) yield await flush();
  if (redactor && waiting.length) {
    const results = await redactor.end();
    yield write(results, results.length);
  }
}

/** The pieces as one array, in order. */
export function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
