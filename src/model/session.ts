import type { ChainState, Counts, Diagnostics, InputFormat, TerminalState, ToolCall, TranscriptItem } from './types';

/** A session model: everything read so far. Built incrementally by `SessionBuilder`. */
export interface Session {
  format: InputFormat;
  counts: Counts;
  /** Transcript rows in input order. A call appears once, at its first update. */
  items: TranscriptItem[];
  /** Calls by key, in order of first appearance. */
  calls: Map<string, ToolCall>;
  terminals: Map<string, TerminalState>;
  diagnostics: Diagnostics;
  /** Ledger hash-chain state; null when the input holds no ledger lines. */
  chain: ChainState | null;
  /** Session ids seen, in order. */
  sessionIds: string[];
  /** True once the input has been read to its end (pending calls then display as unfinished). */
  ended: boolean;
}

export interface IngestProgress {
  bytesRead: number;
  /** Known when the source has a size (File, Blob, Uint8Array, string). */
  totalBytes?: number;
  records: number;
}
