// A light read skims the bulk of long lines on their bytes (ingest/skim.ts) where a full read parses
// every line whole with JSON.parse. On real, generated and broken lines the two must agree on every
// line's class (event, unknown, bad, with the same reasons) and on every call a row shows.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS, generate } from '../../scripts/gen-session.mjs';
import { blobReader, hydrateCall } from './hydrate';
import { SKIM_MIN_LINE_BYTES } from '../ingest/reader';
import { ingest } from './readSession';
import type { Session } from './session';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
/** Long enough to be skimmed, and to make its line long enough to be, whatever the word. */
const long = (word: string) => `${word} `.repeat(Math.ceil(SKIM_MIN_LINE_BYTES / (word.length + 1)) + 1);

const fixtureLines = ['acp', 'grok', 'ledger', 'native'].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(FIXTURES, dir, name), 'utf8').split('\n')),
);
const generatedLines = FORMATS.flatMap((format) => generate({ format, calls: 12, seed: 7 }).text.split('\n'));
const update = (fields: Record<string, unknown>) => ({ sessionUpdate: 'tool_call_update', toolCallId: 'x1', ...fields });
// Every envelope a skim looks into, with long output, terminal blocks and a long message beside them.
const handWritten = [
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: update({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: long('out') } }, { type: 'terminal', terminalId: 'term-1' }] }) } },
  { t_ms: 9, dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: update({ rawOutput: long('raw'), content: [{ type: 'diff', path: '/a', oldText: long('a'), newText: long('b') }] }) } } },
  { sessionId: 's', update: update({ sessionUpdate: 'tool_call', status: 'pending', title: 'Run', content: [{ type: 'terminal', terminalId: long('t') }] }) },
  update({ rawOutput: { stdout: long('stdout'), exit: 0 }, content: [{ type: 'image', data: long('png') }, { type: 'terminal', terminalId: 7 }] }),
  { jsonrpc: '2.0', id: 9, method: 'session/request_permission', params: { sessionId: 's', toolCall: update({ content: [{ type: 'content', content: { type: 'text', text: long('ask') } }] }), options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] } },
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: long('said') } } } },
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'not_a_kind', content: [{ text: long('unknown') }] } } },
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: update({ toolCallId: 5, content: [{ text: long('invalid') }] }) } },
].map((line) => JSON.stringify(line));
// The same lines broken inside their bulk, where only the skim's own check of the bytes can see it.
const brokenInBulk = handWritten.flatMap((line) => {
  const at = line.indexOf(' ', line.length >> 1);
  return [`${line.slice(0, at)}\t${line.slice(at + 1)}`, `${line.slice(0, at)}\\x${line.slice(at)}`, `${line.slice(0, at)}\u0001${line.slice(at)}`, line.slice(0, at)];
});
const nonBlank = (lines: string[]) => lines.filter((line) => line.trim() !== '');
/** Lines drawn alike from each source, so the few hand-written ones come up often. */
const line = fc.oneof(...[fixtureLines, generatedLines, handWritten, brokenInBulk].map((lines) => fc.constantFrom(...nonBlank(lines))));

/** What the two readings must share: counts, bad lines, the class of every item, and each call as a row shows it. */
function reading(session: Session) {
  return {
    counts: session.counts,
    bad: session.diagnostics.bad,
    items: session.items.map((item) => [item.type, item.loc.line, item.type === 'message' ? item.text : item.type === 'unknown' ? item.reason : '']),
    calls: [...session.calls.values()].map((call) => ({
      key: call.key, label: call.label, subject: call.subject, status: call.status,
      blocks: call.detail === 'full' ? call.content?.length : call.contentBlocks, terminalIds: call.terminalIds,
    })),
    chain: session.chain,
  };
}

const edit = fc.oneof(
  fc.constant({ kind: 'none' as const, at: 0, char: '' }),
  fc.record({
    kind: fc.constantFrom('set' as const, 'delete' as const, 'cut' as const),
    // Where in the line, as a fraction: a long line's bulk is most of it.
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    char: fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', '0', 'u', ' ', '\t', '\u0001', 'é'),
  }),
);

function edited(line: string, { kind, at, char }: { kind: 'none' | 'set' | 'delete' | 'cut'; at: number; char: string }): string {
  const i = Math.min(line.length - 1, Math.floor(at * line.length));
  if (kind === 'set') return line.slice(0, i) + char + line.slice(i + 1);
  if (kind === 'delete') return line.slice(0, i) + line.slice(i + 1);
  if (kind === 'cut') return line.slice(0, i);
  return line;
}

/** `bytes` with a byte that is never UTF-8 put in at `at` (a fraction of the length), or as they are. */
function withInvalidUtf8(bytes: Uint8Array, at: number | undefined): Uint8Array {
  if (at === undefined) return bytes;
  const i = Math.floor(at * bytes.length);
  return new Uint8Array([...bytes.subarray(0, i), 0xff, ...bytes.subarray(i)]);
}

describe('a light read', () => {
  it('skims what it leaves out, yet reads every line as a full read does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, edit), { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        fc.integer({ min: 64, max: 4096 }),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        async (picks, terminated, chunkSize, notUtf8At) => {
          const text = picks.map(([picked, change]) => edited(picked, change)).join('\n') + (terminated ? '\n' : '');
          const bytes = withInvalidUtf8(new TextEncoder().encode(text), notUtf8At);
          const full = await ingest(bytes, { detail: 'full' });
          const light = await ingest(bytes, { detail: 'light', chunkSize });
          expect(reading(light)).toEqual(reading(full));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives back what it skimmed when a call is opened: the output read again from the source', async () => {
    const bytes = new TextEncoder().encode(handWritten.join('\n'));
    const full = await ingest(bytes, { detail: 'full' });
    const light = await ingest(bytes, { detail: 'light' });
    const read = blobReader(new Blob([bytes]));
    expect(light.calls.size).toBeGreaterThan(0);
    for (const [key, lightCall] of light.calls) {
      const fullCall = full.calls.get(key)!;
      expect(lightCall.content).toBeUndefined();
      const opened = await hydrateCall(lightCall, read);
      if (!opened.ok) throw new Error(opened.error);
      expect([opened.value.content, opened.value.rawOutput]).toEqual([fullCall.content, fullCall.rawOutput]);
    }
  });

  it('leaves an agent\'s own log entries and a ledger\'s other events in their lines, each read back whole as a full read keeps it', async () => {
    // Every agent's log among the fixtures (JSON lines and the pretty-printed files whose messages are records), and the ledgers.
    const logs = ['native', 'cline', 'gemini', 'pi', 'held-out', 'subagent', 'ledger'].flatMap((dir) => filesUnder(join(FIXTURES, dir))).filter((path) => /\.jsonl?$/.test(path));
    let leftInLine = 0;
    for (const path of logs) {
      const bytes = readFileSync(path);
      const full = await ingest(bytes, { detail: 'full' });
      const light = await ingest(bytes, { detail: 'light', chunkSize: 4096 });
      expect(light.items.length, path).toBe(full.items.length);
      light.items.forEach((item, index) => {
        const kept = full.items[index]!;
        if (item.type !== 'event' || item.raw !== undefined) return;
        leftInLine++;
        const line = new TextDecoder().decode(bytes.subarray(item.loc.offset, item.loc.offset + item.loc.length));
        expect({ ...item, raw: JSON.parse(line) as unknown }, `${path} line ${item.loc.line}`).toEqual(kept);
      });
    }
    // Claude Code's hook progress, Codex's and Pi's bookkeeping...: most of what was left out.
    expect(leftInLine).toBeGreaterThan(50);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
