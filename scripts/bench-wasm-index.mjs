#!/usr/bin/env node
// The index's WebAssembly pass, each pick checked and each stage timed: what it costs `loupe
// index` on Claude Code logs, stage by stage. Compiles src/ingest/wasm/assembly/indexScan.ts, checks its
// answers against JSON.parse on every line, then times, by CPU time, runs alternating in this
// process:
//   (a) floor: JSON.parse(buffer.toString('utf8', start, end)) per line;
//   (b) the WebAssembly pass alone (file copied into its memory, lines and spans into its table);
//   (c) (b) + the strings the index needs (type, uuid, sessionId reused, timestamp) from the spans;
//   (d) (c) + JSON.parse of the `message` span of `user` and `assistant` lines;
//   (e) (d) + JSON.parse of a `user` line's `toolUseResult` span (claudeCode.ts reads it as a tool's output);
//   (f) (c) + what the fold keeps from `message` and `toolUseResult`, from the pass's picks inside them
//       (message.id, usage counts, tool ids and names, is_error, exit codes, agentId) + JSON.parse
//       of tool_use `input` spans only: no `message` parsed whole;
//   (g) (f) + the text of text blocks and string contents decoded; (g2) thinking blocks' text too.
// node scripts/bench-wasm-index.mjs [--dir DIR (default: 200 copies of the real samples, made in a temp folder)] [--every 5] [--rounds 5]
/* global WebAssembly */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { arg, claudeLogsDir, jsonlFiles } from './bench-common.mjs';
import { compileIndexScan } from './build-wasm.mjs';

const FIELDS = ['type', 'uuid', 'timestamp', 'sessionId', 'isSidechain', 'agentId', 'message', 'toolUseResult', 'data'];
const [F_TYPE, F_UUID, F_TIMESTAMP, F_SESSION_ID, , , F_MESSAGE, F_TOOL_USE_RESULT] = FIELDS.keys();
// Picked inside `message`, its `usage`, `toolUseResult` and its `metadata`: [slot, path].
const NESTED = [
  ['message', 'id'], ['message', 'usage'], ['message', 'content'],
  ['usage', 'input_tokens'], ['usage', 'output_tokens'], ['usage', 'cache_creation_input_tokens'], ['usage', 'cache_read_input_tokens'],
  ['toolUseResult', 'exit_code'], ['toolUseResult', 'exitCode'], ['toolUseResult', 'code'], ['toolUseResult', 'agentId'], ['toolUseResult', 'metadata'],
  ['metadata', 'exit_code'],
].map(([parent, key], k) => ({ parent, key, slot: FIELDS.length + k }));
const [M_ID, M_USAGE, M_CONTENT, U_INPUT, U_OUTPUT, U_CACHE_CREATION, U_CACHE_READ, R_EXIT_CODE, R_EXITCODE, R_CODE, R_AGENT_ID] = NESTED.map((f) => f.slot);
const FIRST_BLOCK_WORD = 3 + 2 * (FIELDS.length + NESTED.length);
const BLOCK_FIELDS = ['type', 'text', 'thinking', 'id', 'name', 'input', 'tool_use_id', 'is_error', 'content'];
const [, B_TEXT, B_THINKING, B_ID, B_NAME, B_INPUT, B_TOOL_USE_ID, B_IS_ERROR, B_CONTENT] = BLOCK_FIELDS.keys();
const KINDS = ['other', 'text', 'thinking', 'tool_use', 'tool_result'];
const [, K_TEXT, K_THINKING, K_TOOL_USE, K_TOOL_RESULT] = KINDS.keys();
const BLOCK_PLAIN_SHIFT = 4;
const BLOCK_NO_ESCAPE_SHIFT = 16;
const OK = 1;
const JS_PATH = 2;
const INVALID = 4;
const BLANK = 8;
const SAME_SESSION = 16;
const PLAIN_SHIFT = 8;

const dir = await claudeLogsDir(arg('dir', ''));
const every = Number(arg('every', '5'));
const rounds = Number(arg('rounds', '5'));
const files = jsonlFiles(dir)
  .sort()
  .filter((_, i) => i % every === 0);
const buffers = files.map((f) => readFileSync(f));
const totalBytes = buffers.reduce((n, b) => n + b.length, 0);

