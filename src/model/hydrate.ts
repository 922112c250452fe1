// Reads a light call's lines again to give its full state: content, raw output, ledger result.
import { fail, ok, type Result } from '../ingest/result';
import { SessionBuilder } from './builder';
import type { SourceLocation, ToolCall } from './types';

/** Returns the text of the record at `loc` (a slice of the source, by byte offset and length). */
export type ReadRecord = (loc: SourceLocation) => Promise<string> | string;

/** The call read whole from its lines, or why it could not be (the lines cannot be read, or no longer hold it). */
export async function hydrateCall(call: ToolCall, readRecord: ReadRecord): Promise<Result<ToolCall>> {
  if (call.detail === 'full') return ok(call);
  const scratch = new SessionBuilder({ detail: 'full' });
  try {
    for (const entry of call.history) scratch.pushRecordText(await readRecord(entry), entry);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  // Read alone, the call's lines make one call with its id; its key differs when the id came back (§4).
  const full = scratch.session.calls.get(call.key) ?? [...scratch.session.calls.values()].findLast((c) => c.id === call.id);
  if (!full) return fail(`its lines (from line ${call.firstLine.toLocaleString('en')}) no longer hold call ${call.id}: has the file changed since it was read?`);
  // Joins made by other lines (permission outcomes, terminal output) stay as the light call has them.
  return ok({
    ...call,
    detail: 'full',
    content: full.content,
    rawOutput: full.rawOutput,
    rawInput: full.rawInput ?? call.rawInput,
    ledger: call.ledger && { ...call.ledger, result: full.ledger?.result },
  });
}

/** A ReadRecord over a Blob or File (browser or Node ≥ 20). */
export function blobReader(blob: Blob): ReadRecord {
  return async (loc) => new TextDecoder().decode(await blob.slice(loc.offset, loc.offset + loc.length).arrayBuffer());
}
