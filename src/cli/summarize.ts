// `loupe summarize FILE [--json]`: the same ingest and model as the browser, in Node.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ingest, summarize, type Summary } from '../model';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const USAGE = 'usage: loupe summarize FILE [--json]';

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === undefined) {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'summarize') {
    io.err(`unknown command ${command}\n${USAGE}`);
    return 2;
  }
  const json = rest.includes('--json');
  const files = rest.filter((arg) => !arg.startsWith('--'));
  const file = files[0];
  if (file === undefined || files.length > 1) {
    io.err(USAGE);
    return 2;
  }
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
  } catch {
    io.err(`loupe: cannot read ${file}`);
    return 1;
  }
  // Rows only: the CLI prints no content, so it reads light (see BuilderOptions).
  const session = await ingest(createReadStream(file, { highWaterMark: 1 << 20 }), { detail: 'light' });
  const summary = summarize(session);
  io.out(json ? JSON.stringify(summary, null, 1) : formatText(summary));
  return 0;
}

export function formatText(summary: Summary): string {
  const { counts, chain } = summary;
  const lines = [
    `format   ${summary.format}`,
    `lines    ${counts.lines}  (events ${counts.events}, unknown ${counts.unknown}, bad ${counts.bad})`,
    `calls    ${summary.calls.length}`,
  ];
  if (chain) lines.push(`chain    ${chain.state === 'intact' ? `intact (${chain.lines} ledger lines)` : `broken at line ${chain.line}: ${chain.reason}`}`);
  if (summary.calls.length) {
    const rows = summary.calls.map((call) => [call.id, call.label, call.subject ?? '', call.status]);
    // A loop, not Math.max(...rows): a session can have more calls than the stack has room for arguments.
    const widths = [0, 1, 2].map((col) => Math.min(48, rows.reduce((widest, row) => Math.max(widest, row[col]!.length), 4)));
    lines.push('');
    lines.push(['id', 'label', 'subject', 'status'].map((h, col) => (col < 3 ? h.padEnd(widths[col]!) : h)).join('  '));
    for (const row of rows) {
      lines.push(row.map((cell, col) => (col < 3 ? clip(cell, widths[col]!).padEnd(widths[col]!) : cell)).join('  '));
    }
  }
  if (summary.diagnostics.length) {
    lines.push('', 'bad lines:');
    for (const bad of summary.diagnostics) lines.push(`  line ${bad.line} (byte ${bad.offset}): ${bad.reason}\n    ${JSON.stringify(bad.excerpt)}`);
  }
  return lines.join('\n');
}

function clip(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > width ? `${oneLine.slice(0, width - 1)}…` : oneLine;
}
