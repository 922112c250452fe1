import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../scripts/gen-session.mjs';
import { ingest, summarize, type SummaryCall } from '../model';
import { main } from './diff';

const work = mkdtempSync(join(tmpdir(), 'loupe-diff-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
  return { code, out, err };
}

interface DiffJson {
  firstDivergence: null | { index: number; a: Step | null; b: Step | null };
  counts: { matched: number; same: number; status: number; onlyA: number; onlyB: number };
  pairs: { a: string | null; b: string | null; change: string }[];
  labels: { label: string; a: { count: number }; b: { count: number }; difference: number }[];
}
type Step = { id: string; label: string; subject: string | null; status: string };

async function diffJson(...argv: string[]): Promise<{ code: number; json: DiffJson }> {
  const { code, out } = await run(...argv, '--json');
  return { code, json: JSON.parse(out) as DiffJson };
}

const NATIVE = 'fixtures/native';

describe('loupe diff on one real session read two ways', () => {
  test.each([
    ['claude-agent-acp.acp.jsonl', 'claude-code-2.1.83_via-claude-agent-acp.jsonl'],
    ['claude-code-acp.acp.jsonl', 'claude-code-2.1.44_via-claude-code-acp.jsonl'],
  ])('the ACP capture %s and the Claude Code log %s agree throughout, exit 0', async (capture, log) => {
    const { code, json } = await diffJson(join(NATIVE, capture), join(NATIVE, log));
    expect(code).toBe(0);
    expect(json.firstDivergence).toBeNull();
    expect(json.counts).toEqual({ matched: 10, same: 10, status: 0, onlyA: 0, onlyB: 0 });
    expect(json.pairs.every((pair) => pair.change === 'same' && pair.a !== null && pair.b !== null)).toBe(true);
    const text = await run(join(NATIVE, capture), join(NATIVE, log));
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/the runs agree throughout/);
  });
});

describe("loupe diff on Cline's own sessions (a JSON document each, read with its sub-agents' files)", () => {
  /** The recordings where Cline keeps them: `<id>/<id>.messages.json`, the sub-agent's file beside the main run's. */
  function clineFolders(): { main: string; heldout: string } {
    const root = mkdtempSync(join(work, 'cline-'));
    const place = (id: string, files: [string, string][]) => {
      mkdirSync(join(root, id));
      for (const [from, name] of files) copyFileSync(join(NATIVE, from), join(root, id, name));
      return join(root, id, `${id}.messages.json`);
    };
    return {
      main: place('1796192429067_g2n1j', [
        ['cline-3.0.65_tidy-notes.messages.json', '1796192429067_g2n1j.messages.json'],
        ['cline-3.0.65_tidy-notes_subagent.messages.json', 'agent_1796192430520_zqzsx4.messages.json'],
      ]),
      heldout: place('1796192574365_6ne3j', [['cline-3.0.65_held-out.messages.json', '1796192574365_6ne3j.messages.json']]),
    };
  }

  test('a session against itself agrees throughout, its sub-agent\'s call among the steps, exit 0', async () => {
    const { main: file } = clineFolders();
    const { code, json } = await diffJson(file, file);
    expect(code).toBe(0);
    expect(json.firstDivergence).toBeNull();
    // Eight calls of the session and the sub-agent's read.
    expect(json.counts).toEqual({ matched: 9, same: 9, status: 0, onlyA: 0, onlyB: 0 });
  });

  test('the main recording against the held-out one diverges at the first step, every call on one side only, exit 1', async () => {
    const { main: a, heldout: b } = clineFolders();
    const { code, json } = await diffJson(a, b);
    expect(code).toBe(1);
    expect(json.firstDivergence?.index).toBe(0);
    expect(json.firstDivergence?.a).toMatchObject({ label: 'Read', subject: '/tmp/cline-rec/out/main/ws/notes.txt', status: 'done' });
    expect(json.firstDivergence?.b).toMatchObject({ label: 'Run Command', status: 'failed' });
    expect(json.counts).toEqual({ matched: 0, same: 0, status: 0, onlyA: 9, onlyB: 6 });
  });
});

