#!/usr/bin/env node
// Loupe's deterministic session generator: realistic agent sessions as ACP JSON-RPC traffic, as a
// Grok Build `updates.jsonl`, or as a hash-chained ledger export, with an answer key (--expect)
// giving, for every tool call, the label, subject and final status that docs/CONTRACTS.md
// prescribes. The key is worked out here, from the contract's rules, as each call is written: it is
// never read back from Loupe's own code, so tests that compare Loupe with it check real behaviour.
//
//   node scripts/gen-session.mjs --format acp|grok|ledger [--calls N | --mb M] [--seed S]
//                                [--bad-rate R] [--expect FILE] [--out FILE]
//
// --calls N   N tool calls (default 200); --mb M instead writes about M MiB, whatever the calls.
// --seed S    the same arguments always give the same bytes (default seed 1).
// --bad-rate R  before a record, with probability R, a line that is not JSON (a bad line, §2).
// --expect FILE writes the answer key there: { format, seed, calls: [{ id, label, subject,
//             status, updates }], lines, badLines }. Output goes to stdout unless --out is given.
//
// Importable too: `generateSession(options, write)` hands each line to `write` and returns the key;
// `generate(options)` returns the text and the key (types in gen-session.d.mts).
//
// Provenance: a port of the workload generator shared beside the project (`tools/gen-session.mjs`),
// which writes the same bytes and keys for the same arguments; its BLAKE3, a plain-JavaScript
// implementation, is replaced by hash-wasm's, a dependency the viewer already hashes chains with.
import { createWriteStream, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBLAKE3 } from 'hash-wasm';

const blake3 = await createBLAKE3();
/** BLAKE3 hex digest of a line's exact bytes (UTF-8), for the ledger's `prev` chain (CONTRACTS §9). */
const blake3Hex = (text) => blake3.init().update(text).digest('hex');

export const FORMATS = ['acp', 'grok', 'ledger'];

// --- the contract's rules, as the answer key applies them ----------------------------------------

/** §5 rule 4: the label an ACP `kind` gives a call no envelope or known name labels. */
const KIND_LABEL = {
  read: 'Read', edit: 'Edit', delete: 'Delete', move: 'Move', search: 'Search', execute: 'Run Command',
  think: 'Think', fetch: 'Web Fetch', switch_mode: 'Switch Mode', other: 'Tool',
};
/** §6: the keys `subject_of` tries, in order. */
const SUBJECT_KEYS = ['path', 'file_path', 'filePath', 'target_file', 'absolute_path', 'notebook_path', 'directory',
  'dir_path', 'target_directory', 'addr', 'url', 'uri', 'command', 'cmd', 'program', 'arm', 'pattern', 'query', 'description',
  'commands', 'queries', 'task', 'files'];
/** §6 rule 1: the ledger's own keys, for a line without a `subject`. */
const LEDGER_SUBJECT_KEYS = ['path', 'addr', 'program', 'arm'];
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'fish']);
const SHELL_FLAGS = new Set(['-c', '-lc', '-ic', '-lic', '-cl']);

/**
 * §6 `subject_of`: `pairs` is a payload's [key, value] pairs in the order its bytes give them.
 * The first preferred key holding a string (or strings) names the call; else the first string value.
 */
function subjectOf(pairs, keys) {
  if (!pairs) return null;
  for (const key of keys) {
    const hit = pairs.find(([k]) => k === key);
    if (!hit) continue;
    const value = hit[1];
    if (typeof value === 'string') return value;
    // `files` as Cline's read_files sends it: objects, each with a string `path`.
    if (key === 'files' && Array.isArray(value) && value.length > 0 && value.every((f) => f && typeof f === 'object' && typeof f.path === 'string')) {
      return value.map((f) => f.path).join(' ');
    }
    if (Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'string')) {
      // [SHELL, FLAG, SCRIPT] as a command is named by its script.
      const [shell, flag, script] = value;
      const isShell = (key === 'command' || key === 'cmd') && value.length === 3 && SHELLS.has(shell.split('/').pop()) && SHELL_FLAGS.has(flag);
      return isShell ? script : value.join(' ');
    }
  }
  const first = pairs.find(([, v]) => typeof v === 'string');
  return first ? first[1] : null;
}