const binary = await compileIndexScan((process.env.ASC_FLAGS ?? '').split(' ').filter(Boolean));
const { instance } = await WebAssembly.instantiate(binary, {
  env: {
    abort() {
      throw new Error('abort');
    },
  },
});
const wasm = instance.exports;
const WORDS = wasm.wordsPerLine();
const tableWord = wasm.tableAt() >>> 2;
const BLOCK_WORDS = wasm.wordsPerBlock();
const blockWord = wasm.blocksAt() >>> 2;
if (FIRST_BLOCK_WORD + 2 !== WORDS) throw new Error('table layout');
const inputAt = wasm.input();
console.log(`module: ${binary.length} bytes; ${files.length} files, ${(totalBytes / 1e6).toFixed(1)} MB (every ${every}th of ${dir})`);

/** Copies `buffer` into the module and calls `onLines(table, lines)` per filled table. */
function scanFile(buffer, onLines) {
  if (!wasm.reserve(buffer.length)) throw new Error('memory');
  new Uint8Array(wasm.memory.buffer, inputAt, buffer.length).set(buffer);
  const table = new Uint32Array(wasm.memory.buffer);
  let from = 0;
  for (;;) {
    const lines = wasm.scan(from, buffer.length);
    if (lines === 0) return;
    onLines(table, lines);
    from = wasm.resumeAt();
  }
}

function parseLine(buffer, start, end) {
  try {
    return JSON.parse(buffer.toString('utf8', start, end));
  } catch {
    return undefined;
  }
}

// (a)
function floor() {
  let sink = 0;
  for (const buffer of buffers) {
    let start = 0;
    while (start < buffer.length) {
      let end = buffer.indexOf(10, start);
      if (end < 0) end = buffer.length;
      if (end > start) {
        const value = parseLine(buffer, start, end);
        if (value !== undefined) sink++;
      }
      start = end + 1;
    }
  }
  return sink;
}

// (b)
function wasmAlone() {
  let sink = 0;
  for (const buffer of buffers) {
    scanFile(buffer, (table, lines) => {
      for (let l = 0; l < lines; l++) sink += table[tableWord + l * WORDS + 2] & OK;
    });
  }
  return sink;
}

function stringAt(buffer, table, row, field, flags) {
  const start = table[row + 3 + 2 * field];
  const end = table[row + 4 + 2 * field];
  if (end === 0) return undefined;
  if (flags & (1 << (PLAIN_SHIFT + field))) return buffer.latin1Slice(start + 1, end - 1);
  return JSON.parse(buffer.toString('utf8', start, end));
}

/** A picked number (usage counts, exit codes): the fold reads only numbers; anything else is NOT_NUMBER. */
const NOT_NUMBER = Symbol('not a number');
function numberAt(buffer, table, row, field) {
  const start = table[row + 3 + 2 * field];
  const end = table[row + 4 + 2 * field];
  if (end === 0) return undefined;
  const c = buffer[start];
  if (c !== 0x2d && (c < 0x30 || c > 0x39)) return NOT_NUMBER;
  // Counts are short integers: read their digits here rather than slice a string for Number().
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = buffer[i];
    if (d < 0x30 || d > 0x39 || i - start > 14) return Number(buffer.latin1Slice(start, end));
    n = n * 10 + (d - 0x30);
  }
  return n;
}

/** A block's field: a string from its span (latin1 when plain, UTF-8 when no escape), else its JSON value. */
function blockValueAt(buffer, table, block, field, flags) {
  const start = table[block + 2 + 2 * field];
  const end = table[block + 3 + 2 * field];
  if (end === 0) return undefined;
  if (flags & (1 << (BLOCK_PLAIN_SHIFT + field))) return buffer.latin1Slice(start + 1, end - 1);
  if (flags & (1 << (BLOCK_NO_ESCAPE_SHIFT + field))) return buffer.utf8Slice(start + 1, end - 1);
  return JSON.parse(buffer.utf8Slice(start, end));
}

