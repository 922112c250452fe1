// `loupe diff A B [--json] [--md] [--session ID] [--redact]`: two runs of one task compared step by
// step (src/analysis/compare.ts). Exit 0 when they agree throughout, 1 when they diverge, 2 when an
// input cannot be read: a CI check on an agent's behaviour.
import { compareRuns, DEFAULT_MAX_EDITS, runSession, stepCount, stepsAround, stepsOfSession, type Comparison, type RunStep, type Step } from '../analysis/compare';
import { formatDuration } from '../analysis/formatDuration';
import { fail, ok, type Result } from '../ingest/result';
import { terminalSafe, terminalSafeJson, terminalSafeLine } from '../model/terminalText';
import { compareMarkdown, runTitle, signed } from '../share/compareMarkdown';
import { exportJsonl } from '../share/exportJsonl';
import { countKinds, redactionNote } from '../share/exportMarkdown';
import { readCommandArgs } from './args';
import { lineList, readSessionFile } from './files';
import { clip, type CliIo } from './summarize';

const USAGE = 'usage: loupe diff A B [--json] [--md] [--session ID] [--redact]';

const HELP = `${USAGE}

Compares two runs of one task step by step: each run's steps are its calls in the order
\`loupe summarize\` lists them, a step known by its label and subject. Prints where the runs
first part (the first step that differs in label, subject or status, or where one run ended)
with the steps around it, how many steps a longest alignment of the two matches, and each label's
counts, failures and times in each run.

  --json         {firstDivergence, counts, pairs, labels}: firstDivergence null or {index, a, b}
                 (a step is {id, label, subject, status}; null where that run had ended), counts
                 {matched, same, status, onlyA, onlyB}, pairs [{a: id|null, b: id|null, change}]
                 with change same|status|only-a|only-b; an "alignment" key is added only when
                 the runs differ in more than ${DEFAULT_MAX_EDITS} steps and are aligned by their common start and end
  --md           a short report for a pull-request comment
  --session ID   compare the session ID of each file (default: of a file of several, the first
                 that has calls)
  --redact       read both runs with every secret found (keys, tokens, passwords) replaced by its
                 kind, as \`loupe export --redact\` does, before comparing: a subject that held a
                 secret shows ‹kind› instead (two that differed only in it then agree); the report
                 says what was replaced (--json adds "redacted": {kind: count}; stderr lists it)

Exit status: 0 the runs agree throughout, 1 they diverge, 2 an input cannot be read.`;

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(argv, io, { command: 'diff', usage: USAGE, help: HELP }, { json: { type: 'boolean' }, md: { type: 'boolean' }, session: { type: 'string' }, redact: { type: 'boolean' } });
  if (typeof parsed === 'number') return parsed;
  const { json, md, session: sessionId, redact } = parsed.values;
  const [fileA, fileB, ...extra] = parsed.positionals;
  const wrong = fileB === undefined || extra.length > 0 ? `two files to compare, got ${parsed.positionals.length}` : json && md ? '--json or --md, not both' : null;
  if (wrong !== null || fileA === undefined || fileB === undefined) {
    io.err(`loupe diff: ${wrong}\n${USAGE}`);
    return 2;
  }
  const runs: RunStep[][] = [];
  // Secrets replaced, by file, when read with --redact; null when not.
  const findings: { run: 0 | 1; line: number; kind: string }[] | null = redact === true ? [] : null;
  for (const [run, file] of [fileA, fileB].entries()) {
    const steps = await stepsOfFile(file, sessionId, findings && ((line, kind) => void findings.push({ run: run === 0 ? 0 : 1, line, kind })));
    if (!steps.ok) {
      io.err(`loupe diff: ${terminalSafeLine(steps.error)}`);
      return 2;
    }
    runs.push(steps.value);
  }
  const [a = [], b = []] = runs;
  const comparison = compareRuns(a, b);
  const redacted = findings && countKinds(findings);
  if (json) io.out(terminalSafeJson(JSON.stringify({ ...jsonOf(comparison, a, b), ...(redacted ? { redacted: Object.fromEntries(redacted) } : {}) }, null, 1)));
  else if (md) io.out(compareMarkdown(comparison, a, b, { titleA: runTitle(fileA), titleB: runTitle(fileB), redacted }).replace(/\n$/, ''));
  else io.out(formatText(comparison, a, b, fileA, fileB) + (redacted ? `\n\n${terminalSafe(redactionNote(redacted))}` : ''));
  if (!comparison.alignment.exact && json) io.err(`loupe diff: ${boundedNote(comparison)}`);
  if (findings) io.err(`loupe diff: ${findingsByRun(findings)}`);
  return comparison.firstDivergence === null ? 0 : 1;
}