// --- JSON whose key order is the order given ------------------------------------------------------

/**
 * An object written with its keys in the order given, integer-like keys included: `{"10":"a","2":"b"}`
 * keeps its byte order, which `JSON.stringify` of a plain object would not (§6, source order).
 */
class Ordered {
  constructor(pairs) { this.pairs = pairs; }
}
const O = (pairs) => new Ordered(pairs);
function ser(v) {
  if (v instanceof Ordered) return `{${v.pairs.map(([k, x]) => `${JSON.stringify(k)}:${ser(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(ser).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${JSON.stringify(k)}:${ser(x)}`).join(',')}}`;
  return JSON.stringify(v);
}
const pairsOf = (v) => (v instanceof Ordered ? v.pairs : v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : null);

// --- the generator ----------------------------------------------------------------------------------

const DIRS = ['src', 'src/ingest', 'src/model', 'src/ui', 'crates/kernel/src', 'lib', 'tests', 'docs'];
const NAMES = ['main', 'parser', 'session', 'reducer', 'ledger', 'tool_calls', 'render', 'index', 'config', 'store'];
const EXTS = ['.ts', '.tsx', '.rs', '.py', '.go', '.md'];
const WORDS = 'the call merge update session tool label subject ledger render stream worker parse event state diff read write line key order value field record'.split(' ');
const ROOT = '/home/dev/project';
const BAD_LINES = ['{"jsonrpc":"2.0","method":"session/upd', '\u0000\u0001garbage', '[1,2', '{"unterminated": "str', 'not json at all'];

const envelope = (name, kind, namespace, label, readOnly, input) =>
  ({ 'x.ai/tool': { version: 1, name, kind, namespace, label, read_only: readOnly, input } });

/**
 * The generator's randomness and the text it makes from it: xorshift32 (small, fast, and the same
 * everywhere) from `seed`, and paths, sentences, code and terminal output drawn from it.
 */
function randomText(seed) {
  let state = seed >>> 0 || 1;
  const rand = () => {
    state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
    return state / 0x100000000;
  };
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');

  const path = () => `${ROOT}/${pick(DIRS)}/${pick(NAMES)}${pick(EXTS)}`;
  const sentence = (n = int(5, 16)) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const codeLine = () => pick([
    `  const ${pick(NAMES)} = ${pick(NAMES)}(${pick(WORDS)}, ${int(0, 999)});`,
    `  if (${pick(WORDS)}.${pick(WORDS)} === undefined) return null;`,
    `export function ${pick(NAMES)}${int(1, 99)}(${pick(WORDS)}: string): number {`,
    `  // ${sentence()}`,
    `  for (const ${pick(WORDS)} of ${pick(WORDS)}s) total += ${pick(WORDS)}.length;`,
    '}',
    `  return { ${pick(WORDS)}, ${pick(WORDS)}: ${int(0, 9)} };`,
  ]);
  const code = (lines) => Array.from({ length: lines }, codeLine).join('\n');
  const ansi = (s) => pick([`\u001b[32m${s}\u001b[0m`, `\u001b[1;31m${s}\u001b[0m`, s, s, `\u001b[33m${s}\u001b[39m`]);
  const termOutput = (lines) => Array.from({ length: lines }, () => ansi(`${pick(['ok', 'PASS', 'warn', 'FAIL', 'info'])} ${sentence(int(3, 9))}`)).join('\n');

  return { rand, pick, int, hex, path, sentence, code, termOutput };
}

/** Where lines go: counts bytes and lines, and puts a bad line before a record at the rate asked (§2). */
function lineSink(write, { rand, pick }, badRate) {
  const sink = {
    bytes: 0,
    lineNo: 0,
    badLines: 0,
    emit(text) {
      write(text);
      sink.bytes += Buffer.byteLength(text) + 1;
      sink.lineNo++;
    },
    maybeBad() {
      if (badRate > 0 && rand() < badRate) {
        sink.emit(pick(BAD_LINES));
        sink.badLines++;
      }
    },
  };
  return sink;
}

/** One tool call in the style of a harness: the updates it sends, in order; its key entry is pushed to `key.calls`. */
function acpCall(r, key, i) {
  const { pick, int, hex, path, sentence, code, termOutput } = r;
  const id = pick(['call-', 'toolu_', 'call_']) + hex(16) + `-${i}`;
  const flavour = pick(['grok', 'grok', 'grok', 'claude', 'claude', 'plain', 'mcp', 'odd']);
  const file = path();
  const updates = [];
  let label, subjectPairs;
  const status = pick(['completed', 'completed', 'completed', 'failed']);
  const finalContent = () => [{ type: 'content', content: { type: 'text', text: status === 'failed' ? `error: ${sentence()}` : code(int(5, 60)) } }];

  if (flavour === 'grok') {
    // Grok Build: a valid `x.ai/tool` envelope labels the call (§5 rule 1), and its `input`,
    // given on the refined update, names it (§6 rule 2); without one, rawInput does (rule 3).
    const tool = pick(['run_terminal_command', 'read_file', 'search_replace', 'write', 'list_dir', 'grep', 'web_fetch', 'todo_write']);
    const spec = {
      run_terminal_command: () => { const c = pick(['npm test', 'cargo build', 'ls -la src', 'git status']); return ['execute', 'grok_build', 'Run Command', false, { command: c, description: sentence(4), timeout: 60000 }, O([['command', c], ['description', sentence(3)]]), `Execute \`${c}\``]; },
      read_file: () => ['read', 'grok_build', 'Read', true, { target_file: file, limit: 200 }, O([['path', file], ['limit', 200]]), `Read \`${file}\``],
      search_replace: () => ['edit', 'grok_build', 'Edit', false, { file_path: file, old_string: code(3), new_string: code(4) }, O([['path', file]]), `Edit \`${file}\``],
      write: () => ['write', 'opencode', 'Write', false, { file_path: file, content: code(20) }, O([['path', file]]), `Write \`${file}\``],
      list_dir: () => { const d = `${ROOT}/${pick(DIRS)}`; return ['list', 'grok_build', 'List Files', true, { target_directory: d }, O([['directory', d]]), `List \`${d}\``]; },
      grep: () => { const p = pick(WORDS); return ['search', 'grok_build', 'Search', true, { pattern: p, path: `${ROOT}/src` }, O([['pattern', p], ['path', `${ROOT}/src`]]), p]; },
      web_fetch: () => { const u = `https://docs.example.org/${pick(WORDS)}`; return ['web_fetch', 'grok_build', 'Web Fetch', true, { url: u }, undefined, `Fetch: ${u}`]; },
      todo_write: () => ['plan', 'grok_build', 'Plan', false, { merge: false, todos: [{ id: '1', content: sentence(4), status: 'pending' }] }, undefined, 'Updating plan'],
    }[tool]();
    const [kind, namespace, envelopeLabel, readOnly, raw, input, title] = spec;
    const acpKind = { execute: 'execute', read: 'read', edit: 'edit', write: 'edit', list: 'other', search: 'search', web_fetch: 'fetch', plan: 'think' }[kind];
    label = envelopeLabel;
    updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: tool, rawInput: raw, _meta: envelope(tool, kind, namespace, envelopeLabel, readOnly) });
    // Grok's refined rawInput is its typed input, tagged with a `variant` key that comes first.
    const variant = { execute: 'Bash', read: 'ReadFile', edit: 'SearchReplace', write: 'Write', list: 'ListDir', search: 'Grep', web_fetch: 'WebFetch', plan: 'TodoWrite' }[kind];
    const refinedRaw = O([['variant', variant], ...Object.entries(raw)]);
    subjectPairs = input ? pairsOf(input) : pairsOf(refinedRaw);
    const locations = kind === 'read' || kind === 'edit' || kind === 'write' ? [{ path: file }] : [];
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, kind: acpKind, title, locations, rawInput: refinedRaw, _meta: envelope(tool, kind, namespace, envelopeLabel, readOnly, input) });
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' });
    const content = kind === 'edit' && status === 'completed'
      ? [{ type: 'diff', path: file, oldText: code(int(10, 60)), newText: code(int(10, 60)) }]
      : kind === 'execute' && status === 'completed' ? [{ type: 'content', content: { type: 'text', text: termOutput(int(3, 80)) } }] : finalContent();
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content, rawOutput: kind === 'execute' ? { type: 'Bash', exit_code: status === 'failed' ? 1 : 0 } : undefined });
  } else if (flavour === 'claude') {
    // claude-agent-acp: no envelope; `_meta.claudeCode.toolName` is looked up in the name table (§5 rule 2).
    const tool = pick(['Read', 'Edit', 'Write', 'Bash', 'Grep', 'Glob', 'WebFetch', 'TodoWrite', 'Task']);
    const [kind, raw, title, nameLabel] = {
      Read: ['read', { file_path: file, limit: 2000 }, `Read ${file}`, 'Read'],
      Edit: ['edit', { file_path: file, old_string: code(3), new_string: code(3) }, `Edit ${file}`, 'Edit'],
      Write: ['edit', { file_path: file, content: code(12) }, `Write ${file}`, 'Write'],
      Bash: ['execute', { command: 'npm run build', description: sentence(4) }, '`npm run build`', 'Run Command'],
      Grep: ['search', { pattern: pick(WORDS), path: `${ROOT}/src`, output_mode: 'content' }, `grep "${pick(WORDS)}"`, 'Search'],
      Glob: ['search', { pattern: '**/*.ts' }, 'Find `**/*.ts`', 'List Files'],
      WebFetch: ['fetch', { url: `https://example.org/${pick(WORDS)}`, prompt: sentence(5) }, 'Fetch', 'Web Fetch'],
      TodoWrite: ['think', { todos: [{ content: sentence(4), status: 'pending', activeForm: sentence(3) }] }, 'Update TODOs', 'Plan'],
      Task: ['think', { description: sentence(3), prompt: sentence(12), subagent_type: 'general-purpose' }, 'Task', 'Subagent'],
    }[tool];
    label = nameLabel;
    subjectPairs = pairsOf(raw);
    updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title, kind, status: 'pending', rawInput: raw, locations: raw.file_path ? [{ path: file }] : [], _meta: { claudeCode: { toolName: tool } } });
    const content = kind === 'edit' && status === 'completed' ? [{ type: 'diff', path: file, oldText: tool === 'Write' ? null : code(int(5, 40)), newText: code(int(5, 40)) }] : finalContent();
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content, _meta: { claudeCode: { toolName: tool, toolResponse: { ok: status === 'completed' } } } });
  } else if (flavour === 'plain') {
    // No vendor _meta: the ACP kind labels the call (§5 rule 4); rawInput arrives only on a later update.
    const kind = pick(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
    label = KIND_LABEL[kind];
    const raw = kind === 'execute' ? { command: ['bash', '-lc', 'make check'], workdir: ROOT } : { absolute_path: file };
    subjectPairs = pairsOf(raw);
    updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: `${kind} ${sentence(2)}`, kind, status: 'pending' });
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', rawInput: raw });
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: finalContent() });
  } else if (flavour === 'mcp') {
    // An MCP tool through Grok: an envelope without `input`; integer-like keys, whose byte order names the call.
    label = 'Tool';
    const raw = O([['10', `alpha-${hex(4)}`], ['2', `beta-${hex(4)}`], ['limit', 5]]);
    subjectPairs = pairsOf(raw);
    updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: 'notion_search', kind: 'other', status: 'pending', rawInput: raw, _meta: envelope('notion_search', 'other', 'mcp', 'Tool', false) });
    updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: finalContent() });
  } else {
    // Odd but legal: a namespace no strict parser knows, a malformed envelope, an update before its call.
    const odd = pick(['new-namespace', 'malformed', 'early-update']);
    if (odd === 'new-namespace') {
      label = 'Deploy App'; // an unknown label and kind are used as they are (§3)
      const raw = { app: `svc-${hex(4)}`, region: 'eu' };
      subjectPairs = pairsOf(raw);
      updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: 'deploy', kind: 'other', status: 'pending', rawInput: raw, _meta: envelope('deploy', 'hologram_deploy', 'grok_build_next', 'Deploy App', false) });
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: finalContent() });
    } else if (odd === 'malformed') {
      label = 'Search'; // the envelope's label is not a string: it is absent (§3), the ACP kind labels
      const raw = { query: sentence(3) };
      subjectPairs = pairsOf(raw);
      updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: 'web search', kind: 'search', status: 'pending', rawInput: raw, _meta: { 'x.ai/tool': { version: 1, name: 'web_search', kind: 'web_search', namespace: 'grok_build', label: 42, read_only: true } } });
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: finalContent() });
    } else {
      label = 'Read'; // the update before its call is held, not dropped (§4)
      const raw = { path: file };
      subjectPairs = pairsOf(raw);
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', rawInput: raw });
      updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: `Read ${file}`, kind: 'read', status: 'pending', _meta: envelope('read_file', 'read', 'grok_build', 'Read', true, O([['path', file]])) });
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: finalContent() });
    }
  }
  // Status is last write wins (§4): an early update may say in_progress and a later `tool_call` pending.
  let finalStatus = null;
  for (const update of updates) if (update.status) finalStatus = update.status;
  key.calls.push({ id, label, subject: subjectOf(subjectPairs, SUBJECT_KEYS), status: finalStatus ?? 'pending', updates: updates.length });
  return updates;
}


