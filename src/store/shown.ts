// What a viewer shows, as the share layer takes it: the rows the filter leaves, as a session, and
// the input lines behind them (an export of a filtered view holds those and nothing else).
import { isToolCall, type CallSummary, type Session, type ToolCall } from '../model';
import type { SessionSnapshot } from './createSessionStore';
import { isFilterActive } from './filter';

/** A row of a light read, as a call with nothing read of its input and output (exports say what the row knows). */
const wholeOrRow = (call: CallSummary): ToolCall => (isToolCall(call) ? call : { ...call, meta: {}, history: [] });

/** The rows the filter shows, as a session: their items, and only their calls. */
export function shownSession(snap: SessionSnapshot): Session {
  const filtered = isFilterActive(snap.filter);
  const items = filtered ? snap.shownRows.flatMap((index) => snap.items.get(index) ?? []) : snap.items.toArray();
  const calls = new Map<string, ToolCall>();
  for (const item of items) {
    const call = item.type === 'call' ? snap.calls.get(item.callKey) : undefined;
    if (call) calls.set(call.key, wholeOrRow(call));
  }
  if (!filtered) for (const call of snap.calls.values()) calls.set(call.key, wholeOrRow(call));
  return {
    format: snap.format,
    counts: snap.counts,
    items,
    calls,
    terminals: new Map(snap.terminals.entries()),
    diagnostics: { bad: snap.bad.toArray(), warnings: snap.warnings.toArray() },
    chain: snap.chain,
    sessionIds: snap.sessionIds.toArray(),
    ended: snap.ended,
  };
}

/** Input lines of the rows shown (each row's line, and every line that updated a call shown); null when no filter is on. */
export function shownLines(snap: SessionSnapshot): Set<number> | null {
  if (!isFilterActive(snap.filter)) return null;
  const lines = new Set<number>();
  for (const index of snap.shownRows) {
    const item = snap.items.get(index);
    if (!item) continue;
    lines.add(item.loc.line);
    const call = item.type === 'call' ? snap.calls.get(item.callKey) : undefined;
    if (!call) continue;
    lines.add(call.firstLine);
    if (isToolCall(call)) for (const entry of call.history) lines.add(entry.line);
    if (call.permission) lines.add(call.permission.line);
  }
  return lines;
}
