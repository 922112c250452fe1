import type { DisplayStatus, ToolCall } from './types';

/** Every display status, in the order the filter lists them and the library's columns number them. */
export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['pending', 'running', 'done', 'failed', 'unfinished'];

export function isDisplayStatus(value: unknown): value is DisplayStatus {
  return (DISPLAY_STATUSES as readonly unknown[]).includes(value);
}

/** CONTRACTS §7: a call still pending or in progress when the input ends is unfinished, not failed. */
export function displayStatus(call: Pick<ToolCall, 'status'>, ended: boolean): DisplayStatus {
  switch (call.status) {
    case 'completed':
      return 'done';
    case 'failed':
      return 'failed';
    case 'in_progress':
      return ended ? 'unfinished' : 'running';
    case 'pending':
    case undefined:
      return ended ? 'unfinished' : 'pending';
  }
}

/**
 * What is known of a call whose command exited but whose completion the input never recorded:
 * one phrase, so the viewer and the CLI say the same thing (not "unfinished" over "Exit code 0").
 */
export function exitedWithoutCompletion(exitCode: number | null): string {
  return `the command exited ${exitCode === null ? 'without a code' : exitCode}; no completion was recorded`;
}

/** Whether the input recorded the call's end (CONTRACTS §7): a completed or failed status. */
export function hasEnded(call: Pick<ToolCall, 'status'>): boolean {
  return call.status === 'completed' || call.status === 'failed';
}

/**
 * Counts of calls by display status once the input ends (`displayStatus`): the open ones, pending
 * or running, turn unfinished, and only they; moving their counts is O(1), where recounting walks
 * every call.
 */
export function statusCountsAtEnd(counts: Readonly<Record<DisplayStatus, number>>): Record<DisplayStatus, number> {
  return { ...counts, unfinished: counts.unfinished + counts.running + counts.pending, running: 0, pending: 0 };
}
