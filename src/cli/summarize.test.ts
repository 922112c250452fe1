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
        { id: 'call-1', session: '0198f6a2-7c4a-7bbb-9d1e-00000000040a', label: 'Tool', subject: null, status: 'completed' },
        { id: 'call-2', label: 'Tool', subject: null, status: 'completed' },
      ],
      diagnostics: [],
      chain: { state: 'intact', lines: 19 },
    });
  });

  test('text output has one row per call with label, subject and status', async () => {
    const { code, out } = await run('summarize', 'fixtures/grok/esc-interrupt.updates.jsonl');
    expect(code).toBe(0);
    expect(out).toMatch(/lines +10 +\(events 10, unknown 0, bad 0\)/);
    expect(out).toMatch(/call-41033b16-03a7-4ca3-950c-0a015137f366-0 +Run Command +sleep 45 +in_progress/);
  });

  test('a missing file or a wrong command says so and exits non-zero', async () => {
    expect((await run('summarize', 'no/such/file.jsonl')).code).toBe(1);
    expect((await run('summarise', 'x')).code).toBe(2);
    expect((await run()).code).toBe(2);
  });
});
