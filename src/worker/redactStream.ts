// Redaction where the bytes are: a load asked to redact has each line's secrets replaced before the
// parser sees it, so no secret reaches the page (not in a row, a search, a copy, nor an export).
// The ruleset (secretlint and its preset, the largest part of redaction) is loaded only when a load
// asks for it, so a viewer that never redacts never downloads it: whoever runs the parser says how
// to load it (`Redactor`), since a worker and the page find that chunk in different ways.
import { LineReader } from '../ingest/lines';
import type { SecretFinding } from '../model/delta';

// A finding is a part of the delta (model/delta.ts): the page is sent them as it is sent rows.
export type { SecretFinding };

export type RedactLines = (lines: readonly string[]) => Promise<{ text: string; kinds: string[] }[]>;
/** Redacts a session's lines in order; a streamed message's lines are held until it ends (model/redact/redactLine.ts). */
export interface LineRedactor {
  push: RedactLines;
  end: () => Promise<{ text: string; kinds: string[] }[]>;
}
/** Loads the ruleset on first use: a redactor for each session read. */
export type Redactor = () => Promise<() => LineRedactor>;

const NEWLINE = 10;

/**
 * `bytes` with every line's secrets replaced by their kind (`‹aws-access-key›`). Line breaks are
 * kept, so line numbers (and every finding's `line`) are those of the input. `onRead` is told how
 * many input bytes have been consumed, for progress; `onFound` gets each batch's findings (none
 * too) once the batch has been read on, so the parser has seen the lines they are on.
 */
export async function* redactedBytes(
  bytes: AsyncIterable<Uint8Array>,
  redactor: Redactor,
  onFound: (findings: SecretFinding[]) => void,
  onRead: (inputBytes: number) => void = () => undefined,
): AsyncGenerator<Uint8Array> {
  const lineRedactor = (await redactor())();
  const encoder = new TextEncoder();
  // The lines each chunk completes are redacted together: one pass of the ruleset over many lines
  // costs far less than one a line. Lines the redactor holds (a message still streaming) wait.
  type Entry = { line: number; text: string; bytes: Uint8Array; terminated: boolean };
  let pending: Entry[] = [];
  const waiting: Entry[] = [];
  const reader = new LineReader((line) => {
    // A line too long to hold as a string is left out (as a blank line, so numbering holds): its
    // secrets cannot be looked for, and it could not be parsed either.
    const text = line.tooLong !== undefined ? '' : line.text;
    const raw = line.tooLong !== undefined ? new Uint8Array(0) : line.source.slice(line.start, line.end);
    pending.push({ line: line.line, text, bytes: raw, terminated: line.terminated });
  });
  async function* flush(ending = false): AsyncGenerator<Uint8Array> {
    const batch = pending;
    pending = [];
    waiting.push(...batch);
    const redacted = [...(await lineRedactor.push(batch.map((entry) => entry.text))), ...(ending ? await lineRedactor.end() : [])];
    const settled = waiting.splice(0, redacted.length);
    const findings: SecretFinding[] = [];
    const pieces: Uint8Array[] = [];
    let size = 0;
    settled.forEach((entry, index) => {
      const result = redacted[index];
      let piece = entry.bytes;
      if (result?.kinds.length) for (const kind of result.kinds) findings.push({ line: entry.line, kind });
      // A line can change with no kind of its own: it held the rest of a secret a line before it shows.
      if (result && result.text !== entry.text) piece = encoder.encode(result.text);
      pieces.push(piece);
      size += piece.length + (entry.terminated ? 1 : 0);
    });
    const out = new Uint8Array(size);
    let at = 0;
    settled.forEach((entry, index) => {
      const piece = pieces[index]!;
      out.set(piece, at);
      at += piece.length;
      if (entry.terminated) out[at++] = NEWLINE;
    });
    yield out;
    onFound(findings);
  }
  for await (const chunk of bytes) {
    reader.push(chunk);
    onRead(reader.bytesRead);
    if (pending.length) yield* flush();
  }
  reader.end();
  yield* flush(true);
}

/** Already-parsed records, each redacted as the line it would be written as. */
export async function redactedRecords(records: readonly unknown[], redactor: Redactor, onFound: (findings: SecretFinding[]) => void): Promise<unknown[]> {
  const redactLines = (await redactor())();
  const texts = records.map((record) => JSON.stringify(record) ?? 'null');
  const redacted = [...(await redactLines.push(texts)), ...(await redactLines.end())];
  const findings: SecretFinding[] = [];
  const out = records.map((record, index) => {
    const result = redacted[index];
    if (!result || result.text === texts[index]) return record;
    for (const kind of result.kinds) findings.push({ line: index + 1, kind });
    return JSON.parse(result.text) as unknown;
  });
  if (findings.length) onFound(findings);
  return out;
}