/** An ACP session (JSON-RPC traffic) or, for `grok`, Grok Build's updates.jsonl of it, until `more()` says enough. */
function acpSession(r, sink, key, { format, sessionId, maxCalls, more }) {
  const { rand, pick, int, sentence } = r;
  const { emit, maybeBad } = sink;
  let clock = 1785193970000, rpcId = 0;
  const notify = (update) => {
    maybeBad();
    clock += int(5, 900);
    const params = { sessionId, update, _meta: undefined };
    if (format === 'grok') emit(ser({ timestamp: Math.floor(clock / 1000), method: 'session/update', params: { ...params, _meta: { eventId: `${sessionId}-${sink.lineNo}`, agentTimestampMs: clock } } }));
    else emit(ser({ jsonrpc: '2.0', method: 'session/update', params }));
  };
  const rpc = (method, params, result) => {
    if (format === 'grok') return; // Grok's updates.jsonl keeps session updates only
    const id = ++rpcId;
    emit(ser({ jsonrpc: '2.0', id, method, params }));
    emit(ser({ jsonrpc: '2.0', id, result }));
  };
  let turn = 0;
  while (more()) {
    turn++;
    const prompt = `Turn ${turn}: ${sentence(12)}`;
    notify({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: prompt } });
    notify({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: sentence(20) } });
    if (turn % 5 === 1) notify({ sessionUpdate: 'plan', entries: [{ content: sentence(5), priority: 'high', status: 'in_progress' }, { content: sentence(5), priority: 'medium', status: 'pending' }] });
    const n = Math.min(int(1, 6), maxCalls - key.calls.length);
    // The calls of a turn run at once: their updates interleave, each call's own order kept.
    const queues = Array.from({ length: n }, (_, k) => acpCall(r, key, key.calls.length + k));
    while (queues.some((q) => q.length)) {
      const update = pick(queues.filter((q) => q.length)).shift();
      notify(update);
      if (update.sessionUpdate === 'tool_call' && rand() < 0.15) {
        rpc('session/request_permission', { sessionId, toolCall: { toolCallId: update.toolCallId }, options: [{ optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' }, { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' }] }, { outcome: { outcome: 'selected', optionId: 'allow-once' } });
      }
    }
    for (let c = 0, m = int(1, 4); c < m; c++) notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sentence(int(4, 30)) + ' ' } });
    rpc('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] }, { stopReason: 'end_turn' });
  }
}


