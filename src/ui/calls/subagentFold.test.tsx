// @vitest-environment jsdom
// A sub-agent's calls folded under the call that started it (CONTRACTS §11), in the store and on the row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { CallRow } from './CallRow';
import { loadedStore } from '../../store/testing/stores';

afterEach(cleanup);

const DIR = join(import.meta.dirname, '../../../fixtures/subagent');
const SESSION = '7d3f2a10-5b6c-4e8d-9f01-2a3b4c5d6e7f';
const LOG = readFileSync(join(DIR, `${SESSION}.jsonl`), 'utf8');
const SUBAGENT = readFileSync(join(DIR, SESSION, 'subagents', 'agent-a5f1c2d3e4b5a6978.jsonl'), 'utf8');
const CAPTURE = readFileSync(join(DIR, 'claude-agent-acp_subagent.acp.jsonl'), 'utf8');

describe.each([
  ['the ACP capture', CAPTURE],
  ['the Claude Code log with its sub-agent file', `${LOG}\n${SUBAGENT}`],
])('%s', (_, text) => {
  test('the sub-agent\'s calls are not rows of their own but folded under the Agent call; a filter shows them', async () => {
    const store = await loadedStore(text);
    const snap = store.getSnapshot();
    const shownCalls = snap.shownRows.flatMap((index) => {
      const item = snap.items.get(index);
      return item?.type === 'call' ? [snap.calls.get(item.callKey)!.id] : [];
    });
    expect(shownCalls).toEqual(['toolu_fake_01_2', 'toolu_fake_02_3']);
    expect(snap.subagentCalls.get('toolu_fake_01_2')?.map((call) => call.id)).toEqual(['toolu_fake_s1_1', 'toolu_fake_s2_2']);

    store.setFilter({ statuses: ['failed'] });
    const failed = store.getSnapshot();
    expect(failed.shownRows.map((index) => failed.items.get(index)).flatMap((item) => (item?.type === 'call' ? [failed.calls.get(item.callKey)!.id] : []))).toEqual(['toolu_fake_s2_2']);
  });

  test('the Agent call\'s row says how many calls its sub-agent made and how many failed, and lists them when opened', async () => {
    const snap = (await loadedStore(text)).getSnapshot();
    const agent = [...snap.calls.values()].find((call) => call.id === 'toolu_fake_01_2')!;
    const { container } = render(<CallRow call={agent} ended open terminals={snap.terminals} focused={false} dark={false} onToggle={() => undefined} subagentCalls={snap.subagentCalls.get(agent.id)} />);
    expect(container.querySelector('[data-subagent-count]')?.textContent).toBe('2 sub-agent calls 1 failed');
    expect([...container.querySelectorAll('[data-subagent-call]')].map((li) => [li.getAttribute('data-subagent-call'), li.getAttribute('data-status'), li.textContent])).toEqual([
      ['toolu_fake_s1_1', 'done', 'done Read /home/dev/run2/work/claude-agent-acp-capture/notes.txt'],
      ['toolu_fake_s2_2', 'failed', 'failed Run Command cat missing-file.txt exit 1'],
    ]);
  });
});

test('a session without sub-agents keeps every call a row', async () => {
  const snap = (await loadedStore(readFileSync(join(import.meta.dirname, '../../../fixtures/native/claude-agent-acp.acp.jsonl'), 'utf8'))).getSnapshot();
  expect(snap.subagentCalls.size).toBe(0);
  expect(snap.shownRows.filter((index) => snap.items.get(index)?.type === 'call')).toHaveLength(10);
});
