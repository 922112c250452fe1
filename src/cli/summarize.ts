// `loupe summarize FILE [--json] [--strict]`: the same ingest and model as the browser, in Node.
import { readCommandArgs } from './args';
import { readSessionFile, whyUnreadable } from './files';
import { summarize, type Session, type Summary } from '../model';
import { ok, type Result } from '../ingest/result';
import { readHead } from './sessions';
import { subagentFilesOf } from './subagentFiles';
import { terminalSafe, terminalSafeJson, terminalSafeLine } from '../model/terminalText';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const USAGE = 'usage: loupe summarize FILE [--json] [--strict]';

const HELP = `${USAGE}

Reads a session file (ACP JSONL, a loupe tee capture, a ledger export, a Zed or JetBrains ACP log,
a Claude Code or Codex log, ...) with the viewer's own ingest and prints its format, line counts
and calls (id, label, subject, status, permission, terminal output).

  --json     everything, as JSON: {format, counts, calls, diagnostics, chain}
  --strict   exit 1, with one line on stderr saying why, when the file is empty, when no line has
             a shape Loupe reads (format unknown), on bad lines, or on a broken ledger chain`;

/** `argv` starts with the command's name, \`summarize\`. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === undefined) {
    if (command === undefined) io.err(USAGE);
    else io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'summarize') {
    io.err(`loupe: unknown command ${command}\n${USAGE}`);
    return 2;
  }
  const parsed = readCommandArgs(rest, io, { command: 'summarize', usage: USAGE, help: HELP }, { json: { type: 'boolean' }, strict: { type: 'boolean' } });
  if (typeof parsed === 'number') return parsed;
  const json = parsed.values.json === true;
  const strict = parsed.values.strict === true;
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    io.err(`loupe summarize: ${file === undefined ? 'no FILE given' : `one FILE at a time, got ${parsed.positionals.length}`}\n${USAGE}`);
    return 2;
  }
  const read = await summarySession(file);
  if (!read.ok) {
    io.err(`loupe summarize: ${terminalSafeLine(read.error)}`);
    return 1;
  }
  const summary = summarize(read.value);
  io.out(json ? terminalSafeJson(JSON.stringify(summary, null, 1)) : formatText(summary));
  if (strict) {
    const failure = strictFailure(summary);
    if (failure !== null) {
      io.err(`loupe summarize: --strict: ${failure}`);
      return 1;
    }
  }
  return 0;
}

/**
 * The session a summary is made of. A Claude Code log with no sub-agents' files is read for its rows
 * alone, through the index's WebAssembly pass (`claudeCodeRowsOfFile`): its summary is the viewer's
 * read's, held equal on every fixture and on generated logs (analysis/claudeCodeRows.test.ts,
 * cli/claudeCodeScanRead.test.ts). Any other file, or where the pass cannot run, as the viewer reads it.
 */
async function summarySession(path: string): Promise<Result<Session>> {
  try {
    if ((await whyUnreadable(path)) === null && (await readHead(path)).format === 'claude-code' && (await subagentFilesOf(path)).length === 0) {
      const { claudeCodeRowsOfFile } = await import('./indexFile');
      const session = claudeCodeRowsOfFile(path);
      if (session !== null) return ok(session);
    }
  } catch {
    // Read again below, which says why it cannot be.
  }
  return readSessionFile(path);
}

/** What makes a session fail `--strict`, in one line: bad lines or a broken ledger chain; null when it passes. */
export function strictFailure(summary: Summary): string | null {
  const reasons: string[] = [];
  const bad = summary.diagnostics;
  // Nothing read is not a session read: a script that asks for --strict wants to know.
  if (summary.counts.lines === 0) reasons.push('the file holds no records (it is empty or blank)');
  else if (summary.format === 'unknown') reasons.push(`no line has a shape Loupe reads (format unknown: ${summary.counts.unknown} unknown, ${summary.counts.bad} bad)`);
  if (summary.counts.bad > 0) {
    const first = bad[0];
    reasons.push(`${summary.counts.bad} bad line${summary.counts.bad === 1 ? '' : 's'}${first ? ` (first: line ${first.line}, ${first.reason})` : ''}`);
  }
  if (summary.chain?.state === 'broken') reasons.push(`the ledger chain is broken at line ${summary.chain.line}: ${summary.chain.reason}`);
  return reasons.length > 0 ? terminalSafeLine(oneLine(reasons.join('; '))) : null;
}

