// What the free-text search reads of a call: its names and, since issue 8, its input and output
// (rawInput, rawOutput, content, terminal output, a ledger call's args and result). One
// definition for the viewer's store and for the worker searching what a light read left in the file.
import { isToolCall, type CallSummary, type TerminalLookup } from './types';

/** Every string (and number) in a JSON value, in order; an explicit stack, so a deep value cannot overflow. */
function pushStrings(value: unknown, parts: string[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') parts.push(next);
    else if (typeof next === 'number' || typeof next === 'boolean') parts.push(String(next));
    else if (Array.isArray(next)) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
    else if (next !== null && typeof next === 'object') {
      // A block's `type` tag (`text`, `diff`, …) is structure, not something a person searches for.
      const entries = Object.entries(next as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) if (entries[i]![0] !== 'type') stack.push(entries[i]![1]);
    }
  }
}

/** The lower-cased text a search string is looked for in. */
export function callSearchText(call: CallSummary, terminals: TerminalLookup): string {
  const parts: string[] = [call.label, call.subject ?? '', call.title ?? '', call.id, call.name ?? ''];
  const terminalIds = new Set(call.terminalIds);
  // A row of a light read has only its names: the worker searches what it left in the file.
  if (isToolCall(call)) {
    parts.push(call.ledger?.name ?? '');
    pushStrings(call.rawInput, parts);
    pushStrings(call.rawOutput, parts);
    pushStrings(call.tool?.input, parts);
    pushStrings(call.content, parts);
    pushStrings(call.ledger?.args, parts);
    pushStrings(call.ledger?.result, parts);
    pushStrings(call.ledger?.error, parts);
    for (const location of call.locations ?? []) parts.push(location.path);
    for (const block of call.content ?? []) if (block.type === 'terminal') terminalIds.add(block.terminalId);
  }
  for (const terminalId of terminalIds) {
    const terminal = terminals.get(terminalId);
    if (terminal) parts.push(terminal.command ?? '', terminal.output);
  }
  return parts.join('\n').toLowerCase();
}
