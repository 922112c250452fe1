// `loupe diff --md`: two runs compared, short enough for a pull-request comment. Every text from
// the sessions (labels, subjects, ids, file names) is escaped as the md export escapes it. The
// viewer's "Copy report" and "Download .md" make the same report with this function.
import { stepCount, stepsAround, type Comparison, type Step } from '../analysis/compare';
import { formatDuration } from '../analysis/formatDuration';
import { terminalSafe } from '../model/terminalText';
import { cell, clip, codeSpan, inline, redactionNote } from './exportMarkdown';

export interface CompareMarkdownOptions {
  titleA: string;
  titleB: string;
  /** Steps shown on each side of the first divergence. */
  around?: number;
  /** Secrets replaced, by kind, when the runs were read redacted (the report then says so); null when not. */
  redacted?: ReadonlyMap<string, number> | null;
}

/** A run's title in the report: its file's name, without the folders (of a path or a URL). */
export function runTitle(name: string): string {
  return name.split(/[\\/]/).pop() || name;
}

const SUBJECT_CHARS = 80;
const MAX_LABELS = 20;

export function compareMarkdown(comparison: Comparison, a: readonly Step[], b: readonly Step[], options: CompareMarkdownOptions): string {
  const { counts, firstDivergence, alignment } = comparison;
  const out = [`# Runs compared: ${inline(options.titleA)} → ${inline(options.titleB)}`, ''];
  if (options.redacted) out.push(redactionNote(options.redacted), '');
  out.push(
    firstDivergence === null
      ? `**The runs agree throughout** (${stepCount(a.length)}).`
      : `**First divergence at step ${firstDivergence.index + 1}** (A has ${stepCount(a.length)}, B ${b.length}).`,
  );
  out.push('', `matched ${counts.matched} (same ${counts.same}, other status ${counts.status}) · only in A ${counts.onlyA} · only in B ${counts.onlyB}`);
  if (!alignment.exact) out.push('', `More than ${alignment.maxEdits} differences: the runs' common start and end are aligned, the ${alignment.unalignedA} and ${alignment.unalignedB} steps between are not.`);
  if (firstDivergence !== null) {
    out.push('', '| step | A | B |', '| --: | --- | --- |');
    for (const row of stepsAround(a, b, firstDivergence.index, options.around ?? 2)) {
      const mark = row.index === firstDivergence.index;
      out.push(`| ${mark ? `**${row.index + 1}**` : row.index + 1} | ${stepCell(row.a)} | ${stepCell(row.b)} |`);
    }
  }
  if (comparison.labels.length) {
    out.push('', '## Steps by label', '', '| label | A | B | ± | failed A | failed B | time A | time B |', '| --- | --: | --: | --: | --: | --: | --: | --: |');
    for (const row of comparison.labels.slice(0, MAX_LABELS)) {
      const timed = row.durationDifferenceMs !== null;
      out.push(
        `| ${cell(row.label)} | ${row.a.count} | ${row.b.count} | ${signed(row.difference)} | ${row.a.failed} | ${row.b.failed} | ${timed ? formatDuration(row.a.durationMs) : '—'} | ${timed ? formatDuration(row.b.durationMs) : '—'} |`,
      );
    }
    if (comparison.labels.length > MAX_LABELS) out.push('', `… ${comparison.labels.length - MAX_LABELS} more labels (\`loupe diff --json\` lists them all)`);
  }
  return terminalSafe(`${out.join('\n')}\n`);
}

/** In a table: a pipe, even in a code span, would end the cell (GFM), so it is escaped there too. */
function stepCell(step: Step | null): string {
  if (step === null) return '(ended)';
  return `${inline(step.label)}${step.subject ? ` · ${inline(clip(step.subject, SUBJECT_CHARS))}` : ''} · ${step.status} ${codeSpan(clip(step.id, 40)).replace(/\|/g, '\\|')}`;
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}
