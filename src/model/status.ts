import type { DisplayStatus, ToolCall } from './types';

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