export function formatText(summary: Summary): string {
  const { counts, chain } = summary;
  const lines = [
    // `unknown`: lines were read but none had a known shape; the counts on the next line say what they were.
    `format   ${summary.format === 'unknown' ? 'unknown (no line has a known shape)' : summary.format}`,
    `lines    ${counts.lines}  (events ${counts.events}, unknown ${counts.unknown}, bad ${counts.bad})`,
    `calls    ${summary.calls.length}`,
  ];
  if (chain) lines.push(`chain    ${chain.state === 'intact' ? `intact (${chain.lines} ledger lines)` : `broken at line ${chain.line}: ${terminalSafeLine(chain.reason)}`}`);
  if (summary.calls.length) {
    // Escaped before measuring, so columns line up however many escapes a cell shows.
    const rows = summary.calls.slice(0, MAX_CALLS).map((call) => [call.id, call.label, call.subject ?? '', call.status, call.permission ?? ''].map((cell) => terminalSafe(oneLine(cell))));
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
    summary.calls.slice(0, MAX_CALLS).forEach((call, index) => {
      lines.push(row(rows[index]!));
      // Under its call, indented: a terminal's output has lines of its own. An unfinished call
      // whose command exited says both, in the viewer's words.
      if (call.terminal) {
        const exit = call.note ?? (call.terminal.exitCode === null ? 'still running' : `exit ${call.terminal.exitCode}`);
        lines.push(`    terminal (${exit}):`);
        for (const outputLine of terminalTail(call.terminal.output)) lines.push(`    | ${outputLine.length > OUTPUT_LINE_CHARS ? `${outputLine.slice(0, OUTPUT_LINE_CHARS - 1)}…` : outputLine}`);
      }
    });
    if (summary.calls.length > MAX_CALLS) lines.push(`… ${summary.calls.length - MAX_CALLS} more calls (--json lists them all)`);
  }
  if (summary.diagnostics.length) {
    lines.push('', 'bad lines:');
    for (const bad of summary.diagnostics.slice(0, MAX_BAD)) {
      lines.push(`  line ${bad.line} (byte ${bad.offset}): ${clip(bad.reason, EXCERPT_CHARS)}\n    ${JSON.stringify(clip(bad.excerpt, EXCERPT_CHARS))}`);
    }
    if (summary.diagnostics.length > MAX_BAD) lines.push(`  … ${summary.diagnostics.length - MAX_BAD} more bad lines (--json lists them all)`);
  }
  // Ids, subjects, output and excerpts are the input's: no escape sequence in them reaches the terminal.
  return terminalSafe(lines.join('\n'));
}

// Text output is read by a person (or scrolls past in a CI log): it stays a few screens long
// whatever the input. A binary file has a bad line every few hundred bytes.
const MAX_CALLS = 200;
const MAX_BAD = 10;
const EXCERPT_CHARS = 80;
const OUTPUT_LINE_CHARS = 200;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

const TERMINAL_LINES = 10;

/** The last lines of a terminal's output: what a person reads first (the error, the summary line). */
function terminalTail(output: string): string[] {
  const outputLines = output.replace(/\r?\n$/, '').split(/\r?\n/);
  if (outputLines.length === 1 && outputLines[0] === '') return [];
  if (outputLines.length <= TERMINAL_LINES) return outputLines;
  return [`… ${outputLines.length - TERMINAL_LINES} earlier lines`, ...outputLines.slice(-TERMINAL_LINES)];
}

/** One line of at most `width` characters, its end replaced by … when cut. */
export function clip(text: string, width: number): string {
  const line = oneLine(text);
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
