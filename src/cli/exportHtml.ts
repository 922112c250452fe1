// The html export: one page holding the viewer (dist/export, built by vite.export.config.ts) and
// the session (base64 in a data block), under a CSP that lets only its own hashed script run and
// reach nothing: it opens from disk, offline, and is safe to attach to an issue.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = 'standalone.js';
const STYLE = 'standalone.css';

export async function htmlPage(records: Uint8Array, title: string, viewerDir = findViewerDir()): Promise<string> {
  let script: string;
  let style: string;
  try {
    [script, style] = await Promise.all([readFile(join(viewerDir, SCRIPT), 'utf8'), readFile(join(viewerDir, STYLE), 'utf8')]);
  } catch {
    throw new Error(`the viewer for html exports is not built (${join(viewerDir, SCRIPT)}): run npm run build:export`);
  }
  // `</script` in the code would end the element early; `<\/script` means the same in JS text.
  const inlineScript = script.replace(/<\/(script)/gi, '<\\/$1');
  const policy = exportPolicy(inlineScript);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} — Loupe</title>
<style>${style.replace(/<\/(style)/gi, '<\\/$1')}</style>
</head>
<body>
<div id="root"></div>
<script type="application/octet-stream" id="loupe-session" data-name="${escapeHtml(title)}">${Buffer.from(records).toString('base64')}</script>
<script type="module">${inlineScript}</script>
</body>
</html>
`;
}

/**
 * Only the page's own script, by hash; WebAssembly for hashing (hash-wasm); workers from the
 * blob: and data: URLs the script makes for its inlined workers; nothing fetched from anywhere.
 * Styles may be inline: the diff view writes its own.
 */
export function exportPolicy(inlineScript: string): string {
  const hash = createHash('sha256').update(inlineScript, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${hash}' 'wasm-unsafe-eval'`,
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function findViewerDir(): string {
  const candidates = ['../export/', '../../export/', '../../dist/export/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, SCRIPT))) ?? candidates[0]!;
}
