// Search over what a light read left in the file (issue 8): a call's input and output are not in
// the page, so the worker reads the call's own records again and looks for the text there, with
// the same haystack the page uses (callSearchText). The page merges the keys found into its view.
import { callSearchText, SessionBuilder, type SourceLocation, type ToolCall } from '../model';

/** Read in windows this large: one slice per window, not one per record. */
const WINDOW = 4 * 1024 * 1024;
const NO_TERMINALS = { get: () => undefined };

interface RecordRef {
  loc: SourceLocation;
  keys: string[];
}

/** Keys of the light calls whose own records hold `text` (case-insensitive) in their input or output. */
export async function searchLeftInFile(blob: Blob, calls: Iterable<ToolCall>, text: string): Promise<string[]> {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [];
  // Inside JSON strings, quotes, backslashes and control characters are escaped.
  const escaped = JSON.stringify(needle).slice(1, -1);
  const byOffset = new Map<number, RecordRef>();
  for (const call of calls) {
    if (call.detail !== 'light') continue;
    for (const loc of call.history) {
      const ref = byOffset.get(loc.offset);
      if (ref) {
        if (!ref.keys.includes(call.key)) ref.keys.push(call.key);
      } else byOffset.set(loc.offset, { loc, keys: [call.key] });
    }
  }
  const refs = [...byOffset.values()].sort((a, b) => a.loc.offset - b.loc.offset);
  const found = new Set<string>();
  const decoder = new TextDecoder();
  let i = 0;
  while (i < refs.length) {
    const windowStart = refs[i]!.loc.offset;
    const windowEnd = Math.max(windowStart + WINDOW, windowStart + refs[i]!.loc.length);
    const bytes = new Uint8Array(await blob.slice(windowStart, windowEnd).arrayBuffer());
    for (; i < refs.length && refs[i]!.loc.offset + refs[i]!.loc.length <= windowStart + bytes.length; i++) {
      const { loc, keys } = refs[i]!;
      if (keys.every((key) => found.has(key))) continue;
      const recordText = decoder.decode(bytes.subarray(loc.offset - windowStart, loc.offset - windowStart + loc.length));
      const lower = recordText.toLowerCase();
      // Most records hold no trace of the text: only those that do are read as records.
      if (!lower.includes(needle) && !lower.includes(escaped)) continue;
      const scratch = new SessionBuilder({ detail: 'full' });
      scratch.pushRecordText(recordText, loc);
      for (const call of scratch.session.calls.values()) {
        if (callSearchText(call, NO_TERMINALS).includes(needle)) for (const key of keys) found.add(key);
      }
    }
    // A record past the end of the file (the file changed) is skipped, not read forever.
    if (i < refs.length && refs[i]!.loc.offset === windowStart) i++;
  }
  return [...found];
}
