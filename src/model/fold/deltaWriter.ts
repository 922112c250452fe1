// The delta (../delta.ts) a take makes: the changes the tracker hands out, the append-only lists
// from where the last delta left them, the values sent whole. Checked against `SessionDelta` with
// `satisfies`: a part added to `DELTA_PARTS` and not written here is a compile error.
import type { AppendedPart, CallPatch, DeltaLists, SecretFinding, SessionDelta } from '../delta';
import type { IngestProgress, Session } from '../session';
import type { CallSummary, TerminalState } from '../types';
import type { SessionChanges } from './changes';

/** What a delta holds that the builder does not read: how far the read is, and what the reader found beside the records. */
export interface DeltaSources {
  /** Bytes read (and the total when known); the builder adds the records. */
  progress: Omit<IngestProgress, 'records'>;
  /** The input's BLAKE3 (hex), once read whole. */
  contentHash?: string | undefined;
  /** Secrets a redacted read replaced: sent from where the last delta left them, up to the count `ready` gives. */
  findings?: FindingsToSend | undefined;
}

export interface FindingsToSend {
  readonly all: readonly SecretFinding[];
  /** Told the calls this delta sends (to name each finding's call): how many of `all` can be sent now. */
  ready(calls: readonly CallPatch[]): number;
}

type SentList = Exclude<AppendedPart, 'items'>;

export class DeltaWriter {
  /** How much of each append-only list the tracker does not hand out was sent. */
  private readonly sent: Record<SentList, number> = { sessionIds: 0, bad: 0, warnings: 0, findings: 0 };

  write(
    session: Session, changes: SessionChanges<CallSummary>, terminals: TerminalState[], records: number, sources: DeltaSources,
  ): SessionDelta {
    const sessionIds = this.since('sessionIds', session.sessionIds, session.sessionIds.length);
    const bad = this.since('bad', session.diagnostics.bad, session.diagnostics.bad.length);
    const warnings = this.since('warnings', session.diagnostics.warnings, session.diagnostics.warnings.length);
    const found = sources.findings;
    const findings = found ? this.since('findings', found.all, found.ready(changes.calls)) : undefined;
    const delta = {
      ...(changes.grown ? { grown: changes.grown } : {}),
      itemsFrom: changes.itemsFrom,
      items: changes.items,
      sessionIds: sessionIds.entries,
      sessionIdsFrom: sessionIds.from,
      bad: bad.entries,
      badFrom: bad.from,
      warnings: warnings.entries,
      warningsFrom: warnings.from,
      ...(findings ? { findings: findings.entries, findingsFrom: findings.from } : {}),
      calls: changes.calls,
      terminals,
      counts: { ...session.counts },
      format: session.format,
      chain: session.chain ? { ...session.chain } : null,
      ended: session.ended,
      progress: { ...sources.progress, records },
      ...(sources.contentHash !== undefined ? { contentHash: sources.contentHash } : {}),
    } satisfies SessionDelta;
    return delta;
  }

  /** The entries of `list` not sent yet, up to `end`, and where they start. */
  private since<P extends SentList>(part: P, list: readonly DeltaLists[P][], end: number): { entries: DeltaLists[P][]; from: number } {
    const from = this.sent[part];
    this.sent[part] = end;
    return { entries: list.slice(from, end), from };
  }
}
