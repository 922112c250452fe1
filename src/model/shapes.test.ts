// The shapes CONTRACTS §1 gained in issue 8, line by line: what each becomes, with its direction
// and time, and what a malformed one becomes (never lost, never thrown).
import { describe, expect, test } from 'vitest';
import { ingest } from './index';

const lines = (...values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n');
const toolCall = { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'ls', kind: 'execute', status: 'pending', rawInput: { command: 'ls' } };
const notification = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: toolCall } };

describe('shapes from other recorders', () => {
  test('a JetBrains-style text log line: direction from IN/OUT, time from its leading local date; without a message it is bad', async () => {
    const session = await ingest(lines(
      `2025-11-14 19:57:21,589 [ 8648]   FINE - AcpTransport - IN: ${JSON.stringify(notification)}`,
      `2025-11-14 19:57:22,100 [ 9159]   FINE - AcpTransport - OUT: {"type":"com.agentclientprotocol.rpc.JsonRpcRequest","jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`,
      '2025-11-14 19:57:23,000 [ 9999]   FINE - AcpTransport - IN: {"jsonrpc":"2.0","method":',
    ));
    expect(session.counts).toEqual({ lines: 3, events: 2, unknown: 0, bad: 1 });
    expect(session.format).toBe('text-log');
    const [call] = session.calls.values();
    expect([call?.dir, call?.startMs]).toEqual(['agent->client', new Date(2025, 10, 14, 19, 57, 21, 589).getTime()]);
    expect(session.diagnostics.bad[0]?.line).toBe(3);
  });

  test('acpx session logs and ACP-inspector traces carry direction and time; an inspector json that is not an object is unknown', async () => {
    const acpx = await ingest(lines({ seq: 1, at: '2026-03-02T09:14:05.120Z', direction: 'inbound', message: notification }));
    expect([acpx.format, acpx.calls.values().next().value?.dir, acpx.calls.values().next().value?.startMs]).toEqual(['acpx-log', 'agent->client', Date.parse('2026-03-02T09:14:05.120Z')]);
    const inspector = await ingest(lines(
      { ts: '2026-01-20T16:02:11.1230000+00:00', direction: 'fromAgent', json: JSON.stringify(notification) },
      { ts: '2026-01-20T16:02:12.0000000+00:00', direction: 'fromClient', json: '[1, 2]' },
    ));
    expect(inspector.counts).toEqual({ lines: 2, events: 1, unknown: 1, bad: 0 });
    expect(inspector.calls.values().next().value?.startMs).toBe(Date.parse('2026-01-20T16:02:11.123Z'));
  });

  test('a bare {update} without sessionId is an event; one whose update has no sessionUpdate tag stays unknown', async () => {
    const session = await ingest(lines({ update: toolCall }, { update: { note: 'not an update' } }));
    expect(session.counts).toEqual({ lines: 2, events: 1, unknown: 1, bad: 0 });
    expect(session.calls.values().next().value).toMatchObject({ sessionId: null, label: 'Run Command', subject: 'ls' });
  });
});

describe('gemini-cli ids name their tool (CONTRACTS §5 rule 3)', () => {
  test('the head of the id is looked up before kind; an unknown head or a known name field wins over it', async () => {
    const call = (toolCallId: string, extra: object = {}) => ({ update: { sessionUpdate: 'tool_call', toolCallId, kind: 'edit', status: 'pending', ...extra } });
    const session = await ingest(lines(
      call('write_file__write_file_1795981970921_0'),
      call('run_shell_command-1759500988878'),
      call('mystery-1'),
      call('read_file-2', { name: 'Bash' }),
    ));
    expect([...session.calls.values()].map((c) => c.label)).toEqual(['Write', 'Run Command', 'Edit', 'Run Command']);
  });
});