/** A hash-chained ledger export (CONTRACTS §9), until `more()` says enough. */
function ledgerSession(r, sink, key, { maxCalls, more }) {
  const { rand, pick, int, hex, sentence, code, termOutput } = r;
  const { emit, maybeBad } = sink;
  const run = `0198f6a2-7c4a-7bbb-9d1e-${hex(12)}`;
  let prev = '0'.repeat(64), seq = 0, t = 0;
  const line = (kind, data, who = 'worker@sim.1') => {
    maybeBad();
    const text = ser({ v: 2, run, seq: seq++, prev, t: t += int(1, 40), who, kind, data });
    emit(text);
    prev = blake3Hex(text);
  };
  line('run_started', O([['goal', sentence(6)], ['task', sentence(4)]]), 'city');
  while (more()) {
    line('model_called', O([['model', 'grok-4.5'], ['segments', [hex(64)]]]));
    const n = Math.min(int(1, 4), maxCalls - key.calls.length);
    const message = O([['content', [O([['kind', 'text'], ['text', sentence(int(5, 40))]])]]]);
    const usage = O([['input', int(1000, 90000)], ['output', int(10, 3000)]]);
    line('model_returned', O([['calls', n], ['message', message], ['usage', usage]]));
    for (let k = 0; k < n; k++) {
      const id = `call_${hex(12)}`;
      const tool = pick(['read', 'edit', 'exec', 'search', 'mcp', 'legacy']);
      const file = `lobby/${pick(NAMES)}${pick(EXTS)}`;
      // A line's own `subject` names the call, a null one included (§6 rule 1); the legacy line has none.
      let data, label, subject;
      if (tool === 'read') { data = O([['args', O([['limit', 200], ['path', file]])], ['effect', 'read'], ['id', id], ['name', 'read'], ['render', 'generic'], ['subject', file]]); label = 'Read'; subject = file; }
      else if (tool === 'edit') { data = O([['args', O([['base_version', hex(8)], ['new', code(4)], ['old', code(3)], ['path', file]])], ['effect', O([['write', O([['domain', 'sim/lobby']])]])], ['id', id], ['name', 'edit'], ['render', O([['diff', O([['locations', []]])]])], ['subject', file]]); label = 'Edit'; subject = file; }
      else if (tool === 'exec') { data = O([['args', O([['arm', O([['shell', O([['text', 'cargo test']])]])]])], ['effect', O([['write', O([['domain', 'sim/lobby']])]])], ['id', id], ['name', 'exec'], ['render', 'terminal']]); label = 'Run Command'; subject = null; }
      else if (tool === 'search') { data = O([['args', O([['path', 'lobby'], ['text', pick(WORDS)]])], ['effect', 'read'], ['id', id], ['name', 'search'], ['render', 'generic'], ['subject', 'lobby']]); label = 'Search'; subject = 'lobby'; }
      else if (tool === 'mcp') { const a = O([['10', `a-${hex(4)}`], ['2', `b-${hex(4)}`]]); data = O([['args', a], ['effect', O([['connector', O([['label', 'notion']])]])], ['id', id], ['name', 'notion_search'], ['render', 'generic'], ['subject', a.pairs[0][1]]]); label = 'Tool'; subject = a.pairs[0][1]; }
      else { const a = O([['10', `x-${hex(4)}`], ['2', `y-${hex(4)}`]]); data = O([['args', a], ['id', id], ['name', 'probe']]); label = 'Tool'; subject = subjectOf(a.pairs, LEDGER_SUBJECT_KEYS); }
      line('tool_called', data);
      const failed = rand() < 0.2;
      const result = failed ? ['error', O([['code', 'not_found'], ['recovery', sentence(5)]])] : ['result', O([['text', tool === 'exec' ? termOutput(int(2, 40)) : code(int(3, 50))]])];
      line('tool_result', O([['name', data.pairs.find(([k]) => k === 'name')[1]], result, ['took_us', int(100, 5_000_000)], ['tool_use_id', id]]));
      // §4: `result` completes the call, `error` fails it.
      key.calls.push({ id, label, subject, status: failed ? 'failed' : 'completed', updates: 2 });
    }
  }
  line('run_frozen', O([['completion', 'done']]), 'city');
}


