// Reading the loosely typed parts of a call (rawInput, rawOutput, ledger args) for its view.
import type { ContentBlock, TerminalLookup, TerminalState, ToolCall } from '../../model';

export function asRecord(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The call's input: envelope input, else rawInput, else ledger args. */
export function inputOf(call: ToolCall): Record<string, unknown> {
  return asRecord(call.tool?.input) ?? asRecord(call.rawInput) ?? asRecord(call.ledger?.args) ?? {};
}

export function pick(obj: Record<string, unknown> | null, ...keys: string[]): string | undefined {
  if (!obj) return undefined;
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** Text of the call's `content` text blocks, joined. */
export function contentText(call: ToolCall): string {
  const out: string[] = [];
  for (const c of call.content ?? []) {
    if (c.type === 'content' && c.content.type === 'text') out.push(c.content.text);
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

/** Text output carried in rawOutput (or a ledger result), whatever the harness called it. */
export function outputText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const r = asRecord(v);
  if (!r) return undefined;
  const parts: string[] = [];
  for (const k of ['output', 'stdout', 'formatted_output', 'aggregated_output', 'content', 'text', 'result']) {
    const x = r[k];
    if (typeof x === 'string' && x) parts.push(x);
  }
  const err = r.stderr;
  if (typeof err === 'string' && err) parts.push(err);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

export function exitCodeOf(call: ToolCall, terms: TerminalState[]): number | null | undefined {
  for (const src of [asRecord(call.rawOutput), asRecord(call.ledger?.result)]) {
    if (!src) continue;
    for (const k of ['exit_code', 'exitCode', 'code']) {
      const v = src[k];
      if (typeof v === 'number') return v;
    }
  }
  for (const t of terms) if (t.exitCode !== undefined) return t.exitCode;
  return undefined;
}

export function formatDuration(ms: number): string {
  // A duration is a difference of times read from the file: it can be anything.
  if (!Number.isFinite(ms) || ms < 0) return `invalid duration (${String(ms)})`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} min ${s} s`;
}
