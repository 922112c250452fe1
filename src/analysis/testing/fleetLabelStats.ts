// The library's label stats worked out the slow way, over row objects with the Stats view's
// callStats: what `labelStatsOver` (library/callColumns.ts) must agree with.
import type { CallSummary } from '../../model/types';
import type { FleetCall, FleetLabelStats } from '../fleet';
import { callStats } from '../insights';

/** Calls per label with their failure rate and p50/p95 duration: the Stats view's numbers (callStats), over many sessions. */
export function fleetLabelStats(calls: Iterable<FleetCall>): FleetLabelStats[] {
  const stats = callStats(asCallSummaries(calls), { ended: true, listLimit: 0 });
  return stats.labels.map(({ label, calls: count, failed, failedShare, p50Ms, p95Ms }) => ({ label, calls: count, failed, failedShare, p50Ms, p95Ms }));
}

function* asCallSummaries(calls: Iterable<FleetCall>): Generator<CallSummary> {
  let ordinal = 0;
  for (const call of calls) {
    const summary: CallSummary = {
      key: `${call.file}\u0000${ordinal}`,
      id: call.call_id,
      sessionId: call.session,
      ordinal: ordinal++,
      firstLine: 0,
      invalidEnvelopes: 0,
      label: call.label,
      subject: call.subject,
      detail: 'light',
      // Only `failed` is counted as a failure; the rest of the model's statuses do not matter to the numbers.
      status: call.status === 'failed' ? 'failed' : call.status === 'done' ? 'completed' : 'in_progress',
    };
    if (call.duration_ms !== null) summary.durationMs = call.duration_ms;
    yield summary;
  }
}

