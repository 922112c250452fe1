// The delta: what a builder read since its last delta, as a viewer's parser sends it to the page.
// One table, `DELTA_PARTS`, names each part, how it is sent and the type of its entries; the
// delta's type is derived from it, the builder writes it (fold/deltaWriter.ts, checked with
// `satisfies`), the worker cuts it into pieces by it (worker/splitDelta.ts) and the store applies
// it by it (store/sessionState.ts). A new part is one entry here.
import type { CallChange, GrownMessage } from './fold/changes';
import type { IngestProgress } from './session';
import type { BadLine, CallSummary, ChainState, Counts, InputFormat, TerminalState, TranscriptItem } from './types';

/**
 * How a part is sent (and so how it is split and applied):
 * - `appended`: an append-only list, sent from `<part>From` (where the sent entries start); a
 *   piece carries a run of it.
 * - `patches`: changed entries, each whole (a call as a patch, a terminal whole); a piece carries a run.
 * - `replaced`: a value sent whole in every delta, and in every piece.
 * - `first` / `last`: sent at most once, with the first / last piece.
 */
export type PartKind = 'appended' | 'patches' | 'replaced' | 'first' | 'last';

/** One entry of `DELTA_PARTS`. `entry` is never set: it carries the type of the part's entries (or value). */
export interface PartSpec<Kind extends PartKind, Entry, Optional extends boolean> {
  readonly kind: Kind;
  /** Whether a delta can leave the part out (a `first` or `last` part always can). */
  readonly optional: Optional;
  readonly entry?: [Entry];
}

const appended = <Entry>(): PartSpec<'appended', Entry, false> => ({ kind: 'appended', optional: false });
/** An append-only list only some reads send (and then in every delta). */
const appendedWhenSent = <Entry>(): PartSpec<'appended', Entry, true> => ({ kind: 'appended', optional: true });
const patches = <Entry>(): PartSpec<'patches', Entry, false> => ({ kind: 'patches', optional: false });
/** A value sent whole; `initial`: what it is before the first delta (a reader's state starts from it). */
const replaced = <Value>(initial: Value): PartSpec<'replaced', Value, false> & { readonly initial: Value } => ({ kind: 'replaced', optional: false, initial });
const first = <Value>(): PartSpec<'first', Value, true> => ({ kind: 'first', optional: true });
const last = <Value>(): PartSpec<'last', Value, true> => ({ kind: 'last', optional: true });

/** A secret replaced: on which input line, of what kind, and in which call when the line updated one. */
export interface SecretFinding {
  line: number;
  kind: string;
  callKey?: string;
}

/**
 * A call created or changed since the previous delta, as the builder hands it out: the call whole
 * except its history, of which only the entries from `historyFrom` on are sent (a call updated
 * 200,000 times must not re-send its history in every delta); a light read sends its row only.
 */
export type CallPatch = CallChange<CallSummary>;

export const DELTA_PARTS = {
  /** Transcript items; the last one sent may have grown (`grown`, applied before them). */
  items: appended<TranscriptItem>(),
  sessionIds: appended<string>(),
  bad: appended<BadLine>(),
  warnings: appended<{ line: number; message: string }>(),
  /** Secrets replaced in a redacted load; absent otherwise. */
  findings: appendedWhenSent<SecretFinding>(),
  calls: patches<CallPatch>(),
  /** Terminals, each whole when it changed. */
  terminals: patches<TerminalState>(),
  counts: replaced<Counts>({ lines: 0, events: 0, unknown: 0, bad: 0 }),
  format: replaced<InputFormat>('empty'),
  chain: replaced<ChainState | null>(null),
  ended: replaced<boolean>(false),
  progress: replaced<IngestProgress>({ bytesRead: 0, records: 0 }),
  /** The message last sent, grown (see `SessionChanges.grown`). */
  grown: first<GrownMessage>(),
  /** The input's BLAKE3 (hex), in the last delta of a read to its end: notes are kept under it. */
  contentHash: last<string>(),
} as const;

type Parts = typeof DELTA_PARTS;
/** A part of a delta: a list, a patch list or a value (not a list's `…From` offset). */
export type DeltaPart = keyof Parts;
/** The parts sent as `Kind` says. */
export type PartsOf<Kind extends PartKind> = { [P in DeltaPart]: Parts[P]['kind'] extends Kind ? P : never }[DeltaPart];
/** The append-only lists of a delta. */
export type AppendedPart = PartsOf<'appended'>;
/** An entry of a list part, or the value of any other part. */
export type DeltaEntry<P extends DeltaPart> = NonNullable<Parts[P]['entry']>[0];
/** The entries of each append-only list. */
export type DeltaLists = { [P in AppendedPart]: DeltaEntry<P> };

type ValueOf<P extends DeltaPart> = P extends PartsOf<'appended' | 'patches'> ? DeltaEntry<P>[] : DeltaEntry<P>;
type RequiredPart = { [P in DeltaPart]: Parts[P]['optional'] extends true ? never : P }[DeltaPart];
type OptionalPart = Exclude<DeltaPart, RequiredPart>;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * What changed since the previous delta, part by part as `DELTA_PARTS` says: each list with where
 * its sent entries start (`itemsFrom`, …), each optional part (and its offset) absent when not sent.
 */
export type SessionDelta = Flat<
  { [P in RequiredPart]: ValueOf<P> } & { [P in OptionalPart]?: ValueOf<P> } &
  { [P in RequiredPart & AppendedPart as `${P}From`]: number } & { [P in OptionalPart & AppendedPart as `${P}From`]?: number }
>;

const isPart = (name: string): name is DeltaPart => name in DELTA_PARTS;
/** Every part, in the table's order. */
export const DELTA_PART_NAMES: readonly DeltaPart[] = Object.keys(DELTA_PARTS).filter(isPart);

/** The parts sent as `kind` says, in the table's order. */
export function partsOf<Kind extends PartKind>(kind: Kind): readonly PartsOf<Kind>[] {
  return DELTA_PART_NAMES.filter((part): part is PartsOf<Kind> => DELTA_PARTS[part].kind === kind);
}

export const APPENDED_PARTS = partsOf('appended');
export const PATCH_PARTS = partsOf('patches');
