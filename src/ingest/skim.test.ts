import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonBytes } from './jsonBytes';
import { LineSkimmer, splicedText } from './skim';
import { long, toolUpdate } from './testing/skimSamples';

const encoder = new TextEncoder();
/** What a light read parses of a line: its text with the skimmed strings replaced by `""`. */
function skimmed(line: string) {
  const bytes = encoder.encode(line);
  const skimmer = new LineSkimmer();
  const valid = skimmer.skim(bytes, 0, bytes.length);
  const text = splicedText(bytes, 0, bytes.length, skimmer.spans, new TextDecoder(), { buffer: new Uint8Array(8) });
  return { valid, parents: skimmer.parents, value: valid ? (JSON.parse(text) as unknown) : undefined };
}

describe('LineSkimmer', () => {
  it.each([
    ['JSON-RPC', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: toolUpdate } }, ['params', 'update']],
    ['capture line', { t_ms: 5, dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: toolUpdate } } }, ['msg', 'params', 'update']],
    ['bare {update}', { sessionId: 's', update: toolUpdate }, ['update']],
    ['bare update', toolUpdate, []],
    ['permission request', { jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: { sessionId: 's', toolCall: toolUpdate, options: [] } }, ['params', 'toolCall']],
  ])('leaves out the tool output of a %s, keeping block count and terminal ids', (_, line, parent) => {
    const { valid, parents, value } = skimmed(JSON.stringify(line));
    expect(valid).toBe(true);
    expect(parents).toEqual([parent]);
    let update = value as Record<string, unknown>;
    for (const key of parent) update = update[key] as Record<string, unknown>;
    expect(update.content).toEqual([
      { type: 'content', content: { type: 'text', text: '' } },
      { type: 'terminal', terminalId: long('term') },
      { type: 'diff', path: '/a.ts', oldText: '', newText: '' },
    ]);
    // Left out whole: a light call keeps only that there was raw output.
    expect(update.rawOutput).toBe('');
  });

  it("leaves out a ledger result, and nothing a light read keeps (messages, input, a ledger's args)", () => {
    const ledger = { v: 2, kind: 'tool_result', data: { tool_use_id: 't', result: long('result'), args: { text: long('args') } } };
    expect(skimmed(JSON.stringify(ledger)).value).toEqual({ ...ledger, data: { ...ledger.data, result: '' } });
    const kept = [
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: long('message') } } } },
      { ...toolUpdate, content: undefined, rawOutput: undefined, rawInput: { command: long('input') }, _meta: { note: long('meta') } },
      { v: 2, kind: 'model_returned', data: { message: { content: [{ kind: 'text', text: long('reply') }] } } },
      { items: [{ update: toolUpdate }] },
    ];
    for (const line of kept) expect(skimmed(JSON.stringify(line))).toMatchObject({ valid: true, parents: [], value: JSON.parse(JSON.stringify(line)) as unknown });
  });

  it('agrees with isJsonBytes on whether a line is JSON, for JSON with bytes changed, removed or cut off', () => {
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { update: toolUpdate } });
    const alphabet = ['{', '}', '[', ']', '"', '\\', ',', ':', '-', '0', 'u', ' ', '\t', '\u0001', 'n'];
    fc.assert(
      fc.property(fc.nat(line.length - 1), fc.constantFrom(...alphabet), fc.constantFrom('set', 'delete', 'cut'), fc.nat(7), (at, char, edit, shift) => {
        const text = edit === 'set' ? line.slice(0, at) + char + line.slice(at + 1) : edit === 'delete' ? line.slice(0, at) + line.slice(at + 1) : line.slice(0, at);
        const bytes = encoder.encode(text);
        // The line at every alignment in its buffer, and after other bytes: long strings are read four bytes at a time.
        const buffer = new Uint8Array(bytes.length + 8);
        buffer.set(bytes, shift);
        const view = new Uint8Array(buffer.buffer, shift & 3, bytes.length + 4);
        const start = shift - (shift & 3);
        expect(new LineSkimmer().skim(view, start, start + bytes.length)).toBe(isJsonBytes(bytes));
      }),
      { numRuns: 1500 },
    );
  });
});
