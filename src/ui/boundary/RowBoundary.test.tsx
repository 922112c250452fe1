// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTime, formatDuration } from '../format';
import { RowBoundary } from './RowBoundary';

afterEach(cleanup);

function Throws({ message }: { message: string }): never {
  throw new Error(message);
}

describe('RowBoundary', () => {
  it('keeps a row that fails to draw to itself: its message, line and raw JSON; the next row draws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const item = { type: 'message', text: 'bad', ts: Number.POSITIVE_INFINITY };
    render(
      <>
        <RowBoundary raw={() => item} line={42} resetKey={item}>
          <Throws message="Invalid time value" />
        </RowBoundary>
        <RowBoundary raw={() => null} resetKey={1}>
          <div>next row</div>
        </RowBoundary>
      </>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This row could not be drawn: Invalid time value');
    expect(alert.textContent).toContain('line 42');
    expect(alert.querySelector('pre')?.textContent).toBe(JSON.stringify(item, null, 2));
    screen.getByText('next row');
  });

  it('tries again once the item changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const first = { v: 1 };
    const { rerender } = render(
      <RowBoundary raw={() => first} resetKey={first}>
        <Throws message="boom" />
      </RowBoundary>,
    );
    screen.getByRole('alert');
    const second = { v: 2 };
    rerender(
      <RowBoundary raw={() => second} resetKey={second}>
        <div>drawn now</div>
      </RowBoundary>,
    );
    screen.getByText('drawn now');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('formatTime and formatDuration', () => {
  it('say a time out of range is invalid instead of throwing', () => {
    expect(formatTime(1_785_193_970_000)).toBe('2026-07-27T23:12:50.000Z');
    expect(formatTime(1e16)).toBe('invalid time (10000000000000000)');
    expect(formatTime(Number.POSITIVE_INFINITY)).toBe('invalid time (Infinity)');
    expect(formatTime(-1e16)).toBe('invalid time (-10000000000000000)');
    expect(formatTime(Number.NaN)).toBe('invalid time (NaN)');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('invalid duration (Infinity)');
    expect(formatDuration(-5)).toBe('invalid duration (-5)');
    expect(formatDuration(1500)).toBe('1.50 s');
  });
});
