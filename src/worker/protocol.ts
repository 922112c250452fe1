// The small typed message protocol between a viewer and its parser (in a Worker or in-thread).
import type { Result } from '../ingest/result';
import type { SecretFinding } from './redactStream';
import type { BadLine, CallChange, CallSummary, ChainState, Counts, GrownMessage, IngestProgress, InputFormat, TerminalState, ToolCall, TranscriptItem } from '../model';

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
 * The parts of a delta, each with how it is sent and applied; everything else (splitting a delta
 * into pieces, the pump's bookkeeping, the store applying it) follows from this table, so a new
 * part is one entry here and one field in `DeltaLists` or `SessionDelta`.
 * - `appended`: an append-only list, sent from `<part>From` (where the sent entries start); a
 *   piece carries a run of it.
 * - `patches`: changed entries, each whole (a call as a patch, a terminal whole); a piece carries a run.
 * - `replaced`: a value sent whole in every delta, and in every piece.
 * - `first` / `last`: sent once, with the first / last piece.
 */
export const DELTA_PARTS = {
  items: 'appended',
  sessionIds: 'appended',
  bad: 'appended',
  warnings: 'appended',
  findings: 'appended',
  calls: 'patches',
  terminals: 'patches',
  counts: 'replaced',
  format: 'replaced',
  chain: 'replaced',
  ended: 'replaced',
  progress: 'replaced',
  grown: 'first',
  contentHash: 'last',
} as const satisfies Record<DeltaPart, 'appended' | 'patches' | 'replaced' | 'first' | 'last'>;

type PartsOf<Kind> = { [P in DeltaPart]: (typeof DELTA_PARTS)[P] extends Kind ? P : never }[DeltaPart];
/** The append-only lists of a delta. */
export type AppendedPart = PartsOf<'appended'>;
export const APPENDED_PARTS = partsOf('appended') as readonly AppendedPart[];
export const PATCH_PARTS = partsOf('patches') as readonly PartsOf<'patches'>[];

function partsOf(kind: (typeof DELTA_PARTS)[DeltaPart]): DeltaPart[] {
  return (Object.keys(DELTA_PARTS) as DeltaPart[]).filter((part) => DELTA_PARTS[part] === kind);
}

/** The entries of each append-only list. */
export interface DeltaLists {
  items: TranscriptItem;
  sessionIds: string;
  bad: BadLine;
  warnings: { line: number; message: string };
  /** Secrets replaced in a redacted load; absent otherwise. */
  findings: SecretFinding;
}

/** Each list's sent entries, and where they start. */
type Appended<L> = { [K in keyof L & string]: L[K][] } & { [K in keyof L & string as `${K}From`]: number };

/**
 * What changed since the previous delta (see `DELTA_PARTS`): items, bad lines, warnings, session
 * ids and findings are append-only (the last item may have grown: `grown`, applied before
 * `items`); calls are sent as patches; terminals whole when changed.
 */
export type SessionDelta = Appended<Omit<DeltaLists, 'findings'>> &
  Partial<Appended<Pick<DeltaLists, 'findings'>>> & {
    /** The message last sent, grown (see `SessionChanges.grown`). */
    grown?: GrownMessage;
    calls: CallPatch[];
    terminals: TerminalState[];
    counts: Counts;
    format: InputFormat;
    chain: ChainState | null;
    ended: boolean;
    progress: IngestProgress;
    /** The input's BLAKE3 (hex), in the last delta of a read to its end: notes are kept under it. */
    contentHash?: string;
  };

/** A part of a delta: a list, a patch list or a value (not a list's `…From` offset). */
export type DeltaPart = Exclude<keyof SessionDelta, `${keyof DeltaLists}From`>;

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
