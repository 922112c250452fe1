import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from './summarize';

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
    expect(Object.keys(calls[0]!)).toEqual(['id', 'session', 'label', 'subject', 'status', 'permission', 'terminal', 'note', 'direction', 'durationMs']);
    expect(calls[0]).toMatchObject({ permission: 'allow_once', terminal: { output: '> test\n2 passed, 1 failed\n', exitCode: 1 } });

    const text = await run('summarize', 'fixtures/acp/loupe-tee_text-frames.jsonl');
    expect(text.out).toContain(['call-1  Run Command  npm test  failed  allow_once', '    terminal (exit 1):', '    | > test', '    | 2 passed, 1 failed'].join('\n'));
  });

  test('a permission never answered, and one cancelled, say so', async () => {
    const session = (method: string, result?: unknown) => [
      { jsonrpc: '2.0', id: 5, method, params: { sessionId: 's', toolCall: { toolCallId: 'c', title: 'Read', kind: 'read' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] } },
      ...(result ? [{ jsonrpc: '2.0', id: 5, result }] : []),
    ].map((line) => JSON.stringify(line)).join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'loupe-summarize-'));
    writeFileSync(join(dir, 'unanswered.jsonl'), session('session/request_permission'));
    writeFileSync(join(dir, 'cancelled.jsonl'), session('session/request_permission', { outcome: { outcome: 'cancelled' } }));
    const permission = async (file: string) => (JSON.parse((await run('summarize', join(dir, file), '--json')).out) as { calls: { permission: unknown }[] }).calls[0]?.permission;
    expect(await permission('unanswered.jsonl')).toBe('unanswered');
    expect(await permission('cancelled.jsonl')).toBe('cancelled');
  });

  test('a missing file or a wrong command says so and exits non-zero', async () => {
    expect((await run('summarize', 'no/such/file.jsonl')).code).toBe(1);
    expect((await run('summarise', 'x')).code).toBe(2);
    expect((await run()).code).toBe(2);
  });
});
