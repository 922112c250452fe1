import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from './summarize';

// One folder for every file these tests write, removed when they end.
const work = mkdtempSync(join(tmpdir(), 'loupe-summarize-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let folders = 0;
const tempDir = () => {
  const dir = join(work, String(folders++));
  mkdirSync(dir);
  return dir;
};

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
  return { code, out, err };
}

describe('loupe summarize', () => {
  test('--json prints format, counts, calls in order of first appearance, diagnostics and chain', async () => {
    const { code, out } = await run('summarize', 'fixtures/ledger/golden-p0.ledger-00000000000000000000.jsonl', '--json');
    expect(code).toBe(0);
    const summary = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(['format', 'counts', 'calls', 'diagnostics', 'chain']);
    expect(summary).toMatchObject({
      format: 'ledger',
      counts: { lines: 19, events: 19, unknown: 0, bad: 0 },
      calls: [
        { id: 'call-1', session: '0198f6a2-7c4a-7bbb-9d1e-00000000040a', label: 'Tool', subject: null, status: 'done' },
        { id: 'call-2', label: 'Tool', subject: null, status: 'done' },
      ],
      diagnostics: [],
      chain: { state: 'intact', lines: 19 },
    });
  });

  test("OpenCode's database: its sessions' calls; a -wal beside it that is none is left out", async () => {
    const { code, out } = await run('summarize', 'fixtures/native/opencode-1.18.33_tidy-notes.db', '--json');
    expect(code).toBe(0);
    const summary = JSON.parse(out) as { format: string; counts: unknown; calls: { id: string; session: string; label: string; status: string }[] };
    expect(summary.format).toBe('opencode');
    expect(summary.counts).toEqual({ lines: 57, events: 57, unknown: 0, bad: 0 });
    const [main, child] = ['ses_dcb195a86ffePtpFwkbooH24Z8', 'ses_dcb190e73ffe7jLBycjZ0fkN5g'];
    expect(summary.calls.map((call) => [call.session, call.label, call.status])).toEqual([
      [main, 'Read', 'done'], [main, 'Run Command', 'failed'], [main, 'Run Command', 'done'], [main, 'Edit', 'done'], [main, 'Write', 'done'],
      [main, 'List Files', 'done'], [main, 'Search', 'done'], [main, 'Subagent', 'done'], [child, 'Read', 'done'],
    ]);
    // A -wal beside it that is no write-ahead log: the database is read without it.
    const dir = tempDir();
    writeFileSync(join(dir, 'opencode.db'), readFileSync('fixtures/native/opencode-1.18.33_tidy-notes.db'));
    writeFileSync(join(dir, 'opencode.db-wal'), Buffer.alloc(64));
    const beside = JSON.parse((await run('summarize', join(dir, 'opencode.db'), '--json')).out) as { counts: unknown; calls: unknown[] };
    expect(beside.counts).toEqual({ lines: 57, events: 57, unknown: 0, bad: 0 });
    expect(beside.calls).toHaveLength(9);
  });

  test('text output has one row per call with label, subject and status', async () => {
    const { code, out } = await run('summarize', 'fixtures/grok/esc-interrupt.updates.jsonl');
    expect(code).toBe(0);
    expect(out).toMatch(/lines +10 +\(events 10, unknown 0, bad 0\)/);
    // The viewer's word for a call the input left open, not the protocol's `in_progress`.
    expect(out).toMatch(/call-41033b16-03a7-4ca3-950c-0a015137f366-0 +Run Command +sleep 45 +unfinished/);
  });

  test('each call also says how its permission was answered and what its terminal printed', async () => {
    const { code, out } = await run('summarize', 'fixtures/acp/loupe-tee_text-frames.jsonl', '--json');
    expect(code).toBe(0);
    const { calls } = JSON.parse(out) as { calls: Record<string, unknown>[] };
    // The keys that were there first keep their place: scripts reading them by position still work.
    expect(Object.keys(calls[0]!)).toEqual(['id', 'session', 'label', 'subject', 'status', 'permission', 'terminal', 'note', 'direction', 'durationMs', 'exitCode', 'parent']);
    expect(calls[0]).toMatchObject({ permission: 'allow_once', terminal: { output: '> test\n2 passed, 1 failed\n', exitCode: 1 }, exitCode: 1, parent: null });

    const text = await run('summarize', 'fixtures/acp/loupe-tee_text-frames.jsonl');
    expect(text.out).toContain(['call-1  Run Command  npm test  failed  allow_once', '    terminal (exit 1):', '    | > test', '    | 2 passed, 1 failed'].join('\n'));
  });

  test('a permission never answered, and one cancelled, say so', async () => {
    const session = (method: string, result?: unknown) => [
      { jsonrpc: '2.0', id: 5, method, params: { sessionId: 's', toolCall: { toolCallId: 'c', title: 'Read', kind: 'read' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] } },
      ...(result ? [{ jsonrpc: '2.0', id: 5, result }] : []),
    ].map((line) => JSON.stringify(line)).join('\n');
    const dir = tempDir();
    writeFileSync(join(dir, 'unanswered.jsonl'), session('session/request_permission'));
    writeFileSync(join(dir, 'cancelled.jsonl'), session('session/request_permission', { outcome: { outcome: 'cancelled' } }));
    const permission = async (file: string) => (JSON.parse((await run('summarize', join(dir, file), '--json')).out) as { calls: { permission: unknown }[] }).calls[0]?.permission;
    expect(await permission('unanswered.jsonl')).toBe('unanswered');
    expect(await permission('cancelled.jsonl')).toBe('cancelled');
  });

  test('a missing file, a directory or a wrong command says which and exits non-zero', async () => {
    const missing = await run('summarize', 'no/such/file.jsonl');
    expect([missing.code, missing.err]).toEqual([1, 'loupe summarize: no such file: no/such/file.jsonl\n']);
    const directory = await run('summarize', 'fixtures');
    expect([directory.code, directory.err]).toEqual([1, 'loupe summarize: fixtures is a directory; give the session file inside it\n']);
    expect((await run('summarise', 'x')).code).toBe(2);
    expect((await run()).code).toBe(2);
  });

  test('--strict exits 1 with one line saying why when there are bad lines or the chain is broken, and 0 otherwise', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.jsonl'), '{"sessionUpdate":"plan","entries":[]}\nnot json at all\n{"truncated":');
    const bad = await run('summarize', join(dir, 'bad.jsonl'), '--strict');
    expect(bad.code).toBe(1);
    expect(bad.err).toBe('loupe summarize: --strict: 2 bad lines (first: line 2, not JSON: Unexpected token \'o\', "not json at all" is not valid JSON)\n');
    // Without --strict the same file is summarized and exits 0, as before.
    expect((await run('summarize', join(dir, 'bad.jsonl'))).code).toBe(0);

    const ledger = readFileSync('fixtures/ledger/golden-p0.ledger-00000000000000000000.jsonl', 'utf8').split('\n');
    writeFileSync(join(dir, 'swapped.jsonl'), [ledger[0], ledger[2], ledger[1], ...ledger.slice(3)].join('\n'));
    const broken = await run('summarize', join(dir, 'swapped.jsonl'), '--strict', '--json');
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/^loupe summarize: --strict: the ledger chain is broken at line 2: [^\n]+\n$/);
    // --json still prints the whole summary on stdout.
    expect(JSON.parse(broken.out)).toMatchObject({ chain: { state: 'broken', line: 2 } });

    const intact = await run('summarize', 'fixtures/ledger/golden-p0.ledger-00000000000000000000.jsonl', '--strict');
    expect([intact.code, intact.err]).toEqual([0, '']);
  });

  test('--strict fails a file with no records, and one where no line has a shape Loupe reads', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'blank.jsonl'), '\n  \r\n\n');
    writeFileSync(join(dir, 'other.json'), '{"name":"some-package","version":"1.0.0"}\n{"hello":"world"}\n');
    for (const file of ['empty.jsonl', 'blank.jsonl']) {
      const result = await run('summarize', join(dir, file), '--strict');
      expect([file, result.code, result.err]).toEqual([file, 1, 'loupe summarize: --strict: the file holds no records (it is empty or blank)\n']);
    }
    const other = await run('summarize', join(dir, 'other.json'), '--strict');
    expect([other.code, other.err]).toEqual([1, 'loupe summarize: --strict: no line has a shape Loupe reads (format unknown: 2 unknown, 0 bad)\n']);
    // Without --strict each is summarized, saying what it found, and exits 0.
    const lenient = await run('summarize', join(dir, 'other.json'));
    expect([lenient.code, lenient.err]).toEqual([0, '']);
    expect(lenient.out).toContain('format   unknown (no line has a known shape)');
  });

  test('text output is capped (saying how many more), --json stays complete', async () => {
    const dir = tempDir();
    // What a binary file looks like line by line: thousands of long lines that are not JSON.
    const garbage = Array.from({ length: 2000 }, (_, i) => `\u0001\u0002${'\u00ff'.repeat(300)}${i}`).join('\n');
    writeFileSync(join(dir, 'binary.bin'), garbage);
    const text = await run('summarize', join(dir, 'binary.bin'));
    expect(text.out).toContain('format   unknown (no line has a known shape)');
    expect(text.out).toContain('lines    2000  (events 0, unknown 0, bad 2000)');
    expect(text.out).toContain('… 1990 more bad lines (--json lists them all)');
    expect(text.out.length).toBeLessThan(8_000);
    const json = JSON.parse((await run('summarize', join(dir, 'binary.bin'), '--json')).out) as { format: string; diagnostics: unknown[] };
    expect([json.format, json.diagnostics.length]).toEqual(['unknown', 2000]);
  });

  test('an unfinished call whose command exited says both, in the viewer\'s words', async () => {
    const { out } = await run('summarize', 'fixtures/acp/acpx_session-log_from-contract.jsonl');
    expect(out).toMatch(/call_1 +Run Command +npm test +unfinished/);
    expect(out).toContain('    terminal (the command exited 0; no completion was recorded):');
    expect(out).toContain('    | all 12 suites passed (QUOKKA-7731)');
  });
});
