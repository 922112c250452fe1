import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonBytes } from '../jsonBytes';
import { LineSkimmer, type Skimmer } from '../skim';
import { long, toolUpdate as plainUpdate } from '../testing/skimSamples';
import { lightSkimmer, WasmLineSkimmer } from './wasmSkimmer';

const encoder = new TextEncoder();
// Beside the plain sample: text that is not ASCII, escapes, and every kind of JSON value in the raw output.
const toolUpdate = {
  ...plainUpdate,
  content: [...plainUpdate.content, { type: 'content', content: { type: 'text', text: long('é ✓ 😀 "quoted"\\ \n\u0001') } }],
  rawOutput: { ...plainUpdate.rawOutput, nested: [[[{}]], -1.5e3, true, false, null] },
};

const lines = [
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: toolUpdate } },
  { t_ms: 5, dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: toolUpdate } } },
  { sessionId: 's', update: toolUpdate },
  toolUpdate,
  { jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: { sessionId: 's', toolCall: toolUpdate, options: [] } },
  { v: 2, kind: 'tool_result', data: { tool_use_id: 't', result: long('result'), args: { text: long('args') } } },
  { v: 2, kind: 'tool_result', data: { tool_use_id: 't', result: { blocks: [long('a'), long('b')] } } },
  { '\u00e9\u5b57': { update: toolUpdate }, params: { update: { ...toolUpdate, rawOutput: long('raw') } } },
].map((line) => JSON.stringify(line));

function skimWith(skimmer: Skimmer, bytes: Uint8Array, start: number, end: number) {
  const valid = skimmer.skim(bytes, start, end);
  return valid ? { valid, spans: [...skimmer.spans], parents: skimmer.parents.map((path) => [...path]) } : { valid };
}

describe('the WebAssembly skimmer', () => {
  const wasm = WasmLineSkimmer.create();

  it('runs in Node, and a light read uses it unless told to use the JS one', () => {
    expect(wasm).not.toBeNull();
    expect(lightSkimmer().kind).toBe('wasm');
    expect(lightSkimmer('js').kind).toBe('js');
  });

  it('leaves out the same strings as the JS skimmer, at any place in its buffer', () => {
    fc.assert(
      fc.property(fc.constantFrom(...lines), fc.nat(40), fc.nat(40), (line, before, after) => {
        const bytes = encoder.encode(line);
        const buffer = new Uint8Array(before + bytes.length + after).fill(0x22);
        buffer.set(bytes, before);
        const expected = skimWith(new LineSkimmer(), buffer, before, before + bytes.length);
        expect(expected.valid).toBe(true);
        expect(expected.spans?.length).toBeGreaterThan(0);
        expect(skimWith(wasm!, buffer, before, before + bytes.length)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with the JS skimmer on JSON with bytes changed, removed or cut off', () => {
    const alphabet = ['{', '}', '[', ']', '"', '\\', ',', ':', '-', '0', 'u', ' ', '\t', '\u0001', 'n', 't', 'e', '.', 'é'];
    fc.assert(
      fc.property(fc.constantFrom(...lines), fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('set', 'delete', 'cut'), (line, seed, char, edit) => {
        const at = seed % line.length;
        const text = edit === 'set' ? line.slice(0, at) + char + line.slice(at + 1) : edit === 'delete' ? line.slice(0, at) + line.slice(at + 1) : line.slice(0, at);
        const bytes = encoder.encode(text);
        const expected = skimWith(new LineSkimmer(), bytes, 0, bytes.length);
        expect(expected.valid).toBe(isJsonBytes(bytes));
        expect(skimWith(wasm!, bytes, 0, bytes.length)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a line that is not valid UTF-8, which the caller then reads whole', () => {
    const line = encoder.encode(lines[0]);
    const at = line.indexOf(encoder.encode('output')[0]!, line.indexOf(encoder.encode('content')[0]!));
    for (const bad of [[0xff], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc3], [0xe2, 0x9c]]) {
      const bytes = new Uint8Array([...line.subarray(0, at), ...bad, ...line.subarray(at)]);
      expect(new LineSkimmer().skim(bytes, 0, bytes.length)).toBe(true);
      expect(wasm!.skim(bytes, 0, bytes.length)).toBe(false);
    }
  });

  it('reads lines longer than its memory at first, and nesting deeper than it follows is read whole', () => {
    const big = encoder.encode(JSON.stringify({ update: { ...toolUpdate, content: [{ type: 'content', content: { type: 'text', text: 'x'.repeat(3_000_000) } }] } }));
    expect(skimWith(wasm!, big, 0, big.length)).toEqual(skimWith(new LineSkimmer(), big, 0, big.length));
    const deep = encoder.encode(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(new LineSkimmer().skim(deep, 0, deep.length)).toBe(true);
    expect(wasm!.skim(deep, 0, deep.length)).toBe(false);
  });
});
