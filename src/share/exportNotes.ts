// Notes as they travel: the sidecar JSON the viewer exports and imports (and `loupe export --notes`
// reads), and the notes an html or md export carries: only those on calls the export holds,
// redacted like the records when the export is.
import { z } from 'zod';
import { callIdentity } from '../model/callKey';
import type { Session } from '../model/session';
import type { CallNote, FileNotes } from '../model/types';

// No compiled parsers: zod's probe for them (`new Function`) is a violation under the app's CSP.
z.config({ jitless: true });

export const NOTE = z.object({ text: z.string().max(100_000), bookmarked: z.boolean() }) satisfies z.ZodType<CallNote>;
export const FILE_NOTES = z.record(z.string(), NOTE);
export const NOTES_SIDECAR = z.object({ loupeNotes: z.literal(1), contentHash: z.string().regex(/^[0-9a-f]{64}$/), notes: FILE_NOTES });
export type NotesSidecar = z.infer<typeof NOTES_SIDECAR>;

/** A sidecar's notes, or why the text is not one. */
export function parseSidecar(json: string): NotesSidecar {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('not a notes file (it is not JSON)');
  }
  const sidecar = NOTES_SIDECAR.safeParse(parsed);
  if (!sidecar.success) throw new Error('not a Loupe notes file');
  return sidecar.data;
}

/**
 * The notes on calls `session` holds (an export under a filter holds fewer calls than were noted),
 * each note's text redacted when `redact` is set: a note can quote a secret as easily as a record.
 * Each secret replaced is told to `onFinding` with the call's key, to be counted with the records'.
 */
export async function notesForExport(
  notes: FileNotes, session: Session, redact: boolean, onFinding?: (callKey: string, kind: string) => void,
): Promise<Record<string, CallNote>> {
  const kept = Object.entries(notes).filter(([key]) => session.calls.has(key));
  const redactText = redact && kept.length ? (await import('./redact/detect')).redactText : null;
  const out: [string, CallNote][] = [];
  for (const [key, note] of kept) {
    let text = note.text;
    if (redactText) {
      const redacted = await redactText(note.text);
      text = redacted.text;
      for (const kind of redacted.kinds) onFinding?.(key, kind);
    }
    out.push([key, { text, bookmarked: note.bookmarked }]);
  }
  // fromEntries defines own properties: a call key `__proto__` stays a key.
  return Object.fromEntries(out);
}

/**
 * Notes keyed by `from`'s call keys (the calls an export holds, as the viewer keyed them), keyed by
 * `to`'s: the same calls read from the export's records.
 * A call key numbers a reused id by how many calls came before it, which a filter changes, so a call
 * is matched as the k-th call with its scope and id in both. Notes on calls `to` lacks are dropped.
 */
export function rekeyNotes(notes: FileNotes, from: Session, to: Session): Record<string, CallNote> {
  const byIdentity = (session: Session): Map<string, string[]> => {
    const keys = new Map<string, string[]>();
    for (const call of [...session.calls.values()].sort((a, b) => a.ordinal - b.ordinal)) {
      const identity = callIdentity(call.key);
      const same = keys.get(identity);
      if (same) same.push(call.key);
      else keys.set(identity, [call.key]);
    }
    return keys;
  };
  const fromKeys = byIdentity(from);
  const toKeys = byIdentity(to);
  const out: [string, CallNote][] = [];
  for (const [key, note] of Object.entries(notes)) {
    const identity = callIdentity(key);
    const index = fromKeys.get(identity)?.indexOf(key) ?? -1;
    const target = index < 0 ? undefined : toKeys.get(identity)?.[index];
    if (target !== undefined) out.push([target, note]);
  }
  return Object.fromEntries(out);
}

