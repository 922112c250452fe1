// The fold's state: the session it builds and what it keeps beside it to build it (the call index,
// the transcript writer, requests awaiting their response, what native logs need across lines, the
// change marks). The reducers (recordFold.ts and the modules it hands records to) take it as their
// first argument; the builder (../builder.ts) owns one.
import type { Shape } from '../../ingest/records';
import { ChainVerifier, type ChainInput } from '../chain';
import type { Session } from '../session';
import { CallIndex } from './callIndex';
import { ChangeTracker } from './changes';
import { NativeState } from './nativeFold';
import { PendingRequests } from './rpcJoins';
import { SessionIds, SharedOptionLists } from './sharedValues';
import { Transcript } from './transcript';

/** What a fold keeps: the whole session (a viewer's), or what rows are made of (FoldState's constructor). */
export type FoldKeep = 'session' | 'rows';

export class FoldState {
  readonly session: Session = {
    format: 'empty',
    counts: { lines: 0, events: 0, unknown: 0, bad: 0 },
    items: [],
    calls: new Map(),
    terminals: new Map(),
    diagnostics: { bad: [], warnings: [] },
    chain: null,
    sessionIds: [],
    ended: false,
  };
  readonly changes = new ChangeTracker();
  readonly transcript: Transcript;
  readonly calls: CallIndex;
  readonly ids = new SessionIds(this.session.sessionIds);
  readonly optionLists = new SharedOptionLists();
  readonly requests = new PendingRequests();
  /** Native logs (CONTRACTS §10): see `foldNative`. */
  readonly native = new NativeState();
  /** The ledger chain's verifier: here by default, or elsewhere (`BuilderOptions.chain`). */
  readonly chain: ChainInput;
  /** The shapes of the records read so far: one names the format, more make it `mixed`. */
  readonly shapes = new Set<Shape>();
  /** The latest time any record gave, for calls the input leaves open. */
  lastTs: number | undefined;

  /**
   * `keepEvents`: BuilderOptions.keepEvents. `keep`: `rows` for a read whose session is made into
   * rows and dropped (`loupe index`): no call keeps its history, no agent message its text, no
   * usage the object its counts were read from, none of which rows read (a 100 MB Claude Code
   * log's session: 40 → 30 MB; `npm run bench -- --formats claude-code --detail rows`).
   */
  constructor(detail: 'full' | 'light', chain: ChainInput | undefined, keepEvents = true, readonly keep: FoldKeep = 'session') {
    this.transcript = new Transcript(this.session, this.changes, keepEvents, keep === 'session');
    this.calls = new CallIndex(this.session, this.transcript, this.changes, detail, keep === 'session');
    this.chain = chain ?? new ChainVerifier((warning) => this.session.diagnostics.warnings.push(warning));
  }

  /**
   * The value an event keeps: none in a light read, where it is left in its line and read again when
   * its row is opened (SessionLoader.readRecord); an agent's log and a ledger are mostly such lines.
   * A record with no line of its own (a database's rows) keeps it.
   */
  eventRaw<T>(loc: { length: number }, raw: T): T | undefined {
    return this.calls.detail === 'light' && loc.length > 0 ? undefined : raw;
  }

  warn(line: number, message: string): void {
    this.session.diagnostics.warnings.push({ line, message });
  }
}
