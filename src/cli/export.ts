// `loupe export FILE --format jsonl|html|md [--redact] [--out OUT]`: a session made ready to share.
// Redaction happens on the records as they are read, before any format is made from them, so no
// format can show what it missed: md and html are made from the redacted records.
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { createBLAKE3 } from 'hash-wasm';
import { ingest } from '../model';
import type { FileNotes } from '../model/types';
import { exportJsonl } from '../share/exportJsonl';
import { fileChunks } from './fileChunks';
import { notesForExport, parseSidecar } from '../share/exportNotes';
import { countKinds, sessionMarkdown } from '../share/exportMarkdown';
import type { HtmlPageOptions } from '../share/exportHtml';
import { readCommandArgs } from './args';
import { lineList, whyUnreadable } from './files';
import { readFailure } from './listable';
import { subagentFilesOf, withSubagentBytes } from './subagentFiles';
import type { CliIo } from './summarize';

const USAGE = 'usage: loupe export FILE --format jsonl|html|md [--redact] [--notes NOTES.json] [--out OUT]';

const HELP = `${USAGE}

  --format jsonl   the records as read, in the same format (reads back as the same calls)
  --format md      a summary for a pull request or issue: turns, calls by label, failures
  --format html    one self-contained page, viewer and session inside, that opens offline
  --redact         replace every secret found (keys, tokens, private keys, passwords) by its
                   kind, e.g. ‹aws-access-key›; what was replaced is listed on stderr
  --notes FILE     notes on calls (a sidecar the viewer's Export notes wrote for this file),
                   put in an html or md export; redacted with the records under --redact
  --out OUT        write to OUT (default: stdout)`;


export interface ExportDeps {
  /** Makes the html page, in parts, from the (redacted) records; exportHtml.ts by default. */
  htmlPage?: (records: Uint8Array, options: HtmlPageOptions) => Promise<string[]>;
}

/** A secret replaced: where, and of what kind. */
export interface Finding {
  line: number;
  kind: string;
  /** In a note on the call at `line`, not in the records. */
  inNote?: boolean;
}

