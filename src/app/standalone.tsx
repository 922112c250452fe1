// The viewer inside an html export: the session is in the page itself (base64, in a data block),
// so it opens from disk with no network; the notes written on it, if any, are a JSON data block,
// shown read-only. Built by vite.export.config.ts into one script. The blocks' ids are the ones
// src/share/exportHtml.ts writes (this layer imports only the embed API, so they are repeated here).
import { createRoot } from 'react-dom/client';
import { SessionViewer, type FileNotes } from '../embed';
import './app.css';

const data = document.getElementById('loupe-session');
const root = document.getElementById('root');
if (data && root) {
  const bytes = Uint8Array.from(atob(data.textContent ?? ''), (char) => char.charCodeAt(0));
  const name = data.dataset.name ?? 'session.jsonl';
  // A redacted export says so above the session, in the md export's words (src/share/exportHtml.ts).
  const redacted = data.dataset.redacted;
  const viewer = <SessionViewer source={new File([bytes], name)} notes={pageNotes()} offerRedaction={false} />;
  createRoot(root).render(
    redacted ? (
      <div className="loupe-export">
        <p className="loupe-export__redacted" role="note">
          {redacted}
        </p>
        <div className="loupe-export__viewer">{viewer}</div>
      </div>
    ) : (
      viewer
    ),
  );
}

/** The notes block's JSON, or undefined without one; what it holds is checked by the viewer, which drops anything not notes. */
function pageNotes(): FileNotes | undefined {
  const block = document.getElementById('loupe-notes');
  // No notes came with the page: notes written here are kept in this browser, as in the app.
  if (!block) return undefined;
  try {
    return JSON.parse(block.textContent ?? '{}') as FileNotes;
  } catch {
    return {};
  }
}