/** A file's steps, of the session asked for or its first; or why they cannot be had. `onFinding`: read redacted. */
async function stepsOfFile(file: string, sessionId: string | undefined, onFinding: ((line: number, kind: string) => void) | null): Promise<Result<RunStep[]>> {
  // Redacted, the file is read as `loupe export --redact` writes it.
  const read = await readSessionFile(file, onFinding ? (bytes) => exportJsonl(bytes, { redact: true, onFinding }) : undefined);
  if (!read.ok) return read;
  const session = read.value;
  if (session.counts.lines === 0) return fail(`${file} holds no records (it is empty or blank)`);
  if (session.format === 'unknown') return fail(`${file}: no line has a shape Loupe reads (${session.counts.unknown} unknown, ${session.counts.bad} bad)`);
  if (sessionId !== undefined && !session.sessionIds.includes(sessionId)) return fail(`${file} has no session ${sessionId ?? ''}; it has ${session.sessionIds.length ? session.sessionIds.join(', ') : 'no session ids'}`);
  return ok(stepsOfSession(session, runSession(session.sessionIds, [...session.calls.values()].map((call) => call.sessionId), sessionId)));
}

/** What --redact replaced in each run, with the first lines, so a person can check before sharing. */
function findingsByRun(findings: readonly { run: 0 | 1; line: number; kind: string }[]): string {
  if (!findings.length) return 'no secrets found';
  const lines = [`replaced ${findings.length} secret${findings.length === 1 ? '' : 's'}`];
  for (const [run, name] of ['A', 'B'].entries()) {
    const own = findings.filter((finding) => finding.run === run);
    if (!own.length) continue;
    lines.push(`  ${name}: ${own.length} (${[...countKinds(own)].map(([kind, count]) => `${kind} ${count}`).join(', ')}; ${lineList(own.map((finding) => finding.line))})`);
  }
  return lines.join('\n');
}

function jsonOf(comparison: Comparison, a: readonly Step[], b: readonly Step[]) {
  const { firstDivergence, counts, pairs, labels, alignment } = comparison;
  return {
    firstDivergence,
    counts,
    pairs: pairs.map((pair) => ({ a: pair.a === null ? null : a[pair.a]!.id, b: pair.b === null ? null : b[pair.b]!.id, change: pair.change })),
    labels,
    ...(alignment.exact ? {} : { alignment }),
  };
}

function boundedNote(comparison: Comparison): string {
  const { alignment } = comparison;
  return alignment.exact ? '' : `the runs differ in more than ${alignment.maxEdits} steps: their common start and end are aligned, the ${alignment.unalignedA} (A) and ${alignment.unalignedB} (B) steps between are not`;
}

const AROUND = 3;
const STEP_CHARS = 56;

export function formatText(comparison: Comparison, a: readonly Step[], b: readonly Step[], fileA: string, fileB: string): string {
  const { counts, firstDivergence, alignment } = comparison;
  const lines = [`A  ${fileA}  (${stepCount(a.length)})`, `B  ${fileB}  (${stepCount(b.length)})`, ''];
  if (firstDivergence === null) lines.push('the runs agree throughout');
  else {
    lines.push(`first divergence at step ${firstDivergence.index + 1}:`, '');
    const rows = stepsAround(a, b, firstDivergence.index, AROUND);
    const number = String(rows.at(-1)?.index ?? 0).length + 1;
    lines.push(`  ${'step'.padStart(number + 3)}  ${'A'.padEnd(STEP_CHARS)}  B`);
    for (const row of rows) {
      const mark = row.index === firstDivergence.index ? '>' : ' ';
      lines.push(`  ${mark} ${String(row.index + 1).padStart(number + 1)}  ${stepText(row.a).padEnd(STEP_CHARS)}  ${stepText(row.b)}`);
    }
  }
  lines.push('', `matched  ${counts.matched}  (same ${counts.same}, other status ${counts.status})`, `only A   ${counts.onlyA}`, `only B   ${counts.onlyB}`);
  if (!alignment.exact) lines.push(`note: ${boundedNote(comparison)}`);
  if (comparison.labels.length) {
    const header = ['label', 'A', 'B', '±', 'failed A', 'failed B', 'time A', 'time B'];
    const rows = comparison.labels.map((row) => {
      const timed = row.durationDifferenceMs !== null;
      return [clip(terminalSafeLine(row.label), 24), String(row.a.count), String(row.b.count), signed(row.difference), String(row.a.failed), String(row.b.failed), timed ? formatDuration(row.a.durationMs) : '—', timed ? formatDuration(row.b.durationMs) : '—'];
    });
    const widths = header.map((title, col) => rows.reduce((widest, row) => Math.max(widest, row[col]!.length), title.length));
    const line = (cells: string[]) => cells.map((text, col) => (col === 0 ? text.padEnd(widths[col]!) : text.padStart(widths[col]!))).join('  ');
    lines.push('', line(header), ...rows.map(line));
  }
  // Labels, subjects and ids are the input's: no escape sequence in them reaches the terminal.
  return terminalSafe(lines.join('\n'));
}

function stepText(step: Step | null): string {
  if (step === null) return '(ended)';
  // Escaped before clipping, so the column is as wide as what the terminal shows; the status is never cut.
  return `${clip(terminalSafeLine(`${step.label}${step.subject === null ? '' : ` ${step.subject}`}`), STEP_CHARS - step.status.length - 2)}  ${step.status}`;
}
