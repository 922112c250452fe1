// Ledger lines (CONTRACTS §9): each told to the chain's verifier, its calls merged by id (a legacy
// call without one by its line), what the model returned shown as a message.
import type { ByteRange } from '../../ingest/reader';
import type { IngestRecord, LedgerToolCalled, RecordBody } from '../../ingest/records';
import { LEDGER_SCOPE, LEGACY_LEDGER_SCOPE } from '../callKey';
import { mergeLedgerCalled, mergeLedgerResult } from '../merge';
import { summarizeOther } from './eventText';
import type { FoldState } from './foldState';

export function foldLedger(state: FoldState, record: IngestRecord, body: Extract<RecordBody, { kind: 'ledger' }>, bytes: ByteRange | null): void {
  const { line, body: ledger } = body;
  if (bytes) {
    state.chain.ledgerLine(record.loc.line, line.prev, bytes.source, bytes.start, bytes.end);
    state.session.chain = state.chain.state;
  }
  const run = state.ids.canonical(line.run ?? null);
  const loc = record.loc;
  switch (ledger.type) {
    case 'tool_called':
      return foldCalled(state, run, ledger.call, record);
    case 'tool_result': {
      if (ledger.toolUseId === undefined) {
        state.transcript.add({ type: 'event', loc, name: line.kind, summary: 'result without a tool_use_id', raw: line.data });
        return;
      }
      const call = state.calls.callFor(LEDGER_SCOPE, ledger.toolUseId, run, loc);
      mergeLedgerResult(call, ledger, state.calls.mergeContext(record));
      return;
    }
    case 'model_returned':
      return state.transcript.add({ type: 'message', role: 'agent', loc, sessionId: run, blocks: [], text: ledger.text });
    case 'other':
      return state.transcript.add({ type: 'event', loc, name: line.kind, summary: summarizeOther(line.data), raw: state.eventRaw(loc, line) });
    default: {
      const exhaustive: never = ledger;
      return exhaustive;
    }
  }
}

function foldCalled(state: FoldState, run: string | null, data: LedgerToolCalled, record: IngestRecord): void {
  // A legacy call without an id is keyed by its line (CONTRACTS §4).
  const call = data.id === undefined
    ? state.calls.callFor(LEGACY_LEDGER_SCOPE, `line:${record.loc.line}`, run, record.loc)
    : state.calls.callFor(LEDGER_SCOPE, data.id, run, record.loc);
  mergeLedgerCalled(call, data, state.calls.mergeContext(record));
}