// (f) with `text` 0; (g) with 1 (text blocks and string contents decoded); (g2) with 2 (thinking
// too); (h) with 3 (tool_result contents too: a string decoded, an array parsed); (f0): (f) without
// the tool_use inputs parsed (`inputs` false)
function wasmPicked(text, inputs = true) {
  let sink = 0;
  for (const buffer of buffers) {
    let sessionId;
    scanFile(buffer, (table, lines) => {
      for (let l = 0; l < lines; l++) {
        const row = tableWord + l * WORDS;
        const flags = table[row + 2];
        if (flags & OK) {
          const type = stringAt(buffer, table, row, F_TYPE, flags);
          const uuid = stringAt(buffer, table, row, F_UUID, flags);
          if (!(flags & SAME_SESSION)) sessionId = stringAt(buffer, table, row, F_SESSION_ID, flags);
          const timestamp = stringAt(buffer, table, row, F_TIMESTAMP, flags);
          sink += (type?.length ?? 0) + (uuid?.length ?? 0) + (sessionId?.length ?? 0) + (timestamp?.length ?? 0);
          const user = type === 'user';
          if (!user && type !== 'assistant') continue;
          if (!user) {
            const messageId = stringAt(buffer, table, row, M_ID, flags);
            sink += messageId?.length ?? 0;
            if (table[row + 4 + 2 * M_USAGE] !== 0) {
              const counts = [numberAt(buffer, table, row, U_INPUT), numberAt(buffer, table, row, U_OUTPUT), numberAt(buffer, table, row, U_CACHE_CREATION), numberAt(buffer, table, row, U_CACHE_READ)];
              if (typeof counts[0] === 'number') sink += counts[0];
            }
          } else if (table[row + 4 + 2 * F_TOOL_USE_RESULT] !== 0) {
            const code = numberAt(buffer, table, row, R_EXIT_CODE) ?? numberAt(buffer, table, row, R_EXITCODE) ?? numberAt(buffer, table, row, R_CODE);
            if (typeof code === 'number') sink += code;
            const agentId = stringAt(buffer, table, row, R_AGENT_ID, flags);
            sink += agentId?.length ?? 0;
          }
          const contentStart = table[row + 3 + 2 * M_CONTENT];
          if (text > 0 && buffer[contentStart] === 0x22) sink += stringAt(buffer, table, row, M_CONTENT, flags).length;
          const first = table[row + FIRST_BLOCK_WORD];
          const count = table[row + FIRST_BLOCK_WORD + 1];
          for (let b = first; b < first + count; b++) {
            const block = blockWord + b * BLOCK_WORDS;
            const blockFlags = table[block + 1];
            const kind = blockFlags & 15;
            if (kind === K_TOOL_USE) {
              const id = blockValueAt(buffer, table, block, B_ID, blockFlags);
              const name = blockValueAt(buffer, table, block, B_NAME, blockFlags);
              sink += id.length + name.length;
              if (inputs && blockValueAt(buffer, table, block, B_INPUT, blockFlags) !== null) sink++;
            } else if (kind === K_TOOL_RESULT) {
              const id = blockValueAt(buffer, table, block, B_TOOL_USE_ID, blockFlags);
              const isError = table[block + 3 + 2 * B_IS_ERROR] - table[block + 2 + 2 * B_IS_ERROR] === 4 && buffer[table[block + 2 + 2 * B_IS_ERROR]] === 0x74;
              sink += id.length + (isError ? 1 : 0);
              if (text > 2) {
                const content = blockValueAt(buffer, table, block, B_CONTENT, blockFlags);
                if (content !== undefined && content !== null) sink++;
              }
            } else if (kind === K_TEXT && text > 0) {
              sink += blockValueAt(buffer, table, block, B_TEXT, blockFlags).length;
            } else if (kind === K_THINKING && text > 1) {
              sink += blockValueAt(buffer, table, block, B_THINKING, blockFlags).length;
            }
          }
        } else if (!(flags & BLANK)) {
          const value = parseLine(buffer, table[row], table[row + 1]);
          if (value !== undefined) sink++;
        }
      }
    });
  }
  return sink;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The picks inside `message` and `toolUseResult` held to the parsed line's. */
function checkNested(buffer, table, row, flags, value, where, counts, problems) {
  const parents = { message: value.message, toolUseResult: value.toolUseResult };
  parents.usage = isObject(parents.message) ? parents.message.usage : undefined;
  parents.metadata = isObject(parents.toolUseResult) ? parents.toolUseResult.metadata : undefined;
  for (const { parent, key, slot } of NESTED) {
    const object = isObject(parents[parent]) ? parents[parent] : undefined;
    const has = object !== undefined && Object.hasOwn(object, key);
    if (has !== (table[row + 4 + 2 * slot] !== 0)) {
      problems.push(`${where}: ${parent}.${key} ${has ? 'missed' : 'invented'}`);
      continue;
    }
    if (!has) continue;
    counts[`picked.${parent}.${key}`] = (counts[`picked.${parent}.${key}`] ?? 0) + 1;
    const expected = object[key];
    const numeric = parent === 'usage' || key.endsWith('xit_code') || key === 'exitCode' || key === 'code';
    const got = numeric ? numberAt(buffer, table, row, slot) : stringAt(buffer, table, row, slot, flags);
    if (!isDeepStrictEqual(got, numeric && typeof expected !== 'number' ? NOT_NUMBER : expected)) problems.push(`${where}: ${parent}.${key} differs`);
  }
  const content = isObject(parents.message) ? parents.message.content : undefined;
  const expectedBlocks = Array.isArray(content) ? content.filter(isObject) : [];
  const first = table[row + FIRST_BLOCK_WORD];
  const count = table[row + FIRST_BLOCK_WORD + 1];
  counts.blocks += count;
  if (count !== expectedBlocks.length) {
    problems.push(`${where}: ${count} blocks, not ${expectedBlocks.length}`);
    return;
  }
  for (const [k, expected] of expectedBlocks.entries()) {
    const block = blockWord + (first + k) * BLOCK_WORDS;
    const blockFlags = table[block + 1];
    const kind = KINDS.indexOf(expected.type);
    counts[`block.${KINDS[Math.max(kind, 0)]}`] = (counts[`block.${KINDS[Math.max(kind, 0)]}`] ?? 0) + 1;
    if ((blockFlags & 15) !== Math.max(kind, 0)) problems.push(`${where}: block ${k} kind ${blockFlags & 15}, not ${expected.type}`);
    if (table[block] !== (row - tableWord) / WORDS) problems.push(`${where}: block ${k} names line ${table[block]}`);
    for (const [f, key] of BLOCK_FIELDS.entries()) {
      const has = Object.hasOwn(expected, key);
      if (has !== (table[block + 3 + 2 * f] !== 0)) {
        problems.push(`${where}: block ${k} ${key} ${has ? 'missed' : 'invented'}`);
        continue;
      }
      if (has && !isDeepStrictEqual(blockValueAt(buffer, table, block, f, blockFlags), expected[key])) problems.push(`${where}: block ${k} ${key} differs`);
    }
  }
}

// (b0): the file copied in and its newlines counted, no JSON: the floor of any pass over the bytes
function copyAndNewlines() {
  let sink = 0;
  for (const buffer of buffers) {
    if (!wasm.reserve(buffer.length)) throw new Error('memory');
    new Uint8Array(wasm.memory.buffer, inputAt, buffer.length).set(buffer);
    sink += wasm.countNewlines(buffer.length);
  }
  return sink;
}

// (c); (d) with `messages` 'parse'; (d0), the message's text decoded but not parsed, with 'decode'; (e) 'parse+result'
function wasmWithStrings(messages) {
  let sink = 0;
  for (const buffer of buffers) {
    let sessionId;
    scanFile(buffer, (table, lines) => {
      for (let l = 0; l < lines; l++) {
        const row = tableWord + l * WORDS;
        const flags = table[row + 2];
        if (flags & OK) {
          const type = stringAt(buffer, table, row, F_TYPE, flags);
          const uuid = stringAt(buffer, table, row, F_UUID, flags);
          if (!(flags & SAME_SESSION)) sessionId = stringAt(buffer, table, row, F_SESSION_ID, flags);
          const timestamp = stringAt(buffer, table, row, F_TIMESTAMP, flags);
          sink += (type?.length ?? 0) + (uuid?.length ?? 0) + (sessionId?.length ?? 0) + (timestamp?.length ?? 0);
          if (messages && (type === 'user' || type === 'assistant')) {
            const end = table[row + 4 + 2 * F_MESSAGE];
            if (end !== 0) {
              const text = buffer.toString('utf8', table[row + 3 + 2 * F_MESSAGE], end);
              if (messages === 'decode') sink += text.length;
              else if (JSON.parse(text) !== null) sink++;
            }
            const resultEnd = table[row + 4 + 2 * F_TOOL_USE_RESULT];
            if (messages === 'parse+result' && type === 'user' && resultEnd !== 0) {
              if (JSON.parse(buffer.toString('utf8', table[row + 3 + 2 * F_TOOL_USE_RESULT], resultEnd)) !== null) sink++;
            }
          }
        } else if (!(flags & BLANK)) {
          // The JS path: the line read as today.
          const value = parseLine(buffer, table[row], table[row + 1]);
          if (value !== undefined) sink++;
        }
      }
    });
  }
  return sink;
}

/** Every line's answer held to JSON.parse's; counts of each path. */
function check(buffers, files) {
  const counts = { lines: 0, bytes: 0, ok: 0, okBytes: 0, js: 0, jsBytes: 0, invalid: 0, invalidBytes: 0, blank: 0, blocks: 0 };
  const problems = [];
  for (const [f, buffer] of buffers.entries()) {
    let expectedStart = 0;
    let previousSession;
    scanFile(buffer, (table, lines) => {
      for (let l = 0; l < lines; l++) {
        const row = tableWord + l * WORDS;
        const [start, end, flags] = [table[row], table[row + 1], table[row + 2]];
        let newline = buffer.indexOf(10, expectedStart);
        if (newline < 0) newline = buffer.length;
        const where = `${files[f]} line ${counts.lines + 1}`;
        if (start !== expectedStart) problems.push(`${where}: starts at ${start}, not ${expectedStart}`);
        const text = buffer.toString('utf8', start, newline);
        let value;
        let parsed = true;
        try {
          value = JSON.parse(text);
        } catch {
          parsed = false;
        }
        counts.lines++;
        counts.bytes += newline - start;
        expectedStart = newline + 1;
        if (flags & BLANK) {
          counts.blank++;
          if (text.trim() !== '') problems.push(`${where}: blank?`);
          continue;
        }
        if (flags & JS_PATH) {
          counts.js++;
          counts.jsBytes += newline - start;
          continue;
        }
        if (flags & INVALID) {
          counts.invalid++;
          counts.invalidBytes += newline - start;
          const validUtf8 = Buffer.from(text, 'utf8').equals(buffer.subarray(start, newline));
          if (parsed && validUtf8) problems.push(`${where}: refused, JSON.parse reads it`);
          continue;
        }
        counts.ok++;
        counts.okBytes += newline - start;
        if (end !== newline) problems.push(`${where}: ends at ${end}, not ${newline}`);
        if (!parsed) {
          problems.push(`${where}: accepted, JSON.parse refuses it`);
          continue;
        }
        const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
        for (const [k, name] of FIELDS.entries()) {
          const has = isObject && Object.hasOwn(value, name);
          const fieldEnd = table[row + 4 + 2 * k];
          if (has !== (fieldEnd !== 0)) {
            problems.push(`${where}: ${name} ${has ? 'missed' : 'invented'}`);
            continue;
          }
          if (!has) continue;
          const got = stringAt(buffer, table, row, k, flags);
          if (!(flags & (1 << (PLAIN_SHIFT + k))) && typeof got === 'string') counts[`notPlain.${name}`] = (counts[`notPlain.${name}`] ?? 0) + 1;
          if (!isDeepStrictEqual(got, value[name])) problems.push(`${where}: ${name} differs`);
        }
        if (isObject) checkNested(buffer, table, row, flags, value, where, counts, problems);
        if (flags & SAME_SESSION && value.sessionId !== previousSession) problems.push(`${where}: sessionId not the previous one`);
        if (isObject && typeof value.sessionId === 'string') previousSession = value.sessionId;
      }
    });
  }
  return { counts, problems };
}

// Lines that take each path (the fleet has none off the fast one): blank, a field twice, an escaped
// key, nesting past 64, invalid UTF-8, not JSON, no newline at the end.
const HOSTILE = Buffer.concat([
  Buffer.from(
    [
      '{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"t","message":{"role":"user","content":"hi"}}',
      '',
      '   ',
      '{"type":"user","type":"assistant","sessionId":"s1"}',
      '{"ty\\u0070e":"user","sessionId":"s1"}',
      `{"type":"user","sessionId":"s1","x":${'['.repeat(70)}${']'.repeat(70)}}`,
      `{"type":"user","sessionId":"s1","x":${'['.repeat(60)}${']'.repeat(60)}}`,
      '',
    ].join('\n'),
  ),
  Buffer.from([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
  Buffer.from(
    [
      '{"type":"\u00e9t\\u00e9","sessionId":"s2", "message" : { "a" : [1, 2.5e3, -0, true, false, null, "\\n"] } }\r',
      '{"type":"user",}',
      '{"type":"user"} x',
      '[1,2,{"type":"x"}]',
      '"str"',
      '{"data":{},"toolUseResult":[],"isSidechain":true,"agentId":"a\\"b","message":null,"sessionId":"s2"}',
      `{"type":"user","sessionId":"s2","timestamp":"2026-12-01T14:08:54.927Z","uuid":"${'x'.repeat(100)}"}`,
      '{"a":"unterminated',
      '{"type":"last","sessionId":"s2"}',
    ].join('\n'),
  ),
]);
// Inside `message` and `toolUseResult`: picks of every shape, and the oddities that take the JS path.
const NESTED_HOSTILE = Buffer.from(
  [
    '{"type":"assistant","message":{"id":"m\\u00e9","usage":{"input_tokens":-1.5e2,"output_tokens":"7","cache_read_input_tokens":0},"content":[1,"x",{"type":"text","text":"h\\u00e9 \\"q\\""},{"type":"thinking","thinking":"été"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls","n":[1,{"a":null}]}},{"type":"image"},{"type":"téxt"},{}]}}',
    '{"type":"user","toolUseResult":{"exit_code":"1","exitCode":2,"agentId":"a1","metadata":{"exit_code":3}},"message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"out"}]}]}}',
    '{"type":"user","toolUseResult":"Error: Exit code 1","message":{"content":"plain \\n text","usage":null}}',
    '{"type":"user","toolUseResult":[{"code":1}],"message":{"content":{"type":"text"}}}',
    '{"type":"assistant","message":{"id":"a","id":"b"}}',
    '{"type":"assistant","message":{"usage":{"input_tokens":1,"input_tokens":2}}}',
    '{"type":"assistant","message":{"i\\u0064":"a"}}',
    '{"type":"assistant","message":{"content":[{"type":"te\\u0078t","text":"x"}]}}',
    '{"type":"user","toolUseResult":{"metadata":{"exit_code":1},"metadata":{}}}',
    `{"type":"assistant","message":{"content":[${Array(600).fill('{"type":"text","text":"x"}').join(',')}]}}`,
    '',
  ].join('\n'),
);
const hostile = check([Buffer.concat([NESTED_HOSTILE, HOSTILE])], ['hostile']);
const expected = { lines: 27, ok: 12, js: 9, invalid: 4, blank: 2 };
for (const [key, n] of Object.entries(expected)) if (hostile.counts[key] !== n) hostile.problems.push(`hostile: ${key} ${hostile.counts[key]}, not ${n}`);
console.log(`hostile lines: ${hostile.problems.length} problems`);
for (const p of hostile.problems) console.log('  ', p);

const { counts, problems } = check(buffers, files);
console.log('check:', JSON.stringify(counts));
console.log(`problems: ${problems.length}`);
for (const p of problems.slice(0, 10)) console.log('  ', p);

const variants = {
  a: floor,
  b0: copyAndNewlines,
  b: wasmAlone,
  c: () => wasmWithStrings(false),
  d0: () => wasmWithStrings('decode'),
  d: () => wasmWithStrings('parse'),
  e: () => wasmWithStrings('parse+result'),
  f0: () => wasmPicked(0, false),
  f: () => wasmPicked(0),
  g: () => wasmPicked(1),
  g2: () => wasmPicked(2),
  h: () => wasmPicked(3),
};
const best = {};
const names = (arg('only', '') || Object.keys(variants).join(',')).split(',');
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length];
    const before = process.cpuUsage();
    variants[name]();
    const used = process.cpuUsage(before);
    const ms = (used.user + used.system) / 1000;
    best[name] = Math.min(best[name] ?? Infinity, ms);
  }
}
for (const name of names) {
  const ms = best[name];
  if (ms === undefined) continue;
  console.log(
    `(${name}) ${ms.toFixed(0).padStart(5)} ms CPU  ${((totalBytes / 1e6) / (ms / 1000)).toFixed(0).padStart(5)} MB/s  ${(ms / (best.a ?? NaN)).toFixed(3)} of (a)`,
  );
}
console.log(`JS path: ${counts.js} lines (${((100 * counts.js) / counts.lines).toFixed(3)}%), ${((100 * counts.jsBytes) / counts.bytes).toFixed(3)}% of bytes; invalid: ${counts.invalid} lines, ${counts.invalidBytes} bytes`);
