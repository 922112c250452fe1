// Export from the viewer: the session as the person sees it (under the current filter, redacted if
// the view is) as a file to download. jsonl re-reads the source's bytes (the page holds rows, not
// records) and keeps the lines of the rows shown; md is made from the rows the page holds, which a
// redacted read already holds redacted. html is the jsonl export inside the export viewer (fetched
// from where the embedder serves it, only when asked for), as `loupe export --format html` makes it.
import { htmlPage, type ExportViewer } from '../model/exportHtml';
import { exportJsonl } from '../model/exportJsonl';
import { countKinds, sessionMarkdown } from '../model/exportMarkdown';
import { notesForExport, rekeyNotes } from '../model/exportNotes';
import { ingest, isToolCall, type CallSummary, type Session, type ToolCall } from '../model';
import type { SessionSnapshot } from '../store/createSessionStore';
import { isFilterActive } from '../store/filter';
import type { NotesStore } from '../store/notes';
import type { LoadSource } from '../worker/protocol';
import type { ShareFormat } from '../ui/sharing/SharingTools';


export interface ExportContext {
  /** The notes the viewer shows: the md and html exports carry those on the calls they hold. */
  notes: NotesStore;
  /** Where the export viewer's standalone.js and standalone.css are served (a folder URL); html needs it. */
  htmlViewer?: string | URL;
}

export interface ExportedFile {
  blob: Blob;
  name: string;
}

export async function exportSession(format: ShareFormat, source: LoadSource, snap: SessionSnapshot, sourceName: string, context: ExportContext): Promise<ExportedFile> {
  const redact = snap.redaction !== null;
  const base = baseName(sourceName) + (redact ? '.redacted' : '');
  const shownNotes = async (session: Session) => (snap.contentHash ? notesForExport(await context.notes.load(snap.contentHash), session, redact) : {});
  if (format === 'md') {
    const redacted = redact ? countKinds(snap.redaction?.findings ?? []) : null;
    const session = shownSession(snap);
    const notes = await shownNotes(session);
    return { blob: new Blob([sessionMarkdown(session, { title: baseName(sourceName), redacted, notes })], { type: 'text/markdown' }), name: `${base}.md` };
  }
  // Fetched first: a viewer that is not there fails the export before the records are read.
  const viewer = format === 'html' ? await fetchViewer(context.htmlViewer) : null;
  const keep = isFilterActive(snap.filter) ? shownLines(snap) : null;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of exportJsonl(bytesOf(source), { redact, ...(keep ? { keep: (line: number) => keep.has(line) } : {}) })) {
    parts.push(new Uint8Array(chunk));
  }
  if (!viewer) return { blob: new Blob(parts, { type: 'application/x-ndjson' }), name: `${base}.jsonl` };
  const records = new Uint8Array(await new Blob(parts).arrayBuffer());
  const shown = shownSession(snap);
  const noted = await shownNotes(shown);
  // The page's viewer reads the exported records, whose call keys a filter may have renumbered.
  const notes = Object.keys(noted).length ? rekeyNotes(noted, shown, await ingest(records)) : noted;
  const page = await htmlPage(records, viewer, { title: baseName(sourceName), notes });
  return { blob: new Blob(page, { type: 'text/html' }), name: `${base}.html` };
}

/** The export viewer's files, from the same origin as the page (the app's CSP allows only that). */
async function fetchViewer(folder: string | URL | undefined): Promise<ExportViewer> {
  if (folder === undefined) throw new Error('this viewer has no export viewer to put in an html file');
  const base = new URL(folder, document.baseURI);
  const [script, style] = await Promise.all(
    ['standalone.js', 'standalone.css'].map(async (file) => {
      const url = new URL(file, base);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`the export viewer is not served at ${url.href} (HTTP ${response.status}); npm run build puts it there`);
      return response.text();
    }),
  );
  return { script: script!, style: style! };
}

/** A row of a light read, as a call with nothing read of its input and output (exports say what the row knows). */
const wholeOrRow = (call: CallSummary): ToolCall => (isToolCall(call) ? call : { ...call, meta: {}, history: [] });

/** The rows the filter shows, as a session: their items, and only their calls. */
function shownSession(snap: SessionSnapshot): Session {
  const filtered = isFilterActive(snap.filter);
  const items = filtered ? snap.view.flatMap((index) => snap.items.get(index) ?? []) : snap.items.toArray();
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
    if (isToolCall(call)) for (const entry of call.history) lines.add(entry.loc.line);
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