export async function main(argv: readonly string[], io: CliIo, deps: ExportDeps = {}): Promise<number> {
  const parsed = readCommandArgs(argv, io, { command: 'export', usage: USAGE, help: HELP }, { format: { type: 'string' }, redact: { type: 'boolean' }, notes: { type: 'string' }, out: { type: 'string' } });
  if (typeof parsed === 'number') return parsed;
  const format = parsed.values.format;
  const [file, ...extra] = parsed.positionals;
  const wrong =
    file === undefined ? 'no FILE given'
    : extra.length ? `one FILE at a time, got ${parsed.positionals.length}`
    : format === undefined ? '--format is needed'
    : format !== 'jsonl' && format !== 'html' && format !== 'md' ? `--format is jsonl, html or md, not ${format}`
    : null;
  if (wrong !== null || file === undefined) {
    io.err(`loupe export: ${wrong}\n${USAGE}`);
    return 2;
  }
  const unreadable = await whyUnreadable(file);
  if (unreadable !== null) {
    io.err(`loupe export: ${unreadable}`);
    return 1;
  }
  if (parsed.values.notes !== undefined && format === 'jsonl') {
    io.err(`loupe export: --notes goes into an html or md export, not jsonl\n${USAGE}`);
    return 2;
  }
  let notes: FileNotes | undefined;
  if (parsed.values.notes !== undefined) {
    try {
      notes = await notesOfFile(parsed.values.notes, file);
    } catch (error) {
      io.err(`loupe export: ${parsed.values.notes}: ${(error as Error).message}`);
      return 1;
    }
  }
  const redact = parsed.values.redact === true;
  const outPath = parsed.values.out;
  let out: NodeJS.WritableStream & { destroy?: () => void } = process.stdout;
  if (outPath !== undefined) {
    try {
      out = await openForWriting(outPath);
    } catch (error) {
      io.err(`loupe export: cannot write ${outPath} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      return 1;
    }
  }
  const findings: Finding[] = [];
  const skipped: number[] = [];

  try {
    if (format === 'jsonl') {
      for await (const chunk of exportRecords(file, redact, findings, skipped)) await write(out, chunk);
    } else {
      const parts: Uint8Array[] = [];
      for await (const chunk of exportRecords(file, redact, findings, skipped)) parts.push(chunk);
      const records = Buffer.concat(parts);
      const title = basename(file);
      // The notes that go in are those on calls the export holds, so the records are read for them.
      // html needs only which calls there are (light: no output kept); md shows failures' output.
      const session = format === 'md' || notes ? await ingest(records, { detail: format === 'md' ? 'full' : 'light' }) : null;
      const shownNotes =
        notes && session ? await notesForExport(notes, session, redact, (key, kind) => void findings.push({ line: session.calls.get(key)?.firstLine ?? 0, kind, inNote: true })) : undefined;
      if (session && format === 'md') {
        await write(out, sessionMarkdown(session, { title, redacted: redact ? countKinds(findings) : null, ...(shownNotes ? { notes: shownNotes } : {}) }));
      } else {
        const page = deps.htmlPage ?? (await import('./exportHtml')).htmlPage;
        const options = { title, redacted: redact ? countKinds(findings) : null, ...(shownNotes ? { notes: shownNotes } : {}) };
        for (const part of await page(records, options)) await write(out, part);
      }
    }
    if (out !== process.stdout) await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  } catch (error) {
    // One line, as for a missing file: the session became unreadable while it was read, OUT cannot
    // be written, or the html export's viewer is not there. A half-written OUT is not left behind.
    const path = (error as NodeJS.ErrnoException | null)?.path;
    const why = path === file ? readFailure(file, error) : path !== undefined && path === outPath ? `cannot write ${outPath} (${(error as NodeJS.ErrnoException).code ?? 'error'})` : error instanceof Error ? error.message : String(error);
    io.err(`loupe export: ${why}`);
    if (out !== process.stdout) {
      out.destroy?.();
      await rm(outPath!, { force: true }).catch(() => undefined);
    }
    return 1;
  }

  for (const line of skipped) io.err(`loupe export: line ${line} is too long to read and was left out`);
  if (redact) io.err(findingsReport(findings));
  return 0;
}

/** A sidecar's notes, refused when they were written on another file (its BLAKE3, as the viewer keys them). */
async function notesOfFile(notesFile: string, file: string): Promise<FileNotes> {
  let text: string;
  try {
    text = await readFile(notesFile, 'utf8');
  } catch {
    throw new Error('cannot read it');
  }
  const sidecar = parseSidecar(text);
  const hasher = await createBLAKE3();
  // What the viewer keyed them by: the session as `loupe open` reads it, its sub-agents' files after it.
  for await (const chunk of await sessionBytes(file)) hasher.update(chunk);
  if (hasher.digest('hex') !== sidecar.contentHash) throw new Error(`these notes were written on another file, not ${basename(file)}`);
  return sidecar.notes;
}

/**
 * The file's records, line by line, each redacted where asked. A line with nothing to replace is
 * written as its exact bytes; a redacted one differs only inside the strings that held a secret.
 */
async function* exportRecords(file: string, redact: boolean, findings: Finding[], skipped: number[]): AsyncGenerator<Uint8Array> {
  yield* exportJsonl(await sessionBytes(file), {
    redact,
    onFinding: (line, kind) => void findings.push({ line, kind }),
    onSkipped: (line) => void skipped.push(line),
  });
}

const REPORTED_LINES = 10;

/** What was replaced, by kind, with the first lines it was on, so a person can check before sharing. */
function findingsReport(findings: readonly Finding[]): string {
  if (!findings.length) return 'loupe export: no secrets found';
  const lines = [`loupe export: replaced ${findings.length} secrets`];
  const byKind = new Map<string, number[]>();
  for (const finding of findings) {
    const at = byKind.get(finding.kind);
    if (at) at.push(finding.line);
    else byKind.set(finding.kind, [finding.line]);
  }
  const inNotes = findings.filter((finding) => finding.inNote).length;
  if (inNotes) lines[0] += ` (${inNotes} in notes)`;
  for (const [kind, at] of byKind) lines.push(`  ${kind}: ${at.length} (${lineList(at, REPORTED_LINES)})`);
  return lines.join('\n');
}

/** OUT opened (created or truncated), or the reason it cannot be; later errors come through each write's callback. */
function openForWriting(path: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(path);
    stream.once('error', reject);
    stream.once('ready', () => {
      stream.off('error', reject);
      // Reported by the write or end that met it; without a listener the stream would throw it.
      stream.on('error', () => undefined);
      resolve(stream);
    });
  });
}

function write(out: NodeJS.WritableStream, data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

/** A session file's bytes, a Claude Code session's sub-agent files after it (CONTRACTS §11), as `loupe open` joins them. */
async function sessionBytes(file: string): Promise<AsyncIterable<Uint8Array>> {
  const subagents = await subagentFilesOf(file);
  return subagents.length > 0 ? withSubagentBytes(file, subagents) : fileChunks(file);
}
