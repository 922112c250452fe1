// One export, start to finish, as the viewer makes it: the session as the person sees it (under the
// current filter, redacted if the view is) as a file. jsonl re-reads the source's bytes (a viewer
// holds rows, not records) and keeps the lines of the rows shown; md is made from the rows shown,
// which a redacted read already holds redacted; html is the jsonl export inside the export viewer,
// as `loupe export --format html` makes it. The embed layer only gathers what this needs.
import { ingest } from '../model';
import type { Session } from '../model/session';
import type { FileNotes } from '../model/types';
import { htmlPage, type ExportViewer } from './exportHtml';
import { concat, exportJsonl } from './exportJsonl';
import { baseName, countKinds, sessionMarkdown } from './exportMarkdown';
import { notesForExport, rekeyNotes } from './exportNotes';

export type ShareFormat = 'jsonl' | 'md' | 'html';

export interface ExportRequest {
  format: ShareFormat;
  /** The source's name as the person knows it (a file name, a URL): titles and the file's name come from it. */
  sourceName: string;
  /** The rows shown, as a session (all of them when no filter is on). */
  shown: Session;
  /** Input lines of the rows shown (1-based); null when no filter is on and every line goes. */
  keepLines: ReadonlySet<number> | null;
  /** The secrets the redacted view replaced; null when the view is not redacted. */
  redaction: { findings: Iterable<{ kind: string }> } | null;
  /** The notes written on this file, by call key (the export keeps those on calls it holds). */
  notes: FileNotes;
  /** The source's bytes, read again (jsonl and html carry records, not rows). */
  readBytes: () => AsyncIterable<Uint8Array>;
  /** The export viewer's built files; html only (fetched by the caller, which knows where they are served). */
  viewer?: ExportViewer;
}

/** A file to download: what an export makes. */
export interface ExportedFile {
  blob: Blob;
  name: string;
}

export async function exportShown(request: ExportRequest): Promise<ExportedFile> {
  const redact = request.redaction !== null;
  const title = baseName(request.sourceName);
  const fileBase = title + (redact ? '.redacted' : '');
  // Secrets replaced in the notes an export carries are counted with the records'.
  const inNotes: { kind: string }[] = [];
  const notes = await notesForExport(request.notes, request.shown, redact, (_key, kind) => void inNotes.push({ kind }));
  if (request.format === 'md') {
    const redacted = request.redaction ? countKinds([...request.redaction.findings, ...inNotes]) : null;
    return { blob: new Blob([sessionMarkdown(request.shown, { title, redacted, notes })], { type: 'text/markdown' }), name: `${fileBase}.md` };
  }
  const keep = request.keepLines;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of exportJsonl(request.readBytes(), { redact, ...(keep ? { keep: (line: number) => keep.has(line) } : {}) })) {
    parts.push(new Uint8Array(chunk));
  }
  if (request.format === 'jsonl') return { blob: new Blob(parts, { type: 'application/x-ndjson' }), name: `${fileBase}.jsonl` };
  if (!request.viewer) throw new Error('this viewer has no export viewer to put in an html file');
  const records = concat(parts);
  // The page's viewer reads the exported records, whose call keys a filter may have renumbered.
  const pageNotes = Object.keys(notes).length ? rekeyNotes(notes, request.shown, await ingest(records)) : notes;
  const redacted = request.redaction ? countKinds(request.redaction.findings) : null;
  const page = await htmlPage(records, request.viewer, { title, notes: pageNotes, redacted });
  return { blob: new Blob(page, { type: 'text/html' }), name: `${fileBase}.html` };
}
