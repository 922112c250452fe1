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
    const rows = summary.calls.map((call) => [call.id, call.label, call.subject ?? '', call.status, call.permission ?? '']);
    const padded = 4; // The last column (permission) is not padded.
    // A loop, not Math.max(...rows): a session can have more calls than the stack has room for arguments.
    const widths = [0, 1, 2, 3].map((col) => Math.min(48, rows.reduce((widest, row) => Math.max(widest, row[col]!.length), col === 3 ? 6 : 4)));
    const hasPermissions = summary.calls.some((call) => call.permission !== null);
    const row = (cells: string[]) => {
      const shown = hasPermissions ? cells : cells.slice(0, padded);
      return shown.map((cell, col) => (col < shown.length - 1 ? clip(cell, widths[col]!).padEnd(widths[col]!) : cell)).join('  ');
    };
    lines.push('');
    lines.push(row(['id', 'label', 'subject', 'status', 'permission']));
    summary.calls.forEach((call, index) => {
      lines.push(row(rows[index]!));
      // Under its call, indented: a terminal's output has lines of its own.
      if (call.terminal) {
        const exit = call.terminal.exitCode === null ? 'still running' : `exit ${call.terminal.exitCode}`;
        lines.push(`    terminal (${exit}):`);
        for (const outputLine of terminalTail(call.terminal.output)) lines.push(`    | ${outputLine}`);
      }
    });
  }
  if (summary.diagnostics.length) {
    lines.push('', 'bad lines:');
    for (const bad of summary.diagnostics) lines.push(`  line ${bad.line} (byte ${bad.offset}): ${bad.reason}\n    ${JSON.stringify(bad.excerpt)}`);
  }
  return lines.join('\n');
}

const TERMINAL_LINES = 10;

/** The last lines of a terminal's output: what a person reads first (the error, the summary line). */
function terminalTail(output: string): string[] {
  const outputLines = output.replace(/\r?\n$/, '').split(/\r?\n/);
  if (outputLines.length === 1 && outputLines[0] === '') return [];
  if (outputLines.length <= TERMINAL_LINES) return outputLines;
  return [`… ${outputLines.length - TERMINAL_LINES} earlier lines`, ...outputLines.slice(-TERMINAL_LINES)];
}

function clip(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > width ? `${oneLine.slice(0, width - 1)}…` : oneLine;
}
