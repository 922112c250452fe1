// @vitest-environment jsdom
// A large session still being read is derived from sampled snapshots; a finished one from every one.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { SessionSnapshot } from '../../store/createSessionStore';
import { useLiveSnapshot } from './useLiveSnapshot';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const snapOf = (calls: number, state: 'loading' | 'done', tag: string): SessionSnapshot =>
  ({ calls: { size: calls, tag }, load: { state }, filter: { labels: [], statuses: [], text: '' }, cursor: null, shownRows: [] }) as unknown as SessionSnapshot;

function Probe({ snap }: { snap: SessionSnapshot }) {
  const shown = useLiveSnapshot(snap);
  return <output>{(shown.calls as unknown as { tag: string }).tag}</output>;
}

it('samples a large read in progress, and shows the last snapshot at once when the read ends', () => {
  vi.useFakeTimers();
  const { container, rerender } = render(<Probe snap={snapOf(50_000, 'loading', 'a')} />);
  const shown = () => container.querySelector('output')?.textContent;
  expect(shown()).toBe('a');
  rerender(<Probe snap={snapOf(50_001, 'loading', 'b')} />);
  rerender(<Probe snap={snapOf(50_002, 'loading', 'c')} />);
  // Not yet: the next sample is due later.
  act(() => void vi.advanceTimersByTime(0));
  expect(shown()).toBe('c');
  rerender(<Probe snap={snapOf(50_003, 'loading', 'd')} />);
  expect(shown()).toBe('c');
  act(() => void vi.advanceTimersByTime(1000));
  expect(shown()).toBe('d');
  rerender(<Probe snap={snapOf(50_004, 'done', 'e')} />);
  expect(shown()).toBe('e');
});

it('a small session is derived from every snapshot', () => {
  const { container, rerender } = render(<Probe snap={snapOf(10, 'loading', 'a')} />);
  rerender(<Probe snap={snapOf(11, 'loading', 'b')} />);
  expect(container.querySelector('output')?.textContent).toBe('b');
});
