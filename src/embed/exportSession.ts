// Export from the viewer: the session as the person sees it (under the current filter, redacted if
// the view is) as a file to download. jsonl re-reads the source's bytes (the page holds rows, not
// records) and keeps the lines of the rows shown; md is made from the rows the page holds, which a
// redacted read already holds redacted.
import { exportJsonl } from '../model/exportJsonl';
import { countKinds, sessionMarkdown } from '../model/exportMarkdown';
import type { Session, ToolCall } from '../model';
import type { SessionSnapshot } from '../store/createSessionStore';
import { isFilterActive } from '../store/filter';
import { pageNotes } from '../store/notes';
import type { LoadSource } from '../worker/protocol';

export type ExportFormat = 'jsonl' | 'md';

export interface ExportedFile {
  blob: Blob;
  name: string;
}

/** Whether `source` can be read again for a jsonl export (a stream is read once). */
export const canReread = (source: LoadSource): boolean => source.kind !== 'stream';

export async function exportSession(format: ExportFormat, source: LoadSource, snap: SessionSnapshot, sourceName: string): Promise<ExportedFile> {
  const redact = snap.redaction !== null;
  const base = baseName(sourceName) + (redact ? '.redacted' : '');
  if (format === 'md') {
    const redacted = redact ? countKinds(snap.redaction?.findings ?? []) : null;
    const notes = snap.contentHash ? await pageNotes.load(snap.contentHash) : {};
    return { blob: new Blob([sessionMarkdown(shownSession(snap), { title: baseName(sourceName), redacted, notes })], { type: 'text/markdown' }), name: `${base}.md` };
  }
  const keep = isFilterActive(snap.filter) ? shownLines(snap) : null;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of exportJsonl(bytesOf(source), { redact, ...(keep ? { keep: (line: number) => keep.has(line) } : {}) })) {
    parts.push(new Uint8Array(chunk));
  }
  return { blob: new Blob(parts, { type: 'application/x-ndjson' }), name: `${base}.jsonl` };
}

/** The rows the filter shows, as a session: their items, and only their calls. */
export function shownSession(snap: SessionSnapshot): Session {
  const filtered = isFilterActive(snap.filter);
  const items = filtered ? snap.view.flatMap((index) => snap.items.get(index) ?? []) : snap.items.toArray();
  const calls = new Map<string, ToolCall>();
  for (const item of items) {
    const call = item.type === 'call' ? snap.calls.get(item.callKey) : undefined;
    if (call) calls.set(call.key, call);
  }
  if (!filtered) for (const call of snap.calls.values()) calls.set(call.key, call);
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

/** Input lines of the rows shown: each row's line, and every line that updated a call shown. */
function shownLines(snap: SessionSnapshot): Set<number> {
  const lines = new Set<number>();
  for (const index of snap.view) {
    const item = snap.items.get(index);
    if (!item) continue;
    lines.add(item.loc.line);
    const call = item.type === 'call' ? snap.calls.get(item.callKey) : undefined;
    if (!call) continue;
    lines.add(call.firstLine);
    for (const entry of call.history) lines.add(entry.loc.line);
    if (call.permission) lines.add(call.permission.line);
  }
  return lines;
}

async function* bytesOf(source: LoadSource): AsyncGenerator<Uint8Array> {
  switch (source.kind) {
    case 'blob':
      yield new Uint8Array(await source.blob.arrayBuffer());
      return;
    case 'text':
      yield new TextEncoder().encode(source.text);
      return;
    case 'records':
      yield new TextEncoder().encode(source.records.map((record) => JSON.stringify(record)).join('\n') + '\n');
      return;
    case 'url': {
      const response = await fetch(source.url);
      if (!response.ok) throw new Error(`Could not read ${source.url} again: HTTP ${response.status}`);
      yield new Uint8Array(await response.arrayBuffer());
      return;
    }
    case 'stream':
      throw new Error('A stream is read once: it cannot be read again to export its records');
  }
}

function baseName(name: string): string {
  const last = name.split(/[\\/]/).pop() || 'session';
  return last.replace(/\.(jsonl|json|ndjson|log|txt)$/i, '') || 'session';
}
