#!/usr/bin/env node
// Writes the hostile inputs that the viewer must read and draw without freezing, crashing,
// miscounting or blanking (issues 10 and 12), each at its stated size: Grok Build persisted ACP
// updates, ACP capture lines, a Zed array export and ledger exports.
//
//   node scripts/hostile.mjs [out-dir [case-name]] [--scale F]
//
// out-dir defaults to a new folder under the system temp dir. --scale multiplies the repeat counts
// of the issue 12 cases (1 writes them at their stated sizes; npm run bench:hostile writes two
// sizes and compares the time each takes to read).
//
// Prints a JSON manifest on stdout: [{ name, file, bytes, open }], where `open` says which row a
// test opens: { callId, tab? } for a tool call, or { kind } for a message row (absent: none).
// Nothing it writes is committed: the files are made again by every run.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const rpcUpdate = (sessionId, u) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
const capture = (t, dir, msg) => line({ t_ms: t, dir, msg });
const times = (n, of) => Array.from({ length: n }, (_, i) => of(i));
/** A stated repeat count, times the scale this run was asked for. */
let scale = 1;
const n = (count) => Math.max(1, Math.round(count * scale));

/** An object `depth` levels deep, built without recursion. */
function nested(depth) {
  let value = { leaf: 'bottom' };
  for (let i = 0; i < depth; i++) value = { [`level${depth - i}`]: value };
  return value;
}

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const ledgerLines = () => readFileSync(join(FIXTURES, 'ledger/golden-p0.ledger-00000000000000000000.jsonl'), 'utf8').split('\n').filter(Boolean);

/** Zed's "Copy All Messages" export (2-space JSON) of `n` message chunks, one element's string left open. */
function zedArray(count, brokenAt) {
  const elements = times(count, (i) => ({
    _direction: 'incoming',
    _type: 'notification',
    method: 'session/update',
    params: { sessionId: 'zed', update: { sessionUpdate: 'tool_call', toolCallId: `zed-${i}`, title: `call ${i}`, kind: 'read', status: 'completed' } },
  }));
  const text = JSON.stringify(elements, null, 2).split('\n');
  // The title line of one element loses its closing quote: `"title": "call N` runs to the end of the line.
  const titleLine = text.findIndex((l) => l.includes(`"title": "call ${brokenAt}"`));
  text[titleLine] = text[titleLine].replace(`"call ${brokenAt}",`, `"call ${brokenAt} {[`);
  return text;
}

