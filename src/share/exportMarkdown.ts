// The md export, the CLI's and the viewer's: a session as a person reads it in a pull request or an
// issue comment — its turns, its calls by label, and each failure with an excerpt of what it printed.
import { summarize, type SummaryCall } from '../model/summary';
import type { Session } from '../model/session';
import { terminalSafe } from '../model/terminalText';
import type { FileNotes, ToolCall } from '../model/types';

export interface MarkdownOptions {
  title: string;
  /** Secrets replaced, by kind, when the session was redacted; null when it was not. */
  redacted: Map<string, number> | null;
  /** Notes and bookmarks a person wrote on calls (the viewer's), by call key. */
  notes?: FileNotes;
}

const PROMPT_CHARS = 160;
const EXCERPT_LINES = 15;
const EXCERPT_CHARS = 2_000;

export function sessionMarkdown(session: Session, options: MarkdownOptions): string {
  const summary = summarize(session);
  // summarize() lists the calls in the session's order: the i-th summary is the i-th call (an id
  // an agent reused names two calls, so calls are paired by place, not looked up by id).
  const calls = [...session.calls.values()];
  const failures = summary.calls.flatMap((failure, index) => (failure.status === 'failed' ? [{ failure, call: calls[index] }] : []));
  const out: string[] = [`# ${inline(options.title)}`, ''];
  out.push(`${summary.format} · ${summary.counts.lines} lines · ${summary.calls.length} tool calls · ${failures.length} failed`);
  if (options.redacted) out.push('', redactionNote(options.redacted));
  if (summary.chain?.state === 'broken') out.push('', `Ledger chain broken at line ${summary.chain.line}: ${inline(summary.chain.reason)}`);

  const turns = turnsOf(session);
  if (turns.length) {
    out.push('', '## Turns', '');
    turns.forEach((turn, index) => {
      // end_turn, max_tokens… as they are; anything else an agent sent is text like any other.
      const end = turn.stopReason ? `, ${/^[\w-]+$/.test(turn.stopReason) ? turn.stopReason : inline(turn.stopReason)}` : '';
      out.push(`${index + 1}. ${turn.prompt ? `“${inline(clip(turn.prompt, PROMPT_CHARS))}”` : '(no prompt)'}: ${turn.calls} calls${turn.failed ? ` (${turn.failed} failed)` : ''}${end}`);
    });
  }

  if (summary.calls.length) {
    out.push('', '## Calls by label', '', '| label | calls | failed | unfinished |', '| --- | --: | --: | --: |');
    const byLabel = new Map<string, SummaryCall[]>();
    for (const call of summary.calls) {
      const sameLabel = byLabel.get(call.label);
      if (sameLabel) sameLabel.push(call);
      else byLabel.set(call.label, [call]);
    }
    for (const [label, calls] of [...byLabel].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
      const count = (status: string) => calls.filter((call) => call.status === status).length;
      out.push(`| ${cell(label)} | ${calls.length} | ${count('failed')} | ${count('unfinished')} |`);
    }
  }

  const noted = Object.entries(options.notes ?? {}).flatMap(([key, note]) => {
    const call = session.calls.get(key);
    return call ? [{ call, note }] : [];
  });
  if (noted.length) {
    out.push('', '## Notes', '');
    for (const { call, note } of noted.sort((a, b) => a.call.ordinal - b.call.ordinal)) {
      const text = note.text.trim() ? `: ${inline(note.text)}` : '';
      out.push(`- ${note.bookmarked ? '★ ' : ''}${inline(call.label)}${call.subject ? ` · ${inline(clip(call.subject, 120))}` : ''} (call ${codeSpan(call.id)}, line ${call.firstLine})${text}`);
    }
  }

  if (failures.length) {
    out.push('', '## Failures');
    failures.forEach(({ failure, call }) => {
      out.push('', `### ${inline(failure.label)}${failure.subject ? ` · ${inline(clip(failure.subject, 120))}` : ''}`, '');
      out.push(`call ${codeSpan(failure.id)}${call ? `, line ${call.firstLine}` : ''}${failure.note ? ` · ${inline(failure.note)}` : ''}`);
      const excerpt = failure.terminal?.output || (call ? outputText(call) : '');
      if (excerpt) out.push('', ...fenced(tail(excerpt)));
    });
  }
  // Printed with cat, the md must not drive the terminal: every control character left in the
  // session's text (OSC 52 clipboard writes, titles, CSI, their 8-bit forms) is shown escaped.
  return terminalSafe(`${out.join('\n')}\n`);
}

