// CONTRACTS §11 "Exit codes": where an input records a command's exit status as data, the call keeps
// it (`summarize --json` `exitCode`, the index's `exit_code`), read light or full; statuses stay as
// §7 and §10 give them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fleetRows } from './fleet';
import { exitCodeInOutput } from '../model/inputs';
import { ingest, summarize, type Session } from '../model';

const FIXTURES = join(import.meta.dirname, '../../fixtures/native');
const bytes = (name: string) => readFileSync(join(FIXTURES, name));
const lines = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join('\n') + '\n';
const exits = (session: Session) => Object.fromEntries(summarize(session).calls.map((call) => [call.id, [call.label, call.status, call.exitCode]]));

describe.each(['full', 'light'] as const)('read %s', (detail) => {
  test('Claude Code: the failing cat exits 1, in its own log and over ACP; commands that say nothing have none', async () => {
    for (const name of ['claude-code-2.1.83_via-claude-agent-acp.jsonl', 'claude-agent-acp.acp.jsonl']) {
      const calls = exits(await ingest(bytes(name), { detail }));
      expect(calls.toolu_fake_06_7).toEqual(['Run Command', 'failed', 1]);
      expect(calls.toolu_fake_02_3).toEqual(['Run Command', 'done', null]);
      // A read's output is not searched for exit codes.
      expect(calls.toolu_fake_01_2).toEqual(['Read', 'done', null]);
    }
  });

  test('claude-code-acp: the terminal says exit 1 and the call stays done, as the agent reported it', async () => {
    const calls = exits(await ingest(bytes('claude-code-acp.acp.jsonl'), { detail }));
    expect(calls.toolu_fake_06_7).toEqual(['Run Command', 'done', 1]);
    expect(calls.toolu_fake_02_3).toEqual(['Run Command', 'done', 0]);
  });

  test('Codex: each output says its exit code (an apply_patch too); codex-acp reports it in rawOutput', async () => {
    const rollout = exits(await ingest(bytes('codex-0.137.0_rollout.jsonl'), { detail }));
    expect(rollout.call_fake_6_8).toEqual(['Run Command', 'failed', 1]);
    expect(rollout.call_fake_6_7).toEqual(['Run Command', 'done', 0]);
    expect(rollout.call_fake_4_5).toEqual(['Edit', 'done', 0]);
    // The refused rm never ran.
    expect(rollout.call_fake_8_10).toEqual(['Run Command', 'failed', null]);
    const acp = exits(await ingest(bytes('codex-acp.acp.jsonl'), { detail }));
    expect(acp.call_fake_6_8).toEqual(['Read', 'failed', 1]);
  });
});

test('Codex exec_command_end gives the exit code and stays an event', async () => {
  const session = await ingest(new TextEncoder().encode(lines(
    { timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 's1' } },
    { timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"make"}', call_id: 'c1' } },
    { timestamp: '2026-01-01T00:00:02Z', type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'c1', exit_code: 2 } },
    { timestamp: '2026-01-01T00:00:03Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'make: *** No targets.' } },
  )), { detail: 'light' });
  expect(exits(session)).toEqual({ c1: ['Run Command', 'done', 2] });
  expect(session.items.some((item) => item.type === 'event' && item.name === 'event_msg/exec_command_end')).toBe(true);
});

test('the index row has the exit code summarize gives', async () => {
  const session = await ingest(bytes('codex-0.137.0_rollout.jsonl'), { detail: 'light' });
  const { calls } = fleetRows(session, { file: 'f', bytes: 0, modifiedMs: 0, headFormat: 'codex', project: null, startedMs: null, sessionId: null, title: null });
  expect(calls.find((call) => call.call_id === 'call_fake_6_8')?.exit_code).toBe(1);
  expect(calls.map((call) => call.exit_code)).toEqual(summarize(session).calls.map((call) => call.exitCode));
});

test('exitCodeInOutput: objects anywhere, text only for a command', () => {
  expect(exitCodeInOutput({ exit_code: 2 }, false)).toBe(2);
  expect(exitCodeInOutput({ metadata: { exit_code: 3 } }, false)).toBe(3);
  expect(exitCodeInOutput({ exitCode: 1.5 }, false)).toBeUndefined();
  expect(exitCodeInOutput('Exit code 2\nls: missing', true)).toBe(2);
  expect(exitCodeInOutput('Error: Exit code 1\ncat: x', true)).toBe(1);
  expect(exitCodeInOutput('Exit code: 0\nWall time: 0 seconds', true)).toBe(0);
  expect(exitCodeInOutput('Chunk ID: 1\nProcess exited with code 127\nOutput:\n', true)).toBe(127);
  expect(exitCodeInOutput('Output: ls: cannot access\nExit Code: 2\nProcess Group PGID: 1', true)).toBe(2);
  expect(exitCodeInOutput('{"output":"x","metadata":{"exit_code":4}}', true)).toBe(4);
  expect(exitCodeInOutput('Exit code 2', false)).toBeUndefined();
  expect(exitCodeInOutput('the log said Exit code 2', true)).toBeUndefined();
});
