import { expect, test } from 'vitest';
import { withSubagents } from './subagents';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const file = (name: string, text: string) => new File([text], name, { type: 'application/json' });

test("a sub-agent's file is read with its session's file when both are given; anything else opens on its own", async () => {
  const main = file('s1.jsonl', line({ type: 'user', uuid: 'u1', sessionId: 's1', message: { content: 'go' } }).trimEnd());
  const agent = file('agent-a7.jsonl', line({ type: 'user', uuid: 'u2', sessionId: 's1', isSidechain: true, agentId: 'a7', message: { content: 'look' } }));
  const stray = file('agent-b9.jsonl', line({ type: 'user', uuid: 'u3', sessionId: 'elsewhere', isSidechain: true, agentId: 'b9' }));
  const other = file('capture.jsonl', 'not json\n');
  const sessions = await withSubagents([agent, main, stray, other]);
  expect(sessions.map((s) => s.name)).toEqual(['s1.jsonl (+1 sub-agent)', 'agent-b9.jsonl', 'capture.jsonl']);
  // The parent's last line had no newline: it stays a line of its own.
  expect((await sessions[0]!.source.text()).split('\n').map((l) => (l ? (JSON.parse(l) as { uuid: string }).uuid : ''))).toEqual(['u1', 'u2', '']);
});
