#!/usr/bin/env node
// Writes the hostile inputs that the viewer must draw without freezing, crashing or blanking
// (issues 10 and 12), each at its stated size, as Grok Build persisted ACP updates.
//
//   node scripts/hostile.mjs [out-dir [case-name]]   (default: a new folder under the system temp dir)
//
// Prints a JSON manifest on stdout: [{ name, file, bytes, open }], where `open` says which row a
// test opens: { callId, tab? } for a tool call, or { kind } for a message row.
// Nothing it writes is committed: the files are made again by every run.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SID = 'hostile';
const T0 = 1_785_193_970;

const update = (u, s = 0, meta = {}) => ({
  timestamp: T0 + s,
  method: 'session/update',
  params: { sessionId: SID, update: u, _meta: { agentTimestampMs: (T0 + s) * 1000, ...meta } },
});
const line = (r) => JSON.stringify(r);
const user = (text) => line(update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } }));
const agent = (text, s = 1) => line(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }, s));
const call = (fields, s = 2, meta = {}) => line(update({ sessionUpdate: 'tool_call', status: 'completed', ...fields }, s, meta));

const numbered = (n, tag) => Array.from({ length: n }, (_, i) => `${tag} line ${i} of the file`).join('\n') + '\n';

/** @type {Array<{ name: string, lines: () => string[], open: object }>} */
const CASES = [
  {
    name: 'bad-times',
    // Times out of Date's range: `toISOString` throws on them. JSON.stringify cannot write 1e999,
    // so those lines are written by hand.
    lines: () => [
      user('times from another age'),
      call({ toolCallId: 'time-1e13', title: 'timestamp 1e13', kind: 'execute', rawInput: { command: 'date' } }, 1e13 - T0),
      `{"timestamp":${T0 + 3},"method":"session/update","params":{"sessionId":"${SID}","update":{"sessionUpdate":"tool_call","toolCallId":"time-inf","title":"agentTimestampMs 1e999","kind":"execute","status":"completed","rawInput":{"command":"date"}},"_meta":{"agentTimestampMs":1e999}}}`,
      `{"timestamp":${T0 + 4},"method":"session/update","params":{"sessionId":"${SID}","update":{"sessionUpdate":"tool_call_update","toolCallId":"time-inf","status":"completed"},"_meta":{"agentTimestampMs":-1e16}}}`,
      call({ toolCallId: 'time-neg', title: 'agentTimestampMs -1e16', kind: 'execute', rawInput: { command: 'date' } }, 5, { agentTimestampMs: -1e16 }),
      agent('still here after the bad times', 6),
    ],
    open: { callId: 'time-inf', tab: 'Raw' },
    alsoOpen: [{ callId: 'time-1e13', tab: 'Raw' }, { callId: 'time-neg', tab: 'Raw' }],
  },
  { name: 'deep-blockquote', lines: () => [user('quote'), agent(`${'>'.repeat(3000)} deep`)], open: { kind: 'agent' } },
  {
    name: 'deep-list',
    lines: () => [user('list'), agent(Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'))],
    open: { kind: 'agent' },
  },
  {
    name: 'many-references',
    lines: () => [user('refs'), agent(Array.from({ length: 20_000 }, (_, i) => `[ref${i}]: https://example.com/${i}`).join('\n'))],
    open: { kind: 'agent' },
  },
  { name: 'huge-message', lines: () => [user('big'), agent('lorem ipsum dolor sit amet '.repeat(Math.ceil((10 * 1024 * 1024) / 27)))], open: { kind: 'agent' } },
  {
    name: 'big-diff',
    // 20,000 lines a side, every line changed (438 KB of diff text).
    lines: () => [
      user('rewrite the file'),
      call({ toolCallId: 'big-edit', title: 'Edit big.txt', kind: 'edit', content: [{ type: 'diff', path: '/tmp/big.txt', oldText: numbered(20_000, 'old'), newText: numbered(20_000, 'new') }] }),
    ],
    open: { callId: 'big-edit' },
  },
  {
    name: 'largest-small-diff',
    // The largest diff still drawn by react-diff-viewer on the main thread: every line changed.
    lines: () => [
      user('rewrite a smaller file'),
      call({ toolCallId: 'small-edit', title: 'Edit small.txt', kind: 'edit', content: [{ type: 'diff', path: '/tmp/small.txt', oldText: numbered(100, 'old'), newText: numbered(100, 'new') }] }),
    ],
    open: { callId: 'small-edit' },
  },
  {
    name: 'ansi-bold',
    lines: () => [user('bold'), call({ toolCallId: 'ansi-bold', title: 'bold output', kind: 'execute', rawInput: { command: 'bold' }, content: [{ type: 'content', content: { type: 'text', text: '\x1b[1mx'.repeat(100_000) } }] })],
    open: { callId: 'ansi-bold' },
  },
  {
    name: 'ansi-unterminated',
    lines: () => [user('escapes'), call({ toolCallId: 'ansi-open', title: 'unterminated escapes', kind: 'execute', rawInput: { command: 'esc' }, content: [{ type: 'content', content: { type: 'text', text: '\x1b['.repeat(512 * 1024) } }] })],
    open: { callId: 'ansi-open' },
  },
  {
    name: 'many-labels',
    lines: () => [
      user('labels'),
      ...Array.from({ length: 50_000 }, (_, i) =>
        call({ toolCallId: `label-${i}`, title: `tool ${i}`, kind: 'other', _meta: { 'x.ai/tool': { version: 1, label: `Label ${i}`, name: `tool_${i}` } } }),
      ),
    ],
    open: { facets: 50_000 },
  },
];

/** Writes every case (or only the one named `only`) into `dir`; returns the manifest. */
export function writeHostileCases(dir, only) {
  mkdirSync(dir, { recursive: true });
  const chosen = CASES.filter((c) => !only || c.name === only);
  if (chosen.length === 0) throw new Error(`no hostile case named ${only}; cases: ${CASES.map((c) => c.name).join(', ')}`);
  return chosen.map(({ name, lines, open, alsoOpen }) => {
    const text = `${lines().join('\n')}\n`;
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(file, text);
    return { name, file, bytes: Buffer.byteLength(text), open, ...(alsoOpen ? { alsoOpen } : {}) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'loupe-hostile-'));
  const only = process.argv[3];
  const manifest = writeHostileCases(dir, only);
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
}