/** @type {Array<{ name: string, ext?: string, lines: () => string[], open?: object, alsoOpen?: object[] }>} */
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
  // ---- issue 12: reading (Node and the worker) --------------------------------------------
  {
    name: 'deep-raw-input',
    // A call whose rawInput is 2,000 levels deep between 1,000 ordinary calls on each side.
    lines: () => [
      user('deep input'),
      ...times(n(1000), (i) => call({ toolCallId: `before-${i}`, title: `before ${i}`, kind: 'read', rawInput: { path: `/tmp/b${i}` } })),
      call({ toolCallId: 'deep', title: 'deep input', kind: 'other', rawInput: nested(2000) }),
      ...times(n(1000), (i) => call({ toolCallId: `after-${i}`, title: `after ${i}`, kind: 'read', rawInput: { path: `/tmp/a${i}` } })),
    ],
    open: { callId: 'deep', tab: 'Raw' },
  },
  {
    name: 'image-chunks',
    // 50,000 consecutive image chunks of one agent message.
    lines: () => [
      user('draw'),
      ...times(n(50_000), () => line(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } }, 1))),
    ],
  },
  {
    name: 'same-id-requests',
    // 40,000 requests with one id, all sent the same way, then as many replies that name the same
    // direction (none joins: a response joins a request sent the other way).
    lines: () => [
      ...times(n(40_000), (i) => capture(i, 'agent->client', { jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 'ids', path: `/tmp/f${i}` } })),
      ...times(n(40_000), (i) => capture(n(40_000) + i, 'agent->client', { jsonrpc: '2.0', id: 1, result: { content: `file ${i}` } })),
    ],
  },
  {
    name: 'same-id-replies',
    // 40,000 requests with one id, all sent the same way, then their 40,000 replies.
    lines: () => [
      ...times(n(40_000), (i) => capture(i, 'agent->client', { jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 'ids', path: `/tmp/f${i}` } })),
      ...times(n(40_000), (i) => capture(n(40_000) + i, 'client->agent', { jsonrpc: '2.0', id: 1, result: { content: `file ${i}` } })),
    ],
  },
  {
    name: 'terminal-fan-out',
    // 20,000 calls showing one terminal, then 20,000 polls of its output.
    lines: () => [
      line({ jsonrpc: '2.0', id: 't', method: 'terminal/create', params: { sessionId: 'fan', command: 'yes' } }),
      line({ jsonrpc: '2.0', id: 't', result: { terminalId: 'term' } }),
      ...times(n(20_000), (i) => line(rpcUpdate('fan', { sessionUpdate: 'tool_call', toolCallId: `fan-${i}`, title: `yes ${i}`, kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term' }] }))),
      ...times(n(20_000), (i) => [
        line({ jsonrpc: '2.0', id: `o${i}`, method: 'terminal/output', params: { sessionId: 'fan', terminalId: 'term' } }),
        line({ jsonrpc: '2.0', id: `o${i}`, result: { output: `y\n`.repeat(1 + (i % 8)), truncated: false } }),
      ]).flat(),
    ],
    open: { callId: 'fan-0' },
  },
  {
    name: 'one-call-updates',
    // One call updated 200,000 times.
    lines: () => [
      user('busy call'),
      call({ toolCallId: 'busy', title: 'busy', kind: 'execute', status: 'in_progress', rawInput: { command: 'busy' } }),
      ...times(n(200_000), (i) => line(update({ sessionUpdate: 'tool_call_update', toolCallId: 'busy', status: 'in_progress', rawOutput: { step: i } }, 3))),
    ],
    open: { callId: 'busy' },
  },
  {
    name: 'million-sessions',
    // 1,000,000 sessions of one message each.
    lines: () => times(n(1_000_000), (i) => line(rpcUpdate(`s${i}`, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }))),
  },
  {
    name: 'meta-proto',
    // `__proto__` and other prototype names as `_meta` keys: the call's label stays its kind's.
    lines: () => [
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"proto","update":{"sessionUpdate":"tool_call","toolCallId":"proto-meta","title":"proto meta","kind":"read","status":"completed","_meta":{"__proto__":{"claudeCode":{"toolName":"Bash"}},"constructor":{"prototype":{"polluted":true}},"toString":"x"}}}}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"proto","update":{"sessionUpdate":"tool_call_update","toolCallId":"proto-meta","_meta":{"__proto__":{"claudeCode":{"toolName":"Bash"}}}}}}',
    ],
    open: { callId: 'proto-meta', tab: 'Raw' },
  },
  {
    name: 'nul-ids',
    // Ids that contain NUL: session `a\0b` call `c`, session `a` call `b\0c` are two calls.
    lines: () => [
      line(rpcUpdate('a\u0000b', { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'first', kind: 'read', status: 'completed' })),
      line(rpcUpdate('a', { sessionUpdate: 'tool_call', toolCallId: 'b\u0000c', title: 'second', kind: 'edit', status: 'failed' })),
      line(rpcUpdate('\u0000ledger', { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'third', kind: 'execute', status: 'completed' })),
      line({ v: 2, run: 'r', seq: 0, prev: '0'.repeat(64), t: 0, who: 'w', kind: 'tool_called', data: { id: 'x', name: 'read_file', args: { path: '/tmp/x' } } }),
    ],
  },
  {
    name: 'zed-unterminated',
    ext: 'json',
    // A Zed export of 1,000 elements; the title string of element 10 is never closed.
    lines: () => zedArray(n(1000), 10),
  },
  {
    name: 'ledger-garbage-inserted',
    // An intact ledger export with a line of garbage inserted after its 8th line.
    lines: () => {
      const lines = ledgerLines();
      return [...lines.slice(0, 8), 'garbage inserted here', ...lines.slice(8)];
    },
  },
  {
    name: 'ledger-foreign-inserted',
    // An intact ledger export with an ACP record inserted after its 8th line.
    lines: () => {
      const lines = ledgerLines();
      return [...lines.slice(0, 8), line(rpcUpdate('foreign', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'not a ledger line' } })), ...lines.slice(8)];
    },
  },
  {
    name: 'terminal-injection',
    // Escape sequences in ids, subjects, terminal output and a bad line: a window title, a
    // clipboard write (OSC 52), a screen clear, and 8-bit CSI.
    lines: () => [
      line(rpcUpdate('inj\u001b]0;pwned\u0007', { sessionUpdate: 'tool_call', toolCallId: 'id\u001b[2J\u001b]52;c;ZWNobyBwd25lZA==\u0007', title: 'inject', kind: 'read', status: 'completed', rawInput: { path: '/tmp/\u001b[31mred\u009b2J' } })),
      line({ jsonrpc: '2.0', id: 'tc', method: 'terminal/create', params: { sessionId: 'inj', command: 'x' } }),
      line({ jsonrpc: '2.0', id: 'tc', result: { terminalId: 't\u001b]0;title\u0007' } }),
      line(rpcUpdate('inj', { sessionUpdate: 'tool_call', toolCallId: 'term\u0007', title: 'run', kind: 'execute', status: 'completed', content: [{ type: 'terminal', terminalId: 't\u001b]0;title\u0007' }] })),
      line({ jsonrpc: '2.0', id: 'to', method: 'terminal/output', params: { sessionId: 'inj', terminalId: 't\u001b]0;title\u0007' } }),
      line({ jsonrpc: '2.0', id: 'to', result: { output: 'ok\u001b[2J\u001b]52;c;cm0gLXJmIH4=\u0007\r\ndone\u202e', truncated: false, exitStatus: { exitCode: 0 } } }),
      'not json \u001b]0;bad line title\u0007 \u001b[2J',
    ],
  },
];

/** Writes every case (or only the one named `only`) into `dir`, at `options.scale`; returns the manifest. */
export function writeHostileCases(dir, only, options = {}) {
  scale = options.scale ?? 1;
  mkdirSync(dir, { recursive: true });
  const chosen = CASES.filter((c) => !only || c.name === only);
  if (chosen.length === 0) throw new Error(`no hostile case named ${only}; cases: ${CASES.map((c) => c.name).join(', ')}`);
  return chosen.map(({ name, ext, lines, open, alsoOpen }) => {
    const text = `${lines().join('\n')}\n`;
    const file = join(dir, `${name}.${ext ?? 'jsonl'}`);
    writeFileSync(file, text);
    return { name, file, bytes: Buffer.byteLength(text), ...(open ? { open } : {}), ...(alsoOpen ? { alsoOpen } : {}) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const scaleAt = args.indexOf('--scale');
  const scaleArg = scaleAt >= 0 ? Number(args.splice(scaleAt, 2)[1]) : 1;
  const dir = args[0] ?? mkdtempSync(join(tmpdir(), 'loupe-hostile-'));
  const only = args[1];
  const manifest = writeHostileCases(dir, only, { scale: scaleArg });
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
}
