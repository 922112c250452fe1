// The one pass over the records that builds every index of a session: transcript items, merged
// calls, joins, counts, diagnostics and the ledger chain. Incremental: bytes can be pushed in any
// chunking and the session read (or its changes, or a delta, taken) at any time. The builder is
// the way in and out; the fold itself is in fold/ (see fold/README.md).
import { classify } from '../ingest/classify';
import type { DatabaseRead } from '../ingest/formats/opencode';
import { RecordReader, describeType, readTextLog, type RecordSink } from '../ingest/reader';
import { isJsonObject } from '../ingest/schemas';
import type { ChainInput } from './chain';
import type { FoldKeep } from './fold/foldState';
import type { SessionDelta } from './delta';
import type { Session } from './session';
import type { CallSummary, ChainState, SourceLocation } from './types';
import type { SessionChanges, TakenAs } from './fold/changes';
import { DeltaWriter, type DeltaSources } from './fold/deltaWriter';
import { FoldState } from './fold/foldState';
import { endInput, foldBad, foldRecord } from './fold/recordFold';

export type { CallChange, GrownMessage, SessionChanges } from './fold/changes';
export type { DeltaSources, FindingsToSend } from './fold/deltaWriter';

export interface BuilderOptions {
  /**
   * `full` keeps every field of every call. `light` keeps what rows, filters and counts need and
   * leaves out the bulk (tool output content, raw output, ledger results): those are read again
   * from the source when a call is opened (`hydrateCall`). Large inputs are read light.
   */
  detail?: 'full' | 'light';
  /** Decode each line of the input on its own, not a chunk at a time: faster in Node, slower in Chromium (ingest/lines.ts says why); by default, in Node only. */
  decodeEachLine?: boolean;
  /** Where the ledger chain is verified: by default here, by the builder's own `ChainVerifier`. */
  chain?: ChainInput;
  /**
   * `false`: events (records that stand for no message, call, plan or usage: an agent's
   * bookkeeping, notifications) are counted, not kept as items. For a reader of rows alone
   * (`loupe index`): rows show none, and in an agent's own log they are a third of the lines.
   */
  keepEvents?: boolean;
  /** `rows`: what rows are made of, for a reader of rows alone (`loupe index`): no call's history, no agent message's text (FoldState's `keep`). */
  keep?: FoldKeep;
}

export class SessionBuilder {
  readonly detail: 'full' | 'light';
  readonly session: Session;
  /**
   * Where ingest's reader hands this builder its records. Records read once can be handed here
   * again, to time the fold alone (`npm run bench:fold`).
   */
  readonly records: RecordSink;
  private readonly state: FoldState;
  /** Bytes → records (ingest's reader); this builder folds what it hands over. */
  private readonly reader: RecordReader;
  private readonly deltas = new DeltaWriter();
  private valuesPushed = 0;

  constructor(options: BuilderOptions = {}) {
    this.detail = options.detail ?? 'full';
    this.state = new FoldState(this.detail, options.chain, options.keepEvents ?? true, options.keep);
    this.session = this.state.session;
    this.records = recordSink(this.state);
    this.reader = new RecordReader(this.records, { light: this.detail === 'light', decodeEachLine: options.decodeEachLine });
  }

  /** Readies the ledger chain's verifier (BLAKE3 is WASM). Await once before pushing ledger input. */
  async init(): Promise<void> {
    await this.state.chain.init();
  }

  /** Non-blank lines read so far (each one record: CONTRACTS §2). */
  get linesRead(): number {
    return this.session.counts.lines;
  }

  get bytesRead(): number {
    return this.reader.bytesRead;
  }

  push(chunk: Uint8Array): void {
    this.reader.push(chunk);
  }

  /** One already-parsed record (an embedder's own array); numbered like lines, from 1. */
  pushValue(value: unknown): void {
    this.valuesPushed++;
    const loc = { line: this.valuesPushed, offset: 0, length: 0 };
    this.session.counts.lines++;
    if (!isJsonObject(value)) {
      foldBad(this.state, loc.line, 0, `JSON is not an object (${describeType(value)})`, safeStringify(value));
      return;
    }
    foldRecord(this.state, classify(value, '', loc), null);
  }

  /**
   * The rows of a database read up front (OpenCode's, `ingest/formats/opencode.ts`): each row a
   * record or a bad record, numbered like lines; what the reader says of the file, as warnings.
   */
  pushDatabase(read: DatabaseRead): void {
    // A database's rows are no lines a light call could be read again from: its calls are read whole.
    this.state.calls.detail = 'full';
    for (const warning of read.warnings) this.state.warn(0, warning);
    for (const row of read.rows) {
      if ('record' in row) this.records.record(row.record, null);
      else this.records.bad(row.bad.line, 0, row.bad.reason, row.bad.text);
    }
  }

  /** One record's text at a known location: used to read a call's lines again (`hydrateCall`). */
  pushRecordText(text: string, loc: SourceLocation): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const logged = readTextLog(text, loc);
      if (logged) foldRecord(this.state, logged, null);
      return;
    }
    if (isJsonObject(value)) foldRecord(this.state, classify(value, text, loc), null);
  }

  /** The chain's state as a verifier elsewhere (another worker) found it, with what it warned of. */
  chainVerified(state: ChainState | null, warnings: readonly { line: number; message: string }[]): void {
    this.session.chain = state;
    this.session.diagnostics.warnings.push(...warnings);
  }

  end(): void {
    this.reader.end();
    endInput(this.state);
  }

  /**
   * What changed since the last take. `rows`: each changed call as its row (`callRow`), for a
   * reader that shows rows and reads a call whole only when it is opened (a light read's worker);
   * a builder is taken from one way only.
   */
  takeChanges(as?: 'calls'): SessionChanges;
  takeChanges(as: 'rows'): SessionChanges<CallSummary>;
  takeChanges(as: TakenAs): SessionChanges | SessionChanges<CallSummary>;
  takeChanges(as: TakenAs = 'calls'): SessionChanges | SessionChanges<CallSummary> {
    this.state.transcript.handedOut();
    return this.state.changes.take(this.session, as);
  }

  /**
   * What changed since the last delta, as the page is sent it (`SessionDelta`): a light read's
   * calls as rows, a full read's whole with the history not sent before. Taken instead of
   * `takeChanges`, never beside it.
   */
  takeDelta(sources: DeltaSources): SessionDelta {
    const changes = this.takeChanges(this.detail === 'light' ? 'rows' : 'calls');
    const terminals = this.state.changes.takeTerminals(this.session.terminals);
    return this.deltas.write(this.session, changes, terminals, this.linesRead, sources);
  }
}

/** Where ingest's reader hands a builder its records (`SessionBuilder.records`). */
function recordSink(state: FoldState): RecordSink {
  const { session } = state;
  return {
    beginLine: (line) => state.chain.line(line),
    record: (record, bytes) => {
      session.counts.lines++;
      foldRecord(state, record, bytes);
    },
    bad: (line, offset, reason, text) => {
      session.counts.lines++;
      foldBad(state, line, offset, reason, text);
    },
    warning: (line, message) => state.warn(line, message),
  };
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
