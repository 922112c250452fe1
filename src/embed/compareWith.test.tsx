// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionViewer } from './index';

const CAPTURE = readFileSync('fixtures/native/claude-agent-acp.acp.jsonl', 'utf8');
const LOG = readFileSync('fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'utf8');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The capture without the call `id`: a run that skipped that step. */
function without(text: string, id: string): string {
  return text
    .split('\n')
    .filter((line) => !line.includes(`"toolCallId":"${id}"`))
    .join('\n');
}

const rowsOf = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[data-diff]')];

describe('the compare view (<SessionViewer compareWith>)', () => {
  it('shows a Claude Code log and its ACP capture aligned, every row the same, and says they agree', async () => {
    const { container } = render(<SessionViewer source={{ text: CAPTURE }} compareWith={{ text: LOG }} />);
    await waitFor(() => expect(screen.getByTestId('compare-summary').textContent).toBe('The runs agree throughout (10 steps).'));
    const rows = rowsOf(container);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.dataset.diff === 'same')).toBe(true);
    expect(container.querySelector('[data-first-divergence]')).toBeNull();
    // Each half of a row is the call's own row.
    expect(rows[0]!.querySelectorAll('[data-call-id]')).toHaveLength(2);
  });

  it('marks a step B skipped as only-a, the first divergence, announces it, and steps to it', async () => {
    const dropped = 'toolu_fake_03_4';
    expect(CAPTURE).toContain(dropped);
    const { container } = render(<SessionViewer source={{ text: CAPTURE }} compareWith={{ text: without(CAPTURE, dropped) }} />);
    await waitFor(() => expect(screen.getByTestId('compare-summary').textContent).toMatch(/^First divergence at step 3: A: Edit .*; B: /));
    expect(screen.getByTestId('compare-summary').getAttribute('aria-live')).toBe('polite');
    const first = container.querySelector<HTMLElement>('[data-first-divergence]');
    expect(first?.dataset.diff).toBe('only-a');
    expect(first?.querySelector(`[data-call-id="${dropped}"]`)).toBeTruthy();
    expect(first?.querySelector('[data-gap="B"]')).toBeTruthy();
    expect(screen.getByTestId('compare-counts').textContent).toBe('matched 9 (same 9, other status 0) · only in A 1 · only in B 0');
    // The first divergence is the current difference once shown.
    expect(first?.dataset.current).toBe('true');

    // A row opens as in the transcript.
    const header = first!.querySelector<HTMLButtonElement>(`[data-call-id="${dropped}"] > button`)!;
    fireEvent.click(header);
    await waitFor(() => expect(container.querySelector(`[data-first-divergence] [data-call-id="${dropped}"] > button`)?.getAttribute('aria-expanded')).toBe('true'));

    // Only differences: the one row.
    fireEvent.click(screen.getByLabelText('Only differences'));
    await waitFor(() => expect(rowsOf(container).map((row) => row.dataset.diff)).toEqual(['only-a']));

    const labels = screen.getByTestId('compare-labels');
    expect(labels.querySelector('[data-label="Edit"]')?.getAttribute('data-difference')).toBe('-1');
  });

  it('steps from one difference to the next with the buttons and with n / p', async () => {
    const { container } = render(<SessionViewer source={{ text: CAPTURE }} compareWith={{ text: without(without(CAPTURE, 'toolu_fake_01_2'), 'toolu_fake_06_7') }} />);
    await waitFor(() => expect(screen.getByTestId('compare-summary').textContent).toMatch(/^First divergence at step 1:/));
    const current = () => container.querySelector<HTMLElement>('[data-current]')?.querySelector('[data-call-id]')?.getAttribute('data-call-id');
    expect(current()).toBe('toolu_fake_01_2');
    fireEvent.click(screen.getByRole('button', { name: /Next difference/ }));
    await waitFor(() => expect(current()).toBe('toolu_fake_06_7'));
    fireEvent.keyDown(screen.getByTestId('compare-view'), { key: 'p' });
    await waitFor(() => expect(current()).toBe('toolu_fake_01_2'));
    fireEvent.keyDown(screen.getByTestId('compare-view'), { key: 'n' });
    await waitFor(() => expect(current()).toBe('toolu_fake_06_7'));
  });

  it('"Compare with…" reads only the new run: the session shown is run A as it was read, and is shown again, unread, when the comparison closes', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', (url: string | URL | Request) => {
      const path = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
      fetched.push(path.replace(/^.*\//, ''));
      return Promise.resolve(new Response(path.endsWith('a.jsonl') ? CAPTURE : LOG, { headers: { 'Content-Type': 'application/x-ndjson' } }));
    });
    const { rerender } = render(<SessionViewer source="https://example.test/a.jsonl" />);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Filters' }).textContent).toContain('Tool calls: 10'));
    rerender(<SessionViewer source="https://example.test/a.jsonl" compareWith="https://example.test/b.jsonl" />);
    await waitFor(() => expect(screen.getByTestId('compare-summary').textContent).toBe('The runs agree throughout (10 steps).'));
    rerender(<SessionViewer source="https://example.test/a.jsonl" />);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Filters' }).textContent).toContain('Tool calls: 10'));
    expect(fetched).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('says once that a run could not be read: in the comparison, not again beside it', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response('gone', { status: 404, statusText: 'Not Found' }))));
    const { container } = render(<SessionViewer source={{ text: CAPTURE }} compareWith="http://runs.example/b.jsonl" />);
    await waitFor(() => expect(screen.getByTestId('compare-summary').textContent).toMatch(/^Run B could not be read: .*404/));
    // Whatever else reports the failure has had its turn: the read's promise settled and the page drew again.
    for (let turn = 0; turn < 3; turn++) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(container.textContent?.match(/404/g)).toHaveLength(1);
  });
});
