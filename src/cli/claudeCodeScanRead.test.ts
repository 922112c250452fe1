// The index's read fed from the WebAssembly pass's tables gives the
// rows today's per-line read gives, on every fixture, on lines written to reach each case it covers
// or leaves to the JS path, and on a real Claude Code log changed at random.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fleetRows } from '../analysis/fleet';
import { summarize } from '../model/summary';
import { readClaudeCodeForRows } from '../model/claudeCodeRead';
import { indexScanner, type IndexScanExports } from '../ingest/wasm/indexScanner';
import { readClaudeCodeForRowsFromScan, readClaudeCodeForRowsInWindows, type ScanReadCounts } from './claudeCodeScanRead';
import { bufferLines } from './bufferLines';
import { EntryIds } from '../model/fold/entryIds';
import { claudeLogEdit, editedClaudeLog } from './testing/claudeLogEdits';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'fixtures');
const FACTS = { file: 'f', bytes: 0, modifiedMs: 0, headFormat: 'claude-code', project: null, startedMs: null, sessionId: null, title: null };

const scanner = indexScanner();
if (!scanner) throw new Error('WebAssembly with SIMD is missing: Node 20 has it');
const wasm: IndexScanExports = scanner;

/** A file's reads as readSync gives them: at most `most` bytes each (a pipe or a network file gives less than asked). */
function readsOf(buffer: Buffer, most: number): (target: Uint8Array) => number {
  let at = 0;
  return (target) => {
    const n = Math.min(target.length, most, buffer.length - at);
    target.set(buffer.subarray(at, at + n));
    at += n;
    return n;
  };
}

/**
 * The rows of both reads the same; and the same session (every call with its history's line,
 * offset and length, the transcript, the counts) read whole or in windows of `windowBytes`,
 * lines longer than a window among them. Read as the index reads (rows alone: no history, no
 * message text), each gives the same rows as it does keeping the whole session.
 */
function expectSameRows(buffer: Buffer, name: string, windowBytes = 61, most = 1 << 20): ScanReadCounts {
  const counts = { fast: 0, js: 0, blank: 0 };
  const today = readClaudeCodeForRows(buffer, bufferLines(buffer), 'session');
  const scanned = readClaudeCodeForRowsFromScan(buffer, wasm, bufferLines(buffer), counts, 'session');
  expect(scanned === null, name).toBe(today === null);
  if (today && scanned) {
    expect(fleetRows(scanned, FACTS), name).toEqual(fleetRows(today, FACTS));
    // Every call as the per-line read has it, its history too: what the pass reads for a call
    // without parsing it (a result's content array) stands for what the parse would give.
    expect([...scanned.calls.values()], name).toEqual([...today.calls.values()]);
  }
  const bom = buffer[0] === 0xef && buffer[1] === 0xbb;
  // Read for rows alone: each way, in windows too as `loupe summarize` and the index read a file (a BOM is ingest's there).
  const rowReads = [readClaudeCodeForRows(buffer, bufferLines(buffer)), readClaudeCodeForRowsFromScan(buffer, wasm, bufferLines(buffer))];
  if (!bom) rowReads.push(readClaudeCodeForRowsInWindows(readsOf(buffer, most), wasm, windowBytes));
  for (const rowsOnly of rowReads) {
    expect(rowsOnly === null, name).toBe(today === null);
    if (rowsOnly && today) {
      expect(fleetRows(rowsOnly, FACTS), name).toEqual(fleetRows(today, FACTS));
      // What `loupe summarize` prints of a Claude Code log, read this way.
      expect(summarize(rowsOnly), name).toEqual(summarize(today));
      expect([...rowsOnly.calls.values()].every((call) => call.history.length === 0), name).toBe(true);
    }
  }
  const windowed = readClaudeCodeForRowsInWindows(readsOf(buffer, most), wasm, windowBytes, undefined, 'session');
  if (bom) expect(windowed, `${name}: a BOM is ingest's`).toBeNull();
  else {
    expect(windowed === null, name).toBe(scanned === null);
    if (windowed && scanned) {
      expect(windowed.counts, name).toEqual(scanned.counts);
      expect([...windowed.calls.values()], name).toEqual([...scanned.calls.values()]);
      expect(windowed.items, name).toEqual(scanned.items);
    }
  }
  return counts;
}

