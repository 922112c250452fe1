// How the fold words the events it makes of records that stand for nothing else.
import { isJsonObject } from '../../ingest/schemas';

/** An event's summary: the first of the fields records of unknown kinds name themselves by. */
export function summarizeOther(raw: unknown): string | undefined {
  if (!isJsonObject(raw)) return undefined;
  for (const key of ['title', 'event_name', 'name', 'goal', 'message', 'status']) {
    const value = raw[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
