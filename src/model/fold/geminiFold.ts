// A line of a Gemini CLI chat file (CONTRACTS §11) that writes, replaces or removes records. The
// session's records are kept by id in the order Gemini CLI's own reader keeps them: a record
// written again replaces the earlier one (its message is replaced where it shows, its calls are
// the same calls, its usage counted once); `$rewindTo` and a `$set` of `messages` remove records
// from the session's history. What a removed record showed stays shown (its calls ran, its tokens
// were spent): the line says what Gemini CLI no longer counts as the conversation.
import type { IngestRecord, NativeEntry } from '../../ingest/records';
import { isJsonObject } from '../../ingest/schemas';
import { plural } from './eventText';
import type { FoldState } from './foldState';
import { foldNativeUsage, isPlanCall, pairKey } from './nativeFold';

/** What the fold showed of one Gemini CLI record, so the record written again replaces it. */
export interface GeminiRecord {
  /** Its message items by role (`user`, `agent`, `thought`): their index in the transcript. */
  messages: Map<string, number>;
  /** Its tool calls' ids. */
  calls: Set<string>;
  /** Each call's result as last folded (status and text): the same result written again is not folded again. */
  results: Map<string, string>;
  /** How many times the record was written. */
  written: number;
}

export function foldGemini(state: FoldState, record: IngestRecord, body: NativeEntry, sessionId: string | null): void {
  const records = state.native.geminiRecordsOf(sessionId ?? '');
  if (body.record !== undefined) {
    // A record written again that changes nothing shown is counted (an event), not shown twice.
    foldGeminiRecord(state, record, body, body.record, sessionId, records);
    return;
  }
  let summary = body.summary;
  if (body.rewindTo !== undefined) {
    const ids = [...records.keys()];
    const at = ids.indexOf(body.rewindTo);
    // Gemini CLI's reader removes the record and every one after it; an id it does not know removes them all.
    const removed = at < 0 ? ids : ids.slice(at);
    for (const id of removed) records.delete(id);
    summary = at < 0
      ? `rewind to ${body.rewindTo}, a record not in the history: all ${removed.length} records removed from the history`
      : `rewind to ${body.rewindTo}: ${plural(removed.length, 'record')} removed from the history (shown above as read)`;
  } else if (body.records !== undefined) {
    // The history written again: these records, in this order, and no others.
    const listed = new Map<string, GeminiRecord | undefined>();
    for (const entry of body.records) if (entry.record !== undefined) listed.set(entry.record, records.get(entry.record));
    const removed = [...records.keys()].filter((id) => !listed.has(id)).length;
    records.clear();
    for (const [id, kept] of listed) if (kept) records.set(id, kept);
    for (const entry of body.records) if (entry.record !== undefined) foldGeminiRecord(state, record, entry, entry.record, sessionId, records);
    summary = `${summary ?? 'messages'}: the history written again (${plural(listed.size, 'record')}${removed > 0 ? `, ${removed} removed` : ''})`;
  } else if (body.name === '$set' && isJsonObject(body.raw.$set) && Object.keys(body.raw.$set).every((key) => key === 'lastUpdated')) {
    // A `$set` of `lastUpdated` alone follows nearly every record: counted, not a row of its own.
    return;
  }
  state.transcript.add({ type: 'event', loc: record.loc, name: body.name, summary, raw: body.raw, sessionId });
}

/** One Gemini record (`id`), new or written again. */
function foldGeminiRecord(state: FoldState, record: IngestRecord, entry: NativeEntry, id: string, sessionId: string | null, records: Map<string, GeminiRecord>): void {
  let written = records.get(id);
  if (!written) {
    written = { messages: new Map(), calls: new Set(), results: new Map(), written: 0 };
    // Re-inserted at the end: a record Gemini CLI writes after a rewind comes after what is left.
    records.set(id, written);
  }
  written.written++;
  const { native, calls, transcript } = state;
  const scope = sessionId ?? '';
  const loc = record.loc;
  let shown = false;
  for (const update of entry.updates) {
    switch (update.type) {
      case 'exit':
        calls.noteExitCode(scope, update.toolCallId, update.exitCode);
        break;
      case 'chunk': {
        const role = update.tag === 'user_message_chunk' ? 'user' : update.tag === 'agent_message_chunk' ? 'agent' : 'thought';
        const text = update.content.type === 'text' ? update.content.text : '';
        const at = written.messages.get(role);
        if (at === undefined) {
          // Its text is compared when the record is written again (below): kept in a read for rows too.
          transcript.appendChunk(sessionId, role, update.content, update.messageId, loc, record.ts, true);
          written.messages.set(role, state.session.items.length - 1);
          shown = true;
        } else if (transcript.replaceMessageText(at, text)) shown = true;
        break;
      }
      case 'call': {
        const { toolCallId, name } = update.update.fields;
        // The record written again lists its calls again: the same calls.
        if (written.calls.has(toolCallId)) break;
        written.calls.add(toolCallId);
        shown = true;
        if (isPlanCall(name, toolCallId)) {
          native.planCalls.add(pairKey(scope, toolCallId));
          transcript.add({ type: 'plan', loc, sessionId, entries: update.plan ?? [] });
          break;
        }
        // A call's own time, not its record's (a record gains calls long after it was started).
        calls.toolUpdate(sessionId, update.update, update.ts === undefined ? record : { ...record, ts: update.ts }, 'tool_call');
        break;
      }
      case 'result': {
        const { toolCallId, status, content } = update.update.fields;
        if (native.planCalls.has(pairKey(scope, toolCallId))) break;
        const first = content?.[0];
        const said = `${status ?? ''}\n${first?.type === 'content' && first.content.type === 'text' ? first.content.text : ''}`;
        if (written.results.get(toolCallId) === said) break;
        written.results.set(toolCallId, said);
        shown = true;
        // No time: a tool call records one time only, which its `tool_call` took.
        calls.toolUpdate(sessionId, update.update, { ...record, ts: undefined }, 'tool_call_update');
        break;
      }
      default: {
        const exhaustive: never = update;
        return exhaustive;
      }
    }
  }
  if (entry.usage) {
    foldNativeUsage(state, entry.usage, loc, sessionId);
    shown = true;
  }
  // A record that stands for nothing else (`info`, `error`, another type, a user record of tool
  // results) is shown by its type when first written.
  if (!shown && written.written === 1) transcript.add({ type: 'event', loc, name: entry.name, summary: entry.summary, raw: entry.raw, sessionId });
}
