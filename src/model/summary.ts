// The `loupe summarize --json` projection: what a terminal, a CI log or a test compares.
import type { Session } from './session';
import type { BadLine, CallStatus, ChainState, Counts, InputFormat } from './types';

export interface Summary {
  format: InputFormat;
  counts: Counts;
  calls: { id: string; session: string | null; label: string; subject: string | null; status: CallStatus }[];
  diagnostics: BadLine[];
  chain: ChainState | null;
}

export function summarize(session: Session): Summary {
  return {
    format: session.format,
    counts: { ...session.counts },
    calls: [...session.calls.values()].map((call) => ({
      id: call.id,
      session: call.sessionId,
      label: call.label,
      subject: call.subject,
      status: call.status ?? 'pending',
    })),
    diagnostics: session.diagnostics.bad,
    chain: session.chain,
  };
}
