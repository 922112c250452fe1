// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../model';
import { ItemRow } from './ItemRow';

afterEach(cleanup);

const loc = { line: 7, offset: 0, length: 10 };

function show(item: TranscriptItem, open = false) {
  return render(<ItemRow item={item} call={undefined} ended open={open} focused={false} terminals={new Map()} dark={false} onToggle={() => undefined} />);
}

describe('ItemRow', () => {
  it('keeps thoughts collapsed to a preview until opened', () => {
    const long = `${'x'.repeat(300)} THE END`;
    const closed = show({ type: 'message', role: 'thought', loc, sessionId: null, blocks: [], text: long });
    expect(closed.container.textContent).not.toContain('THE END');
    cleanup();
    const opened = show({ type: 'message', role: 'thought', loc, sessionId: null, blocks: [], text: long }, true);
    expect(opened.container.textContent).toContain('THE END');
  });

  it('draws a thought as markdown, as agent messages are; its one-line preview leaves the marks out', () => {
    const thought: TranscriptItem = { type: 'message', role: 'thought', loc, sessionId: null, blocks: [], text: '**Planning the change**\n\nI need to edit `hello.py`.' };
    const closed = show(thought);
    expect(closed.container.textContent).toContain('Planning the change I need to edit hello.py.');
    expect(closed.container.textContent).not.toContain('**');
    cleanup();
    const opened = show(thought, true);
    expect(opened.container.querySelector('strong')?.textContent).toBe('Planning the change');
    expect(opened.container.querySelector('code')?.textContent).toBe('hello.py');
  });

  it('draws agent messages as markdown and user turns as plain text', () => {
    const agent = show({ type: 'message', role: 'agent', loc, sessionId: null, blocks: [], text: '**done**' });
    expect(agent.container.querySelector('strong')?.textContent).toBe('done');
    cleanup();
    const user = show({ type: 'message', role: 'user', loc, sessionId: null, blocks: [], text: '**not bold**' });
    expect(user.container.querySelector('strong')).toBeNull();
    expect(user.container.textContent).toContain('**not bold**');
  });

  it('shows turn ends with their stop reason and usage, and mode changes', () => {
    const end = show({ type: 'turn_end', loc, sessionId: null, stopReason: 'max_tokens', usage: { inputTokens: 1200, outputTokens: 30 } });
    expect(end.container.textContent).toContain('max_tokens');
    expect(end.container.textContent).toContain('1,200 in');
    cleanup();
    const mode = show({ type: 'mode', loc, sessionId: null, modeId: 'plan' });
    expect(mode.container.textContent).toContain('Mode changed to plan');
  });

  it('draws plans as checklists', () => {
    const { container } = show({ type: 'plan', loc, sessionId: null, entries: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'pending' }] });
    expect(container.querySelectorAll('li')).toHaveLength(2);
  });

  it('shows an agent\'s coloured stderr line without its escape sequences', () => {
    const text = '\u001b[2m2026-08-18T05:50:31Z\u001b[0m \u001b[33m WARN\u001b[0m connection closed';
    const { container } = show({ type: 'event', loc, name: 'stderr', summary: text, raw: text });
    expect(container.textContent).toContain('2026-08-18T05:50:31Z  WARN connection closed');
    expect(container.textContent).not.toContain('\u001b');
  });

  it('never drops an unknown record: it is a row with its line, and its raw JSON when opened', () => {
    const item: TranscriptItem = { type: 'unknown', loc, reason: 'unknown sessionUpdate "brand_new"', raw: { sessionUpdate: 'brand_new', x: 1 } };
    const closed = show(item);
    expect(closed.container.textContent).toContain('Unknown record');
    expect(closed.container.textContent).toContain('line 7');
    cleanup();
    const opened = show(item, true);
    expect(opened.container.textContent).toContain('brand_new');
  });

  it('reads an entry a light read left in the file when its row is opened, and says so when it cannot', async () => {
    const left: TranscriptItem = { type: 'event', loc: { line: 12, offset: 40, length: 30 }, name: 'system/api_error', raw: undefined };
    const asked: number[] = [];
    const read = (at: { line: number }) => {
      asked.push(at.line);
      return Promise.resolve({ ok: true as const, value: { type: 'system', subtype: 'api_error', retryInMs: 5000 } });
    };
    const closed = render(<ItemRow item={left} call={undefined} ended open={false} focused={false} terminals={new Map()} dark={false} onToggle={() => undefined} onReadRecord={read} />);
    // Nothing is read for a row that stays closed.
    expect(asked).toEqual([]);
    closed.unmount();
    render(<ItemRow item={left} call={undefined} ended open focused={false} terminals={new Map()} dark={false} onToggle={() => undefined} onReadRecord={read} />);
    expect(screen.getByText('Reading this entry from the file…')).toBeTruthy();
    expect(await screen.findByText(/retryInMs/)).toBeTruthy();
    expect(screen.getByText(/5000/)).toBeTruthy();
    expect(asked).toEqual([12]);
    cleanup();

    const failing = () => Promise.resolve({ ok: false as const, error: 'line 12 could not be read again' });
    render(<ItemRow item={left} call={undefined} ended open focused={false} terminals={new Map()} dark={false} onToggle={() => undefined} onReadRecord={failing} />);
    expect((await screen.findByRole('alert')).textContent).toContain('line 12 could not be read again');
    cleanup();

    render(<ItemRow item={left} call={undefined} ended open focused={false} terminals={new Map()} dark={false} onToggle={() => undefined} />);
    expect(screen.getByText(/cannot read the file again/)).toBeTruthy();
  });
});