const S = '"sessionId":"s1","timestamp":"2026-12-01T14:08:29.596Z"';
/** Lines for each case: [line, the path it takes]. */
const CASES: [string, 'fast' | 'js' | 'blank'][] = [
  [`{"type":"user","uuid":"u1",${S},"message":{"role":"user","content":"hi"}}`, 'fast'],
  [`{"type":"user","uuid":"u2",${S},"isMeta":true,"message":{"role":"user","content":"caveat"}}`, 'fast'],
  [`{"type":"user","uuid":"u3",${S},"isMeta":false,"message":{"role":"user","content":[{"type":"text","text":"é \\"q\\""}]}}`, 'fast'],
  [`{"type":"user","uuid":"u4",${S},"isMeta":"yes","message":{"role":"user","content":"x"}}`, 'js'],
  [`{"type":"user","uuid":"u5",${S},"message":{"role":"user","content":"<command-name>/model</command-name><command-args> opus </command-args>"}}`, 'fast'],
  [`{"type":"assistant","uuid":"a1",${S},"message":{"id":"m1","usage":{"input_tokens":10,"output_tokens":2,"total_tokens":99,"cache_read_input_tokens":"3"},"content":[{"type":"thinking","thinking":"hm"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"false"}},"junk",{"type":"tool_use","id":"t2","name":"TodoWrite","input":{"todos":[{"content":"a","status":"completed"},{"step":"b"}]}}]}}`, 'fast'],
  [`{"type":"assistant","uuid":"a2",${S},"message":{"id":"m1","usage":{"input_tokens":11,"output_tokens":5,"cost":{"total":0.5}},"content":[{"type":"tool_use","id":"t3","name":"Read","input":{"1":"x","file_path":"/a"}}]}}`, 'js'],
  [`{"type":"assistant","uuid":"a3",${S},"message":{"id":"m2","usage":{"input_tokens":1.5e1,"output_tokens":-0,"cache_creation_input_tokens":7},"content":[{"type":"tool_use","id":"t4","name":"Grep","input":{"pattern":"x"}}]}}`, 'fast'],
  [`{"type":"user","uuid":"u6",${S},"toolUseResult":{"exit_code":"1","exitCode":2.5,"code":3,"stdout":"x"},"message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"out"}]}]}}`, 'fast'],
  [`{"type":"user","uuid":"u7",${S},"toolUseResult":{"metadata":{"exit_code":4}},"message":{"content":[{"type":"tool_result","tool_use_id":"t4","content":"done"}]}}`, 'fast'],
  [`{"type":"user","uuid":"u8",${S},"toolUseResult":"Error: Exit code 7","message":{"content":[{"type":"tool_result","tool_use_id":"t2","is_error":"true","content":"Error: Exit code 7"}]}}`, 'fast'],
  [`{"type":"user","uuid":"u9",${S},"toolUseResult":{"agentId":"agent-1","exitCode":0},"message":{"content":[{"type":"tool_result","tool_use_id":"t3","content":[]},{"type":"tool_result","tool_use_id":5}]}}`, 'fast'],
  [`{"type":"user","uuid":"u10",${S},"toolUseResult":{"agentId":"agent-2"},"message":{"content":[{"type":"tool_result","tool_use_id":"t3","content":"r"}]}}`, 'fast'],
  [`{"type":"assistant","uuid":"a4","sessionId":"s1","isSidechain":true,"agentId":"agent-2","timestamp":"2026-12-01T14:08:30Z","message":{"id":"m3","content":[{"type":"tool_use","id":"t5","name":"Edit","input":{"file_path":"/b"}}]}}`, 'fast'],
  [`{"type":"progress","uuid":"p1",${S},"data":{"type":"hook_progress","agentId":""},"parentToolUseID":"t5"}`, 'fast'],
  [`{"type":"progress","uuid":"p3",${S},"data":{"type":"hook_progress","message":{"agentId":"agent-6"},"agentId":7},"parentToolUseID":"t5"}`, 'fast'],
  [`{"type":"system","uuid":"y1",${S},"subtype":"compact_boundary","content":"x"}`, 'fast'],
  [`{"type":"assistant","uuid":"a1",${S},"message":{"id":"m1","usage":{"input_tokens":12,"output_tokens":9},"content":[]}}`, 'fast'],
  [`{"type":"user","uuid":"u11","sessionId":"s2","message":{"content":"other session"}}`, 'fast'],
  [`{"type":"user","uuid":"u12","sessionId":"s2","message":{"content":[{"type":"text","text":"x"},{"type":"te\\u0078t","text":"y"}]}}`, 'js'],
  [`{"type":"user","uuid":"u13","session\\u0049d":"s2","message":{"content":"x"}}`, 'js'],
  // A result's content array, read by the pass for whether it holds a text block (its answer, or a parse where it is not sure).
  ...[
    '[{"type":"image","source":{"type":"text","text":"x"}},{"type":"text","text":"a"}]',
    '[{"type":"image"},"text",{"text":"t"},{"type":"text"}]',
    '[{"type":"text","text":7},{"type":"text","text":null}]',
    '[{"type":"t\\u0065xt","text":"x"}]',
    '[{"t\\u0079pe":"text","text":"x"}]',
    '[{"type":"text","type":"image","text":"x"}]',
    '[{"type":"image","type":"text","text":"x"}]',
    '[{"type":"text","text":"a","text":1}]',
    '[{"type" : "text" , "text" : "spaced"} , [ {"type":"text","text":"deeper"} ]]',
    '[{"type":"tëxt","text":"x"},{"type":"text","text":"é"}]',
    '[{}]',
  ].map((content, n): [string, 'fast'] => [`{"type":"user","uuid":"r${n}",${S},"message":{"content":[{"type":"tool_result","tool_use_id":"t${n}","content":${content}}]}}`, 'fast']),
  [`{"type":"user","leafUuid":"l1","message":{"content":"x"}}`, 'js'],
  [`{"type":"last-prompt","lastPrompt":"p","sessionId":"s2"}`, 'fast'],
  ['', 'blank'],
  [' \t\r', 'blank'],
  [`{"type":"assistant","uuid":"a5",${S},"message":{"id":"m5","content":"plain text answer","usage":null}}`, 'fast'],
  [`{"type":"assistant","uuid":"a6",${S},"message":{"id":7,"content":{"type":"text"},"usage":[]}}`, 'fast'],
  // An entry written again, once on each path: the pass packs the uuid it read (EntryIds.addWords),
  // the per-line read notes its string, and either way the copy is not folded again.
  ...[
    '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', '0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0',
  ].flatMap((uuid, n): [string, 'fast' | 'js'][] => {
    const js: [string, 'js'] = [`{"type":"assistant","uuid":"${uuid}",${S},"message":{"id":"w${n}","content":[{"type":"tool_use","id":"tw${n}","name":"Read","input":{"1":"x","file_path":"/w"}}]}}`, 'js'];
    const fast: [string, 'fast'] = [`{"type":"assistant","uuid":"${uuid}",${S},"message":{"id":"w${n}","content":[{"type":"tool_use","id":"tw${n}","name":"Edit","input":{"file_path":"/w${n}"}}]}}`, 'fast'];
    return n === 1 ? [fast, js] : [js, fast];
  }),
];