interface Turn {
  prompt: string | null;
  calls: number;
  failed: number;
  stopReason: string | null;
}

/** A turn runs from a user message to the turn's end (or the next user message). */
function turnsOf(session: Session): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | null = null;
  for (const item of session.items) {
    if (item.type === 'message' && item.role === 'user') {
      current = { prompt: item.text, calls: 0, failed: 0, stopReason: null };
      turns.push(current);
    } else if (item.type === 'call') {
      if (!current) turns.push((current = { prompt: null, calls: 0, failed: 0, stopReason: null }));
      current.calls++;
      if (session.calls.get(item.callKey)?.status === 'failed') current.failed++;
    } else if (item.type === 'turn_end' && current) {
      current.stopReason = item.stopReason;
      current = null;
    }
  }
  return turns;
}

/** What a call returned, as text: its text content, else its raw output or ledger error. */
function outputText(call: ToolCall): string {
  const texts = (call.content ?? []).flatMap((block) => (block.type === 'content' && block.content.type === 'text' ? [block.content.text] : []));
  if (texts.length) return texts.join('\n');
  const raw = call.rawOutput ?? call.ledger?.error ?? call.ledger?.result;
  if (raw === undefined || raw === null) return '';
  return typeof raw === 'string' ? raw : JSON.stringify(raw, null, 1);
}

// Built from strings: the characters a terminal reads as escapes are what these match.
const ANSI_SEQUENCE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
const CONTROL_CHARACTER = new RegExp(`[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(11)}-${String.fromCharCode(31)}${String.fromCharCode(127)}]`, 'g');

function tail(text: string): string {
  // Terminal colours and control characters mean nothing in a code block.
  const plain = text.replace(ANSI_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTER, '');
  const lines = plain.replace(/\n+$/, '').split('\n');
  const kept = lines.length > EXCERPT_LINES ? [`… ${lines.length - EXCERPT_LINES} earlier lines`, ...lines.slice(-EXCERPT_LINES)] : lines;
  const joined = kept.join('\n');
  return joined.length > EXCERPT_CHARS ? `…${joined.slice(-EXCERPT_CHARS)}` : joined;
}

/** A code block whose fence is longer than any run of backticks in it, so nothing can close it early. */
function fenced(text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}text`, text, fence];
}

/**
 * One line of text that markdown shows as it is: no markup, no HTML, no line breaks, and no
 * @mention (GitHub would notify @name or @org/team when the md is pasted into a pull request): a
 * word joiner after the @ reads the same but links no one. Code spans and blocks mention nobody.
 */
export function inline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>#|~!]/g, (char) => `\\${char}`)
    .replace(/@(?=[A-Za-z0-9])/g, '@\u2060');
}

/** An id as code, on its line: a backtick or a line break in it cannot end the span or the line. */
export function codeSpan(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;
}

export function cell(text: string): string {
  return inline(text) || ' ';
}

export function clip(text: string, chars: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > chars ? `${oneLine.slice(0, chars - 1)}…` : oneLine;
}

/** The line a redacted export (md, html) carries: how many secrets of each kind were replaced. */
export function redactionNote(redacted: ReadonlyMap<string, number>): string {
  const total = [...redacted.values()].reduce((sum, count) => sum + count, 0);
  const kinds = [...redacted].map(([kind, count]) => `${count} ${kind}`).join(', ');
  return total ? `Redacted: ${total} secrets (${kinds}), each shown as ‹kind›.` : 'Redacted: no secrets were found.';
}

/** How many secrets of each kind were replaced: what the markdown export's redaction line says. */
export function countKinds(findings: Iterable<{ kind: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { kind } of findings) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** A file's name without its folder and its session extension: what titles and downloads are named after. */
export function baseName(name: string): string {
  const last = name.split(/[\\/]/).pop() || 'session';
  return last.replace(/\.(jsonl|json|ndjson|log|txt)$/i, '') || 'session';
}
