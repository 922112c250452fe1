// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DIFF_PAGE_ROWS, LargeDiff } from './LargeDiff';

afterEach(cleanup);

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join('\n') + '\n';

describe('LargeDiff', () => {
  it('draws a 20,000-line-a-side diff a page of rows at a time', async () => {
    // jsdom has no Worker: the diff falls back to the linear one, as under a CSP without workers.
    const { container } = render(<LargeDiff oldText={lines(20_000, 'old')} newText={lines(20_000, 'new')} />);
    await screen.findByText(/\+20,000/);
    expect(container.querySelectorAll('[data-diff-line]')).toHaveLength(DIFF_PAGE_ROWS);
    fireEvent.click(screen.getByRole('button', { name: /Show 1,000 more lines \(39,500 not shown\)/ }));
    expect(container.querySelectorAll('[data-diff-line]')).toHaveLength(DIFF_PAGE_ROWS * 3);
    expect(container.querySelector('[data-diff-line]')?.textContent).toContain('old 0');
  });
});
