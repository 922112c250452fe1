// Text that a session writes over several records and a person reads as one: an agent's message
// streamed as `agent_message_chunk` updates (every ACP agent streams so), and an agent's stderr,
// which `loupe tee` records a line a record. A secret cut across such records is in no one record,
// so redaction reads each run of them joined, as the viewer shows it (builder.ts joins chunks the
// same way: consecutive chunks of one message).
import { isJsonObject, parseObject } from '../../ingest/json';

/** Where a line's part of a stream is, and which stream it continues. */
export interface StreamText {
  /** Records with the same key, one after another, are one text. */
  key: string;
  /** The text this record adds. */
  text: string;
  /** What is between two records' texts: nothing for chunks, a line break for stderr lines. */
  separator: string;
}

const CHUNK_KINDS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);


/** The stream a line continues, or null. Only lines that can be one are parsed. */
export function streamTextOf(line: string): StreamText | null {
  if (!line.includes('_chunk"') && !line.includes('"stderr"')) return null;
  const value = parseObject(line);
  if (value === undefined) return null;
  // `loupe tee`'s stderr lines: {t_ms, dir: "stderr", text}.
  if (value.dir === 'stderr' && typeof value.text === 'string' && !('msg' in value)) return { key: 'stderr', text: value.text, separator: '\n' };
  // A session/update as JSON-RPC, in a tee capture (`msg`), an acpx log (`message`), or without `jsonrpc`.
  const message = isJsonObject(value.msg) ? value.msg : isJsonObject(value.message) ? value.message : value;
  const params = message.params;
  if (!isJsonObject(params) || !isJsonObject(params.update)) return null;
  const update = params.update;
  if (typeof update.sessionUpdate !== 'string' || !CHUNK_KINDS.has(update.sessionUpdate)) return null;
  const content = update.content;
  if (!isJsonObject(content) || content.type !== 'text' || typeof content.text !== 'string') return null;
  const messageId = typeof update.messageId === 'string' ? update.messageId : '';
  return { key: `${update.sessionUpdate}\u0000${String(params.sessionId)}\u0000${messageId}`, text: content.text, separator: '' };
}
