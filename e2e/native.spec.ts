// Agents' own logs in the viewer (CONTRACTS §10): entry types never seen before are shown by their
// type, and a Claude Code log followed live shows each call as it is written. That every sample in
// fixtures/native/ shows the rows pinned in its snapshot table is checked where each is opened,
// once: e2e/fixtures.spec.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addressPrinted, cssEscape, expect, fixture, openByDrop, openByPicker, ROOT, test } from './helpers';

const row = (page: Page, id: string) => page.locator(`[data-call-id="${cssEscape(id)}"]`);

/** `loupe open --follow` of a session file, serving on a free port (it prints the address). */
function openFollowing(file: string): ChildProcess {
  return spawn(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'open', file, '--follow', '--no-browser', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Appends `source`'s lines to `file`, each call up to and with the first line `upTo` accepts (all that is left, for `() => false`). */
function lineAppender(source: string, file: string): (upTo: (line: string) => boolean) => void {
  const lines = readFileSync(source, 'utf8').split('\n').filter((l) => l.trim() !== '');
  return (upTo) => {
    while (lines.length > 0) {
      const line = lines.shift()!;
      appendFileSync(file, `${line}\n`);
      if (upTo(line)) return;
    }
  };
}

test.use({ viewport: { width: 1280, height: 2400 } });


test('a native log: its plan, messages and usage are shown; the output of a call is searchable', async ({ page }) => {
  await openByPicker(page, fixture('native/claude-code-2.1.83_via-claude-agent-acp.jsonl'));
  await expect(page.locator('[data-kind="plan"]')).toContainText('Read notes.txt');
  await expect(page.locator('[data-kind="user"]').filter({ hasText: 'Please tidy up notes.txt' })).toHaveCount(1);
  // Usage is not a transcript row: one report per response (eleven) in the Usage view, each from
  // its last entry (100 in, 20 out).
  await expect(page.locator('[data-kind="usage"]')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Usage' }).click();
  const perTurn = page.getByRole('table', { name: 'Usage per turn' }).locator('tbody tr');
  await expect(perTurn).toHaveCount(11);
  await expect(perTurn.first()).toContainText('100');
  await expect(perTurn.first()).toContainText('20');
  await page.getByRole('tab', { name: 'Transcript' }).click();
  // Only the call whose output names the file is left.
  await page.getByRole('searchbox', { name: 'Search' }).fill('water the plants');
  await expect(row(page, 'toolu_fake_01_2')).toBeVisible();
  await expect(row(page, 'toolu_fake_02_3')).toBeHidden();
});

test('entry types never seen before are shown by their type, nothing unknown', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-native-'));
  try {
    const file = join(dir, 'invented.jsonl');
    writeFileSync(file, [
      { type: 'hologram-snapshot', uuid: 'h1', sessionId: 's1', beams: 3 },
      { type: 'system', subtype: 'quantum_tunnel', uuid: 'h2', sessionId: 's1', content: 'through the wall' },
      { type: 'assistant', uuid: 'h3', sessionId: 's1', message: { id: 'm', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] } },
      { timestamp: '2026-01-01T00:00:00Z', type: 'weather_report', payload: { rain: true } },
    ].map((line) => JSON.stringify(line)).join('\n') + '\n');
    await openByDrop(page, [file]);
    await expect(page.locator('[data-kind="event"]').filter({ hasText: 'hologram-snapshot' })).toBeVisible();
    await expect(page.locator('[data-kind="event"]').filter({ hasText: 'system/quantum_tunnel' })).toContainText('through the wall');
    await expect(page.locator('[data-kind="event"]').filter({ hasText: 'weather_report' })).toBeVisible();
    await expect(page.locator('[data-kind="unknown"]')).toHaveCount(0);
    await expect(row(page, 't1')).toHaveAttribute('data-label', 'Read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Claude Code log appended line by line is followed live: each call pending, then done', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-native-live-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, '');
  const child = openFollowing(file);
  try {
    const url = await addressPrinted(child);
    const append = lineAppender(fixture('native/claude-code-2.1.83_via-claude-agent-acp.jsonl'), file);
    await page.goto(url);
    await expect(page.getByTestId('live')).toBeVisible();
    // Up to the entry that starts `ls -la`: written, not yet answered.
    append((line) => line.includes('"id":"toolu_fake_02_3"'));
    await expect(row(page, 'toolu_fake_02_3')).toHaveAttribute('data-status', 'pending');
    await expect(row(page, 'toolu_fake_02_3')).toContainText('ls -la');
    await expect(row(page, 'toolu_fake_01_2')).toHaveAttribute('data-status', 'done');
    // Its result: done in place.
    append((line) => line.includes('"tool_use_id":"toolu_fake_02_3"'));
    await expect(row(page, 'toolu_fake_02_3')).toHaveAttribute('data-status', 'done');
    // The refused rm, then its result: failed.
    append((line) => line.includes('"id":"toolu_fake_09_11"'));
    await expect(row(page, 'toolu_fake_09_11')).toHaveAttribute('data-status', 'pending');
    append(() => false);
    await expect(row(page, 'toolu_fake_09_11')).toHaveAttribute('data-status', 'failed');
    await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 10');
    await expect(page.getByTestId('live')).toBeVisible();
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Claude session with a sub-agent: the Agent row folds its calls (2, 1 failed), lists them when opened, and bookkeeping lines are one quiet row', async ({ page }) => {
  const dir = fixture('subagent');
  const session = '7d3f2a10-5b6c-4e8d-9f01-2a3b4c5d6e7f';
  await openByDrop(page, [join(dir, `${session}.jsonl`), join(dir, session, 'subagents', 'agent-a5f1c2d3e4b5a6978.jsonl')]);
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 4');
  const agent = row(page, 'toolu_fake_01_2');
  await expect(agent.locator('[data-subagent-count]')).toHaveText('2 sub-agent calls 1 failed');
  await expect(row(page, 'toolu_fake_s1_1')).toHaveCount(0);
  await expect(row(page, 'toolu_fake_s2_2')).toHaveCount(0);
  await agent.getByRole('button').first().click();
  await expect(agent.locator('[data-subagent-call]')).toHaveCount(2);
  await expect(agent.locator('[data-subagent-call="toolu_fake_s2_2"]')).toHaveAttribute('data-status', 'failed');
  // The two queue-operations: one quiet row; the sub-agent's progress entries too.
  await expect(page.locator('[data-kind="bookkeeping"]').first()).toContainText('2 bookkeeping entries');
  await expect(page.locator('[data-kind="event"]').filter({ hasText: 'queue-operation' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Sessions' }).click();
  await expect(page.getByTestId('session-tree')).toContainText('spawned by toolu_fake_01_2');
});

test("a Claude Code session dropped with its sub-agent's file is read as one: the Task call links to the sub-agent", async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-native-sub-'));
  try {
    const at = (s: number) => `2026-12-01T10:00:0${s}.000Z`;
    const main = join(dir, 's1.jsonl');
    const agent = join(dir, 'agent-a7.jsonl');
    writeFileSync(main, [
      { type: 'assistant', uuid: 'u1', sessionId: 's1', timestamp: at(1), message: { id: 'm1', content: [{ type: 'tool_use', id: 'task-1', name: 'Task', input: { description: 'Find the config', prompt: 'look', subagent_type: 'Explore' } }] } },
      { type: 'user', uuid: 'u4', sessionId: 's1', timestamp: at(5), message: { content: [{ type: 'tool_result', tool_use_id: 'task-1', content: [{ type: 'text', text: 'found it' }] }] }, toolUseResult: { status: 'completed', agentId: 'a7', content: [{ type: 'text', text: 'found it' }] } },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    writeFileSync(agent, [
      { type: 'user', uuid: 'u2', sessionId: 's1', isSidechain: true, agentId: 'a7', timestamp: at(2), message: { role: 'user', content: 'look' } },
      { type: 'assistant', uuid: 'u3', sessionId: 's1', isSidechain: true, agentId: 'a7', timestamp: at(3), message: { id: 'm2', content: [{ type: 'tool_use', id: 'glob-1', name: 'Glob', input: { pattern: '**/*.toml' } }] } },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    await openByDrop(page, [main, agent]);
    await expect(page.getByRole('navigation', { name: 'Open files' })).toHaveCount(0);
    await expect(row(page, 'task-1')).toHaveAttribute('data-label', 'Subagent');
    // The sub-agent's call is folded under the Task call that started it (CONTRACTS §11), not a row of its own.
    await expect(row(page, 'task-1').locator('[data-subagent-count]')).toHaveText('1 sub-agent call');
    await expect(row(page, 'glob-1')).toHaveCount(0);
    await row(page, 'task-1').getByRole('button').first().click();
    await expect(row(page, 'task-1').locator('[data-subagent-call="glob-1"]')).toContainText('List Files');
    // A filter shows every call it keeps as a row, the sub-agent's too.
    await page.getByRole('searchbox', { name: 'Search' }).fill('toml');
    await expect(row(page, 'glob-1')).toHaveAttribute('data-label', 'List Files');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await expect(page.getByTestId('session-tree')).toContainText('spawned by task-1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The recorded run (fixtures/subagent/claude-code-2.1.83_three-subagents/): three sub-agents, two at once.
const RECORDED = 'subagent/claude-code-2.1.83_three-subagents';
const RUN = '869c696e-f778-4f73-81d7-92fbc13f60b4';
const AGENTS = { A: 'ae39ff0bfb83acdd9', B: 'aab1cfe8219976e47', C: 'abfb5d1c99197dbd5' } as const;
const agentFile = (agent: string) => fixture(`${RECORDED}/${RUN}/subagents/agent-${agent}.jsonl`);

test('a recorded Claude Code run with three sub-agents: each Agent row folds its sub-agent\'s calls, and the Sessions view is a tree', async ({ page }) => {
  await openByDrop(page, [fixture(`${RECORDED}/${RUN}.jsonl`), ...Object.values(AGENTS).map(agentFile)]);
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 19');
  await expect(row(page, 'toolu_main1_1_1').locator('[data-subagent-count]')).toHaveText('3 sub-agent calls');
  await expect(row(page, 'toolu_main1_1_2').locator('[data-subagent-count]')).toHaveText('3 sub-agent calls');
  await expect(row(page, 'toolu_main2_1_1').locator('[data-subagent-count]')).toHaveText('3 sub-agent calls 1 failed');
  await expect(row(page, 'toolu_subC_1_1')).toHaveCount(0);
  await row(page, 'toolu_main2_1_1').getByRole('button').first().click();
  await expect(row(page, 'toolu_main2_1_1').locator('[data-subagent-call="toolu_subC_1_1"]')).toHaveAttribute('data-status', 'failed');
  await page.getByRole('tab', { name: 'Sessions' }).click();
  const tree = page.getByTestId('session-tree');
  for (const parent of ['toolu_main1_1_1', 'toolu_main1_1_2', 'toolu_main2_1_1']) await expect(tree).toContainText(`spawned by ${parent}`);
});

test('loupe open --follow of a Claude Code session: a running sub-agent\'s calls show under its Agent call from the main log, and its file, once there, adds nothing twice', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-native-sub-live-'));
  const file = join(dir, `${RUN}.jsonl`);
  const subagents = join(dir, RUN, 'subagents');
  writeFileSync(file, '');
  const child = openFollowing(file);
  try {
    const url = await addressPrinted(child);
    const append = lineAppender(fixture(`${RECORDED}/${RUN}.jsonl`), file);
    await page.goto(url);
    await expect(page.getByTestId('live')).toBeVisible();
    // Up to sub-agent C's failing build, from the main log's progress copies: no sub-agent file yet.
    append((line) => line.includes('"agent_progress"') && line.includes('"tool_use_id":"toolu_subC_1_1"'));
    await expect(row(page, 'toolu_main1_1_1').locator('[data-subagent-count]')).toHaveText('3 sub-agent calls');
    await expect(row(page, 'toolu_main2_1_1').locator('[data-subagent-count]')).toHaveText('2 sub-agent calls 1 failed');
    await expect(row(page, 'toolu_main2_1_1')).toHaveAttribute('data-status', 'pending');
    // The sub-agents' files appear (the followed session reads them too), then the rest of the log.
    mkdirSync(subagents, { recursive: true });
    for (const agent of Object.values(AGENTS)) copyFileSync(agentFile(agent), join(subagents, `agent-${agent}.jsonl`));
    append(() => false);
    await expect(row(page, 'toolu_main2_1_1')).toHaveAttribute('data-status', 'done');
    await expect(row(page, 'toolu_main2_1_1').locator('[data-subagent-count]')).toHaveText('3 sub-agent calls 1 failed');
    await expect(row(page, 'toolu_main1_1_1').locator('[data-subagent-count]')).toHaveText('3 sub-agent calls');
    await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 19');
    // A sub-agent's last message is only in its file: read from it.
    await expect(page.locator('[data-kind="agent"]').filter({ hasText: 'scripts/build.js does not exist' })).toHaveCount(1);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
