// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest, type TerminalState, type ToolCall } from '../../model';
import { CallRow } from './CallRow';

afterEach(cleanup);

function call(over: Partial<ToolCall>): ToolCall {
  return { key: 's:c1', id: 'c1', sessionId: 's', ordinal: 0, firstLine: 1, meta: {}, invalidEnvelopes: 0, label: 'Tool', subject: null, history: [], detail: 'full', ...over };
}

const noTerminals = new Map<string, TerminalState>();

function show(c: ToolCall, opts: { ended?: boolean; open?: boolean; terminals?: Map<string, TerminalState> } = {}) {
  return render(<CallRow call={c} ended={opts.ended ?? true} open={opts.open ?? false} focused={false} terminals={opts.terminals ?? noTerminals} dark={false} onToggle={() => undefined} />);
}

describe('CallRow', () => {
  it('shows label, subject, status, duration and the permission outcome', () => {
    const { container } = show(
      call({
        label: 'Run Command',
        subject: 'npm test',
        status: 'completed',
        durationMs: 1500,
        permission: { line: 3, options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }], outcome: { outcome: 'selected', optionId: 'allow' } },
      }),
    );
    const row = container.querySelector('[data-call-id="c1"]');
    expect(row?.textContent).toContain('Run Command');
    expect(row?.textContent).toContain('npm test');
    expect(row?.textContent).toContain('done');
    expect(row?.textContent).toContain('1.50 s');
    expect(row?.textContent).toContain('permission: Allow once');
  });

  it('calls a call still open at the end unfinished, not failed; and says when the input has no times', () => {
    const { container } = show(call({ status: 'in_progress' }), { open: true });
    expect(container.querySelector('[data-status]')?.getAttribute('data-status')).toBe('unfinished');
    expect(container.textContent).toContain('the input has no times');
  });

  it('an unfinished call whose command exited 0 says both in one phrase, in its row and its body', () => {
    const terminals = new Map<string, TerminalState>([['t1', { terminalId: 't1', output: 'ok\n', truncated: false, exitCode: 0 }]]);
    const open = call({ label: 'Run Command', status: 'in_progress', rawInput: { command: 'npm test' }, content: [{ type: 'terminal', terminalId: 't1' }], terminalIds: ['t1'] });
    const { container } = show(open, { open: true, terminals });
    expect(container.querySelector('[data-status]')?.getAttribute('data-status')).toBe('unfinished');
    expect(container.querySelector('[data-status-note]')?.textContent).toBe('the command exited 0; no completion was recorded');
    expect(container.textContent).not.toContain('Exit code 0');
  });

  it('a call the input left open, with times, says how long the input went on after it started', () => {
    const { container } = show(call({ status: 'in_progress', startMs: 1_000, inputEndMs: 46_000 }), { open: true });
    expect(container.textContent).toContain('≥ 45.0 s');
    expect(container.textContent).toContain('no completion was recorded; the input goes on 45.0 s after it started');
    expect(container.textContent).not.toContain('the input has no times');
  });

  it('draws a command as a terminal: output from its terminal, ANSI colours as spans, exit code', () => {
    const terminals = new Map<string, TerminalState>([['t1', { terminalId: 't1', output: '\u001b[31mred\u001b[0m plain', truncated: false, exitCode: 2 }]]);
    const { container } = show(call({ label: 'Run Command', subject: 'make', status: 'failed', rawInput: { command: 'make' }, content: [{ type: 'terminal', terminalId: 't1' }] }), { open: true, terminals });
    const red = [...container.querySelectorAll('pre span')].find((s) => s.textContent === 'red') as HTMLElement | undefined;
    expect(red?.style.color).toBe('rgb(187, 0, 0)');
    expect(container.textContent).toContain('Exit code 2');
    expect(container.textContent).not.toContain('\u001b');
  });

  it('reads the exit code from rawOutput when there is no terminal', () => {
    const { container } = show(call({ label: 'Run Command', status: 'failed', rawInput: { command: 'false' }, rawOutput: { exit_code: 1, stdout: 'nope' } }), { open: true });
    expect(container.textContent).toContain('Exit code 1');
    expect(container.textContent).toContain('nope');
  });

  it('says the exit code the output records, once: claude-agent-acp\'s failing cat (its output says "Exit code 1")', async () => {
    const session = await ingest(new Uint8Array(readFileSync(join(import.meta.dirname, '../../../fixtures/native/claude-agent-acp.acp.jsonl'))));
    const failing = [...session.calls.values()].find((c) => c.id === 'toolu_fake_06_7')!;
    const { container } = show(failing, { open: true, terminals: session.terminals });
    expect(container.textContent).toContain('cat: missing-file.txt: No such file or directory');
    expect(container.textContent).not.toContain('Exit code not recorded');
    expect(container.querySelector('[class*="meta"]')?.textContent).toBe('Exit code 1');
  });

  it('draws Read with line numbers from the requested offset', () => {
    const { container } = show(call({ label: 'Read', subject: '/a.ts', rawInput: { path: '/a.ts', offset: 10 }, content: [{ type: 'content', content: { type: 'text', text: 'one\ntwo' } }] }), { open: true });
    const numbers = [...container.querySelectorAll('pre div span:first-child')].map((s) => s.textContent);
    expect(numbers).toEqual(['10', '11']);
  });

  it('draws a Plan call as a checklist from rawInput.todos', () => {
    show(call({ label: 'Plan', rawInput: { todos: [{ content: 'write tests', status: 'completed' }, { content: 'ship', status: 'pending' }] } }), { open: true });
    expect(screen.getByText('write tests')).toBeTruthy();
    expect(screen.getByText('ship')).toBeTruthy();
    expect(screen.getByText('☑')).toBeTruthy();
  });

  it('shows search pattern and matches', () => {
    const { container } = show(call({ label: 'Search', rawInput: { pattern: 'TODO', path: 'src' }, content: [{ type: 'content', content: { type: 'text', text: 'a.ts:1: TODO x\nb.ts:2: TODO y' } }] }), { open: true });
    expect(container.textContent).toContain('TODO');
    expect(container.querySelectorAll('li')).toHaveLength(2);
  });

  it('shows an inline PNG, but an SVG only as text', () => {
    const { container } = show(
      call({
        content: [
          { type: 'content', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'content', content: { type: 'image', mimeType: 'image/svg+xml', data: btoa('<svg onload="x()"></svg>') } },
        ],
      }),
      { open: true },
    );
    const imgs = [...container.querySelectorAll('img')];
    expect(imgs.map((i) => i.getAttribute('src'))).toEqual(['data:image/png;base64,iVBORw0KGgo=']);
    expect(container.textContent).toContain('SVG image (shown as text, never rendered)');
    expect(container.querySelector('svg')).toBeNull();
  });

  it('falls back to a JSON tree for labels without a view of their own', () => {
    const { container } = show(call({ label: 'Brand New Label', rawInput: { answer: 42 } }), { open: true });
    expect(container.textContent).toContain('answer');
    expect(container.textContent).toContain('42');
  });
});

describe('CallRow, ledger calls', () => {
  it('shows a ledger command given as an argument list', () => {
    const { container } = show(call({ label: 'Run Command', ledger: { name: 'exec', args: ['ls', '-la'] } }), { open: true });
    expect(container.textContent).toContain('$ ls -la');
  });

  it('a light call whose lines cannot be read again says why and leads to what was read', async () => {
    const c = call({ detail: 'light', label: 'Run Command', subject: 'make', firstLine: 42, status: 'completed', title: 'make all' });
    render(<CallRow call={c} ended open focused={false} terminals={noTerminals} dark={false} onToggle={() => undefined} detailError="the file changed on disk" />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('the file changed on disk');
    expect(alert.textContent).toContain('from line 42');
    expect(screen.queryByText(/Reading this call’s output/)).toBeNull();
    screen.getByRole('button', { name: 'the Raw tab' }).click();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Raw' }).getAttribute('aria-selected')).toBe('true'));
  });
});