/**
 * Writes one session, a line at a time (`write` gets each line without its newline), and returns its
 * answer key. Options: format ('acp' | 'grok' | 'ledger'), calls, mb (instead of calls), seed, badRate.
 */
export function generateSession(options, write) {
  const format = options.format ?? 'acp';
  if (!FORMATS.includes(format)) throw new Error(`unknown --format ${format}: use acp, grok or ledger`);
  const maxCalls = options.mb ? Infinity : Number(options.calls ?? 200);
  const maxBytes = options.mb ? Number(options.mb) * 1024 * 1024 : Infinity;
  const badRate = Number(options.badRate ?? 0);
  const r = randomText(Number(options.seed ?? 1));
  const sink = lineSink(write, r, badRate);
  const key = { format, seed: Number(options.seed ?? 1), calls: [], lines: 0, badLines: 0 };
  const more = () => key.calls.length < maxCalls && sink.bytes < maxBytes;
  // Drawn whatever the format, so a seed's later draws are the same in every format.
  const sessionId = `sess_${r.hex(12)}`;
  if (format === 'ledger') ledgerSession(r, sink, key, { maxCalls, more });
  else acpSession(r, sink, key, { format, sessionId, maxCalls, more });
  key.lines = sink.lineNo;
  key.badLines = sink.badLines;
  return key;
}

