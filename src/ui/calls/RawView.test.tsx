// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../model';
import { RawView } from './RawView';

afterEach(cleanup);

function callWithUpdates(n: number): ToolCall {
  const history: ToolCall['history'] = Array.from({ length: n }, (_, i) => ({
    line: i + 1, offset: 0, length: 0, source: i === 0 ? 'tool_call' : 'tool_call_update', fields: ['status'],
  }));
  return { key: 's:c1', id: 'c1', sessionId: 's', ordinal: 0, firstLine: 1, meta: {}, invalidEnvelopes: 0, label: 'Tool', subject: null, history, detail: 'full' };
}

describe('RawView', () => {
  it('counts the updates that made a call, in the singular for one', () => {
    expect(render(<RawView call={callWithUpdates(1)} />).container.textContent).toContain('History (1 update)');
    cleanup();
    expect(render(<RawView call={callWithUpdates(3)} />).container.textContent).toContain('History (3 updates)');
  });
});
