// The html export's Node side: the viewer it carries is read from the built files (dist/export,
// which `npm run build` writes from vite.export.config.ts); the page itself is made by share/exportHtml.ts, as in the viewer.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlPage as modelHtmlPage, type ExportViewer, type HtmlPageOptions } from '../share/exportHtml';

const SCRIPT = 'standalone.js';
const STYLE = 'standalone.css';

export async function readExportViewer(viewerDir = findViewerDir()): Promise<ExportViewer> {
  try {
    const [script, style] = await Promise.all([readFile(join(viewerDir, SCRIPT), 'utf8'), readFile(join(viewerDir, STYLE), 'utf8')]);
    return { script, style };
  } catch {
    throw new Error(`the viewer for html exports is not built (${join(viewerDir, SCRIPT)}): run npm run build`);
  }
}

export async function htmlPage(records: Uint8Array, options: HtmlPageOptions, viewerDir?: string): Promise<string[]> {
  return modelHtmlPage(records, await readExportViewer(viewerDir), options);
}

function findViewerDir(): string {
  const candidates = ['../export/', '../../export/', '../../dist/export/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, SCRIPT))) ?? candidates[0]!;
}