/** A whole session in memory: its text (each line ended by a newline) and its answer key. */
export function generate(options) {
  const lines = [];
  const key = generateSession(options, (line) => lines.push(line));
  return { text: lines.length ? lines.join('\n') + '\n' : '', key };
}

/** `--name value` pairs; a flag followed by another flag (or nothing) is `true`. */
function parseArgs(argv) {
  const args = {};
  argv.forEach((a, i) => {
    if (a.startsWith('--')) args[a.slice(2)] = argv[i + 1] === undefined || argv[i + 1].startsWith('--') ? 'true' : argv[i + 1];
  });
  return args;
}

async function main(argv) {
  const args = parseArgs(argv);
  const format = args.format ?? 'acp';
  if (!FORMATS.includes(format)) {
    console.error(`unknown --format ${format}: use acp, grok or ledger`);
    return 2;
  }
  const out = args.out ? createWriteStream(args.out) : process.stdout;
  out.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1)); // `| head` is a normal way to end
  // Lines are written in batches of about 64 KiB rather than one write each.
  let pending = '';
  const key = generateSession(
    { format, calls: args.calls, mb: args.mb, seed: args.seed, badRate: args['bad-rate'] },
    (line) => {
      pending += line + '\n';
      if (pending.length >= 65536) { out.write(pending); pending = ''; }
    },
  );
  if (pending) out.write(pending);
  if (args.expect) writeFileSync(args.expect, JSON.stringify(key, null, 1));
  if (args.out) await new Promise((done, fail) => out.end((e) => (e ? fail(e) : done())));
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) process.exitCode = await main(process.argv.slice(2));
