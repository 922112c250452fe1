// Export from the viewer: gathers what share/exportShown needs from this viewer (the rows shown,
// the notes, the source's bytes, the export viewer's files) and hands back a file to download.
import type { ExportViewer } from '../share/exportHtml';
import { exportShown, type ExportedFile, type ShareFormat } from '../share/exportShown';
import type { SessionSnapshot } from '../store/createSessionStore';
import type { NotesStore } from '../store/notes';
import { shownLines, shownSession } from '../store/shown';
import type { LoadSource } from '../worker/protocol';
import { sourceBytesAgain } from '../worker/sourceBytes';

export interface ExportContext {
  /** The notes the viewer shows: the md and html exports carry those on the calls they hold. */
  notes: NotesStore;
  /** Where the export viewer's standalone.js and standalone.css are served (a folder URL); html needs it. */
  htmlViewer?: string | URL;
}

export async function exportSession(format: ShareFormat, source: LoadSource, snap: SessionSnapshot, sourceName: string, context: ExportContext): Promise<ExportedFile> {
  // Fetched first: a viewer that is not there fails the export before the records are read.
  const viewer = format === 'html' ? await fetchViewer(context.htmlViewer) : undefined;
  return exportShown({
    format,
    sourceName,
    shown: shownSession(snap),
    keepLines: shownLines(snap),
    redaction: snap.redaction,
    notes: snap.contentHash ? await context.notes.load(snap.contentHash) : {},
    readBytes: () => sourceBytesAgain(source),
    ...(viewer ? { viewer } : {}),
  });
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