describe('loupe diff on generated runs with planted edits', () => {
  let original: string;
  let lines: string[];
  let calls: SummaryCall[];

  beforeAll(async () => {
    original = join(work, 'a.jsonl');
    writeFileSync(original, generate({ format: 'acp', calls: 30, seed: 3 }).text);
    lines = readFileSync(original, 'utf8').split('\n').filter((line) => line.trim() !== '');
    calls = summarize(await ingest(readFileSync(original), { detail: 'light' })).calls;
  });

  const linesOf = (id: string) => (line: string) => line.includes(`"toolCallId":${JSON.stringify(id)}`);
  /** A call from `from` on whose id is its own and whose subject is written as it is in its lines: one an edit can be planted in. */
  const plantable = (from: number) => {
    const index = calls.findIndex((call, at) => at >= from && call.status === 'done' && call.subject !== null && calls.filter((other) => other.id === call.id).length === 1 && lines.some((line) => linesOf(call.id)(line) && line.includes(JSON.stringify(call.subject))));
    expect(index).toBeGreaterThanOrEqual(from);
    return index;
  };
  const planted = (name: string, edit: (lines: string[]) => string[]) => {
    const file = join(work, name);
    writeFileSync(file, `${edit(lines).join('\n')}\n`);
    return file;
  };
  const dropCall = (index: number) => (all: string[]) => all.filter((line) => !linesOf(calls[index]!.id)(line));
  const changeSubject = (index: number, to: string) => (all: string[]) =>
    all.map((line) => (linesOf(calls[index]!.id)(line) ? line.split(JSON.stringify(calls[index]!.subject)).join(JSON.stringify(to)) : line));
  const failCall = (index: number) => (all: string[]) => all.map((line) => (linesOf(calls[index]!.id)(line) ? line.replace('"status":"completed"', '"status":"failed"') : line));
  const stepOf = (call: SummaryCall | undefined) => (call ? { id: call.id, label: call.label, subject: call.subject, status: call.status } : null);

  test('a dropped call: the first divergence is where it was, one step only A has, exit 1', async () => {
    const at = plantable(5);
    const { code, json } = await diffJson(original, planted('dropped.jsonl', dropCall(at)));
    expect(code).toBe(1);
    expect(json.firstDivergence).toEqual({ index: at, a: stepOf(calls[at]), b: stepOf(calls[at + 1]) });
    expect(json.counts).toEqual({ matched: calls.length - 1, same: calls.length - 1, status: 0, onlyA: 1, onlyB: 0 });
    expect(json.pairs.filter((pair) => pair.change !== 'same')).toEqual([{ a: calls[at]!.id, b: null, change: 'only-a' }]);
  });

  test('a changed subject: the step only A has, then the one only B has, at the planted place', async () => {
    const at = plantable(8);
    const { code, json } = await diffJson(original, planted('subject.jsonl', changeSubject(at, 'somewhere/else.ts')));
    expect(code).toBe(1);
    expect(json.firstDivergence).toEqual({ index: at, a: stepOf(calls[at]), b: { ...stepOf(calls[at]), subject: 'somewhere/else.ts' } });
    expect(json.counts).toEqual({ matched: calls.length - 1, same: calls.length - 1, status: 0, onlyA: 1, onlyB: 1 });
    expect(json.pairs.slice(at, at + 2)).toEqual([
      { a: calls[at]!.id, b: null, change: 'only-a' },
      { a: null, b: calls[at]!.id, change: 'only-b' },
    ]);
  });

  test('a changed status: one row marked status, the others the same', async () => {
    const at = plantable(12);
    const { code, json } = await diffJson(original, planted('status.jsonl', failCall(at)));
    expect(code).toBe(1);
    expect(json.firstDivergence).toEqual({ index: at, a: stepOf(calls[at]), b: { ...stepOf(calls[at]), status: 'failed' } });
    expect(json.counts).toEqual({ matched: calls.length, same: calls.length - 1, status: 1, onlyA: 0, onlyB: 0 });
    expect(json.pairs[at]).toEqual({ a: calls[at]!.id, b: calls[at]!.id, change: 'status' });
  });

  test('three edits in one run: the first planted is the first divergence, the counts add up', async () => {
    const [drop, subject, status] = [plantable(3), plantable(10), plantable(20)];
    const b = planted('three.jsonl', (all) => dropCall(drop)(changeSubject(subject, 'renamed.md')(failCall(status)(all))));
    const { code, json } = await diffJson(original, b);
    expect(code).toBe(1);
    expect(json.firstDivergence?.index).toBe(drop);
    expect(json.counts).toEqual({ matched: calls.length - 2, same: calls.length - 3, status: 1, onlyA: 2, onlyB: 1 });
    const text = await run(original, b);
    expect(text.code).toBe(1);
    expect(text.out).toContain(`first divergence at step ${drop + 1}:`);
    // The marked row shows A's dropped step beside the step B took instead.
    const marked = text.out.split('\n').find((line) => line.startsWith('  > '));
    expect(marked).toContain(calls[drop]!.label);
    expect(marked).toContain(calls[drop + 1]!.label);
    expect(text.out).toMatch(/^only A +2$/m);
  });

  test('--md: a short report whose untrusted text is escaped, first divergence marked in bold', async () => {
    const at = plantable(4);
    const hostile = '<img src=x onerror=alert(1)> | @octocat';
    const { code, out } = await run(original, planted('hostile.jsonl', changeSubject(at, hostile)), '--md');
    expect(code).toBe(1);
    expect(out).toMatch(/^# Runs compared: a\.jsonl → hostile\.jsonl$/m);
    expect(out).toContain(`**First divergence at step ${at + 1}**`);
    expect(out).toContain(`| **${at + 1}** |`);
    expect(out).not.toMatch(/(^|[^\\])<img/);
    expect(out).toContain('\\<img src=x onerror=alert(1)\\> \\| @\u2060octocat');
    expect(out.split('\n').length).toBeLessThan(40);
  });

  test('a file of two sessions: the first of each unless --session names one', async () => {
    const second = join(work, 'second.jsonl');
    writeFileSync(second, generate({ format: 'acp', calls: 5, seed: 4 }).text);
    const both = join(work, 'both.jsonl');
    writeFileSync(both, `${lines.join('\n')}\n${readFileSync(second, 'utf8')}`);
    expect((await diffJson(original, both)).code).toBe(0);
    const secondId = (await ingest(readFileSync(second), { detail: 'light' })).sessionIds[0]!;
    expect((await diffJson(second, both, '--session', secondId)).code).toBe(0);
    const missing = await run(original, both, '--session', 'no-such-session');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/has no session no-such-session; it has sess_/);
  });
});

