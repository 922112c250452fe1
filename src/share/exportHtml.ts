// The html export, the CLI's and the viewer's: one page holding the viewer (the script and style
// vite.export.config.ts builds), the session (base64, in a data block) and the notes written on it
// (JSON, in a data block), under a CSP that lets only its own hashed script run and reach nothing:
// it opens from disk, offline, and is safe to attach to an issue. Nothing from the session or the
// notes is ever written as HTML: both are data the viewer reads, never markup the page parses.
import type { FileNotes } from '../model/types';
import { redactionNote } from './exportMarkdown';

/** The export viewer's built files, as text. */
export interface ExportViewer {
  script: string;
  style: string;
}


export interface HtmlPageOptions {
  /** The file's name: the page's title, and the name the viewer shows. */
  title: string;
  /** Shown read-only on their calls; only notes on calls the records hold belong here. */
  notes?: FileNotes;
  /** Secrets replaced, by kind, when the records were redacted: the page says so (as the md export does). */
  redacted?: ReadonlyMap<string, number> | null;
}

/** The ids the export viewer (src/app/standalone.tsx) reads its data from. */
const SESSION_BLOCK_ID = 'loupe-session';
const NOTES_BLOCK_ID = 'loupe-notes';

/**
 * The page, in parts to write or put in a Blob one after another (a large session is not joined
 * into one string here).
 */
export async function htmlPage(records: Uint8Array, viewer: ExportViewer, options: HtmlPageOptions): Promise<string[]> {
  // `</script` in the code would end the element early; `<\/script` means the same in JS text.
  const inlineScript = viewer.script.replace(/<\/(script)/gi, '<\\/$1');
  const policy = await exportPolicy(inlineScript);
  const title = escapeHtml(options.title);
  const notes = options.notes && Object.keys(options.notes).length > 0 ? options.notes : null;
  // Read by the page's viewer, which shows it above the session; the title says it too.
  const redacted = options.redacted ? ` data-redacted="${escapeHtml(redactionNote(options.redacted))}"` : '';
  return [
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${title}${redacted ? ' (redacted)' : ''} — Loupe</title>
<style>${viewer.style.replace(/<\/(style)/gi, '<\\/$1')}</style>
</head>
<body>
<div id="root"></div>
<script type="application/octet-stream" id="${SESSION_BLOCK_ID}" data-name="${title}"${redacted}>`,
    ...base64Parts(records),
    '</script>\n',
    ...(notes ? [`<script type="application/json" id="${NOTES_BLOCK_ID}">${jsonInHtml(notes)}</script>\n`] : []),
    `<script type="module">${inlineScript}</script>
</body>
</html>
`,
  ];
}

/**
 * Only the page's own script, by hash; WebAssembly for hashing (hash-wasm); workers from the
 * blob: and data: URLs the script makes for its inlined workers; nothing fetched from anywhere.
 * Styles may be inline: the diff view writes its own.
 */
export async function exportPolicy(inlineScript: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(inlineScript));
  return [
    "default-src 'none'",
    `script-src 'sha256-${base64(new Uint8Array(digest))}' 'wasm-unsafe-eval'`,
    'worker-src blob: data:',
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    "connect-src 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * JSON that cannot end its `<script>` element or open a comment in it: every `<` is written as
 * `\u003c`, which JSON.parse reads back as `<`.
 */
function jsonInHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** 3 × 16 Ki bytes: a multiple of 3, so each part's base64 has no padding and the parts join. */
const BASE64_PART = 3 * 16 * 1024;

function* base64Parts(bytes: Uint8Array): Generator<string> {
  for (let at = 0; at < bytes.length; at += BASE64_PART) yield base64(bytes.subarray(at, at + BASE64_PART));
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  const STEP = 0x2000;
  for (let at = 0; at < bytes.length; at += STEP) binary += String.fromCharCode(...bytes.subarray(at, at + STEP));
  return btoa(binary);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
