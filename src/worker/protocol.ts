// The small typed message protocol between a viewer and its parser (in a Worker or in-thread).
import type { Result } from '../ingest/result';
import type { SecretFinding } from './redactStream';
import type { BadLine, CallChange, CallSummary, ChainState, ContentBlock, Counts, IngestProgress, InputFormat, TerminalState, ToolCall, TranscriptItem } from '../model';

export type { SecretFinding };

/**
 * What a viewer can be given to read. Everything here survives structured clone (streams are
 * transferred). `redact`: every line's secrets are replaced by their kind in the parser, before
 * the line is parsed, so no secret reaches the page; what was replaced comes back as findings.
 */
export type LoadSource = (
  | { kind: 'blob'; blob: Blob; name?: string }
  | { kind: 'url'; url: string }
  | { kind: 'stream'; stream: ReadableStream<Uint8Array> }
  | { kind: 'text'; text: string }
  | { kind: 'records'; records: unknown[] }
) & { redact?: boolean };

/**
 * A call created or changed since the previous delta, as the builder hands it out: the call whole
 * except its history, of which only the entries from `historyFrom` on are sent (a call updated
 * 200,000 times must not re-send its history in every delta); a light read sends its row only.
 */
export type CallPatch = CallChange<CallSummary>;

/**
 * What changed since the previous delta, as patches: items, bad lines, warnings and session ids
 * are append-only (`…From` is where the sent ones start; the last item may be replaced, as a
 * message grows); calls are sent as patches; terminals whole when changed.
 */
export interface SessionDelta {
  /**
   * The message last sent, grown: its text from `textFrom` on and its blocks from `blocksFrom` on
   * (agents stream a message in thousands of chunks; re-sending it whole each time is quadratic).
   * Applied before `items`, which then start after it.
   */
  grown?: { index: number; textFrom: number; text: string; blocksFrom: number; blocks: ContentBlock[] };
  itemsFrom: number;
  items: TranscriptItem[];
  calls: CallPatch[];
  terminals: TerminalState[];
  counts: Counts;
  format: InputFormat;
  chain: ChainState | null;
  sessionIdsFrom: number;
  sessionIds: string[];
  badFrom: number;
  bad: BadLine[];
  warningsFrom: number;
  warnings: { line: number; message: string }[];
  ended: boolean;
  progress: IngestProgress;
  /** Secrets replaced in a redacted load (append-only, from `findingsFrom`); absent otherwise. */
  findingsFrom?: number;
  findings?: SecretFinding[];
  /** The input's BLAKE3 (hex), in the last delta of a read to its end: notes are kept under it. */
  contentHash?: string;
}

export type LoaderEvent =
  | { type: 'delta'; delta: SessionDelta }
  | { type: 'done' }
  | { type: 'cancelled' }
  | { type: 'error'; message: string };

export type ToWorker =
  | { type: 'load'; id: number; source: LoadSource }
  | { type: 'cancel'; id: number }
  | { type: 'hydrate'; id: number; reqId: number; key: string }
  /** Search what a light read left in the file: answered with the keys of the calls that hold `text`. */
  | { type: 'search'; id: number; reqId: number; text: string };

export type FromWorker =
  | (LoaderEvent & { id: number })
  | { type: 'hydrated'; id: number; reqId: number; result: Result<ToolCall> }
  | { type: 'searched'; id: number; reqId: number; keys: string[] };