describe('loupe diff --redact: a report to paste into a pull request holds no secret', () => {
  const KEY = 'AKIAQX3YZ7PLMN4R2T6V';
  const call = (id: string, command: string, status = 'completed') => [
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: id, title: command, kind: 'execute', status: 'pending', rawInput: { command } } } },
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: id, status } } },
  ];
  const runFile = (name: string, commands: string[]) => {
    const file = join(work, name);
    writeFileSync(file, commands.flatMap((command, n) => call(`c${n}`, command)).map((line) => JSON.stringify(line)).join('\n') + '\n');
    return file;
  };

  // The key is on the call's line twice, in its title and in its command.
  test('the key a command held is in every report without --redact, and in none with it: each says what was replaced', async () => {
    const a = runFile('plain.jsonl', ['npm test', 'ls dist']);
    const b = runFile('keyed.jsonl', ['npm test', `s3 --key ${KEY}`]);
    for (const format of [[], ['--md'], ['--json']]) {
      const open = await run(a, b, ...format);
      expect(open.code).toBe(1);
      expect(open.out).toContain(KEY);
      const redacted = await run(a, b, ...format, '--redact');
      expect(redacted.code).toBe(1);
      expect(redacted.out).not.toContain(KEY);
      expect(redacted.out).toContain('‹aws-access-key›');
      expect(redacted.err).toMatch(/loupe diff: replaced 2 secrets\n {2}B: 2 \(aws-access-key 2; line 3\)/);
      expect(redacted.err).not.toContain(KEY);
    }
    expect((await run(a, b, '--md', '--redact')).out).toMatch(/Redacted: 2 secrets \(2 aws-access-key\)/);
    expect(JSON.parse((await run(a, b, '--json', '--redact')).out)).toMatchObject({ redacted: { 'aws-access-key': 2 } });
  });

  test('two runs that differ only in a secret agree once it is replaced', async () => {
    const a = runFile('key-a.jsonl', [`deploy --key ${KEY}`]);
    const b = runFile('key-b.jsonl', ['deploy --key AKIAZ7Y6X5W4V3U2T1SR']);
    expect((await run(a, b)).code).toBe(1);
    const redacted = await run(a, b, '--redact');
    expect(redacted.code).toBe(0);
    expect(redacted.out).toMatch(/the runs agree throughout/);
    expect(redacted.err).toMatch(/replaced 4 secrets\n {2}A: 2 .*\n {2}B: 2 /);
  });

  test('with nothing to replace, the report says so', async () => {
    const a = runFile('clean-a.jsonl', ['npm test']);
    const { code, out, err } = await run(a, a, '--redact');
    expect(code).toBe(0);
    expect(out).toMatch(/Redacted: no secrets were found\./);
    expect(err).toBe('loupe diff: no secrets found\n');
  });
});

describe('loupe diff, what it refuses', () => {
  test('an input that cannot be read exits 2 with one line saying why', async () => {
    const missing = await run(join(work, 'absent.jsonl'), join(NATIVE, 'codex-acp.acp.jsonl'));
    expect(missing).toMatchObject({ code: 2, out: '' });
    expect(missing.err).toMatch(/^loupe diff: no such file: .*absent\.jsonl\n$/);
    const prose = join(work, 'prose.txt');
    writeFileSync(prose, 'not a session\nat all\n');
    const unknown = await run(join(NATIVE, 'codex-acp.acp.jsonl'), prose);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/no line has a shape Loupe reads/);
  });

  test('one file, three files, or --json with --md are usage errors, exit 2', async () => {
    const session = join(NATIVE, 'codex-acp.acp.jsonl');
    for (const argv of [[session], [session, session, session], [session, session, '--json', '--md']]) {
      const { code, err } = await run(...argv);
      expect(code).toBe(2);
      expect(err).toMatch(/usage: loupe diff A B/);
    }
  });
});