describe('the pass packs an entry’s uuid as EntryIds does', () => {
  const hex = fc.constantFrom(...'0123456789abcdef');
  const digits = (n: number) => fc.array(hex, { minLength: n, maxLength: n }).map((d) => d.join(''));
  const usual = fc.tuple(digits(8), digits(4), digits(4), digits(4), digits(12)).map((parts) => parts.join('-'));
  const nearMiss = fc.oneof(usual.map((uuid) => uuid.toUpperCase()), usual.map((uuid) => `${uuid.slice(0, 35)}g`), usual.map((uuid) => `${uuid.slice(1)}0`), usual.map((uuid) => `${uuid.slice(0, 8)}0${uuid.slice(9)}`));

  it('so a uuid noted as a string is found from the words the pass wrote, and only a usual one is packed', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(usual, nearMiss), { minLength: 1, maxLength: 40 }), (uuids) => {
        const bytes = Buffer.from(uuids.map((uuid) => `{"type":"user","uuid":"${uuid}",${S}}`).join('\n'));
        expect(wasm.reserve(bytes.length)).toBeTruthy();
        new Uint8Array(wasm.memory.buffer, wasm.input(), bytes.length).set(bytes);
        expect(wasm.scan(0, bytes.length)).toBe(uuids.length);
        const words = new Uint32Array(wasm.memory.buffer);
        const perLine = wasm.wordsPerLine();
        // The uuid's five words end the row (assembly/indexScan.ts: UUID_WORD).
        const uuidWord = perLine - 5;
        uuids.forEach((uuid, line) => {
          const row = (wasm.tableAt() >>> 2) + line * perLine;
          const packed = words[row + uuidWord]!;
          expect(packed !== 0, uuid).toBe(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid));
          if (packed === 0) return;
          const ids = new EntryIds();
          ids.add(uuid);
          expect(ids.addWords(packed, words[row + uuidWord + 1]!, words[row + uuidWord + 2]!, words[row + uuidWord + 3]!, words[row + uuidWord + 4]!), uuid).toBe(false);
          const other = new EntryIds();
          expect(other.addWords(packed, words[row + uuidWord + 1]!, words[row + uuidWord + 2]!, words[row + uuidWord + 3]!, words[row + uuidWord + 4]!), uuid).toBe(true);
          expect(other.add(uuid), uuid).toBe(false);
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('the read from the WebAssembly tables gives today’s rows', () => {
  it('on every JSONL fixture', () => {
    const files = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(30);
    for (const name of files) expectSameRows(readFileSync(join(FIXTURES, name)), name);
  });

  it('on lines written for each case, taking the path expected', () => {
    const buffer = Buffer.from(CASES.map(([line]) => line).join('\n'));
    expect(readClaudeCodeForRows(buffer, bufferLines(buffer))).not.toBeNull();
    const counts = expectSameRows(buffer, 'cases');
    const expected = { fast: 0, js: 0, blank: 0 };
    for (const [, path] of CASES) expected[path]++;
    expect(counts).toEqual(expected);
  });

  it('on lines a file refuses for (another format’s keys, a progress entry naming its agent, not JSON)', () => {
    for (const line of [
      `{"type":"user","uuid":"u1",${S},"payload":{"x":1}}`,
      `{"type":"user","uuid":"u1",${S},"message":{"parts":[],"content":"x"}}`,
      `{"type":"progress","uuid":"p2",${S},"data":{"agentId":"agent-3","message":{}},"parentToolUseID":"t1"}`,
      `{"type":"progress","uuid":"p2",${S},"data":{"agentId":"","agentId":"agent-4"},"parentToolUseID":"t1"}`,
      `{"type":"progress","uuid":"p2",${S},"data":{"agent\\u0049d":"agent-5"},"parentToolUseID":"t1"}`,
      `{"type":"tool_result","uuid":"u1",${S}}`,
      `{"type":"user","uuid":"u1",${S}`,
      '[1,2]',
    ]) {
      const buffer = Buffer.from(`${CASES[0]![0]}\n${line}\n`);
      expect(readClaudeCodeForRows(buffer, bufferLines(buffer)), line).toBeNull();
      expect(readClaudeCodeForRowsFromScan(buffer, wasm, bufferLines(buffer)), line).toBeNull();
    }
  });

  it('on a real Claude Code log changed at random', () => {
    const sample = readFileSync(join(FIXTURES, 'native/claude-code-2.1.83_via-claude-agent-acp.jsonl'), 'utf8').split('\n').filter((line) => line !== '');
    fc.assert(
      fc.property(
        fc.array(claudeLogEdit(CASES.map(([line]) => line)), { maxLength: 8 }), fc.boolean(), fc.integer({ min: 1, max: 8192 }), fc.integer({ min: 1, max: 5000 }),
        (edits, lastNewline, windowBytes, most) => {
          expectSameRows(Buffer.from(editedClaudeLog(sample, edits, lastNewline)), 'changed', windowBytes, most);
        },
      ),
      { numRuns: 100 },
    );
  });
});
