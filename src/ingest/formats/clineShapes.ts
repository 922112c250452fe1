// Which of Cline's records a JSON value is (formats/cline.ts reads them): asked by the harness's
// head reader too, which the walk for session files loads, so apart from the reading and its zod.
import { isJsonObject, type JsonObject } from '../json';

/** The head of a messages file: the session it opens (its messages belong to it). */
export function isClineHead(value: JsonObject): boolean {
  return typeof value.sessionId === 'string' && isJsonObject(value.origin) && Array.isArray(value.messages) && !('type' in value);
}

/** A message of a messages file: Cline writes no `type`, and times it in milliseconds (`ts`). */
export function isClineMessage(value: JsonObject): boolean {
  return typeof value.role === 'string' && Array.isArray(value.content) && typeof value.ts === 'number' && !('type' in value);
}

/** The `<id>.json` beside a messages file: what the session ran with (read for its head, an event when read as a session). */
export function isClineSessionMeta(value: JsonObject): boolean {
  return typeof value.session_id === 'string' && typeof value.started_at === 'string' && typeof value.workspace_root === 'string';
}
