// What a call's view shows of its content blocks and terminals. (Its input and output fields are
// read in the model: src/model/inputs.ts.)
import type { ContentBlock, TerminalLookup, TerminalState, ToolCall } from '../../model';
import { reportedExitCode } from '../../model/inputs';

/**
 * A text that is one fenced code block and nothing else, as its content: claude-agent-acp sends a
 * command's output as "```console\n…\n```" (and a read file, an error as "```\n…\n```"), and
 * these views draw text as it is, so the fences would show. The closing fence is the opening one's
 * run (the adapter makes it longer than any run of backticks inside); anything else is left as it is.
 */
export function unfenced(text: string): string {
  const m = /^(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)\n?\1[ \t]*\n?$/.exec(text);
  if (!m) return text;
  const [, fence = '', inner = ''] = m;
  // A line of the fence's own run inside would have closed it: then the text is not one block.
  return inner.split('\n').some((line) => line.trimEnd() === fence) ? text : inner;
}

/** Text of the call's `content` text blocks, joined (each block's fences taken off, see `unfenced`). */
export function contentText(call: ToolCall): string {
  const out: string[] = [];
  for (const c of call.content ?? []) {
    if (c.type === 'content' && c.content.type === 'text') out.push(unfenced(c.content.text));
    else if (c.type === 'content' && c.content.type === 'resource' && typeof c.content.resource.text === 'string') out.push(c.content.resource.text);
  }
  return out.join('\n');
}

export function nonTextBlocks(call: ToolCall): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const c of call.content ?? []) if (c.type === 'content' && c.content.type !== 'text') out.push(c.content);
  return out;
}

export function terminalsOf(call: ToolCall, terminals: TerminalLookup): TerminalState[] {
  const out: TerminalState[] = [];
  for (const c of call.content ?? []) {
    if (c.type !== 'terminal') continue;
    const t = terminals.get(c.terminalId);
    if (t) out.push(t);
    else out.push({ terminalId: c.terminalId, output: '', truncated: false });
  }
  return out;
}

/**
 * The exit code as `loupe summarize --json` gives it (CONTRACTS §11): a terminal's exit status,
 * else what the call's result recorded (an output's `Exit code 2` included), else what its output
 * object reports.
 */
export function exitCodeOf(call: ToolCall, terms: TerminalState[]): number | null | undefined {
  for (const t of terms) if (t.exitCode !== undefined) return t.exitCode;
  if (call.exitCode !== undefined) return call.exitCode;
  return reportedExitCode(call);
}
