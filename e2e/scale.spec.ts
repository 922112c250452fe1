import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, expectedSession, fixture, GENERATOR, openByPicker, test } from './helpers';

test.describe.configure({ timeout: 180_000 });

test('a ~20 MB session keeps the DOM bounded and scrolls to its last call', async ({ page }, info) => {
  const file = info.outputPath('big.acp.jsonl');
  execFileSync('node', [GENERATOR, '--format', 'acp', '--mb', '20', '--out', file]);
  const session = await expectedSession(file);
  const lastCallItem = session.items.findLast((it) => it.type === 'call');
  const lastCall = lastCallItem?.type === 'call' ? session.calls.get(lastCallItem.callKey) : undefined;
  expect(lastCall).toBeDefined();

  await openByPicker(page, file);
  await expect(page.getByTestId('records')).toHaveText(session.counts.lines.toLocaleString('en'));
  const tools = page.getByRole('region', { name: 'Filters' });
  await expect(tools).toContainText(`Tool calls: ${session.calls.size.toLocaleString('en')}`);

  const rows = page.getByRole('listitem');
  const bound = 120;
  expect(await rows.count()).toBeLessThan(bound);

  // Keyboard: End moves to the last row.
  await page.keyboard.press('End');
  const last = page.locator(`[data-call-id="${lastCall?.id}"]`);
  await expect(last).toBeInViewport();
  // The last row itself is wholly on screen once the rows around it have their real heights.
  await expect(page.locator('[data-focused]')).toHaveAttribute('data-item', String(session.items.length - 1));
  await expect(page.locator('[data-focused]')).toBeInViewport({ ratio: 1 });
  expect(await rows.count()).toBeLessThan(bound);

  // Scrolling: back to the top, then drag the scrollbar to the very end.
  await page.keyboard.press('Home');
  await expect(last).toHaveCount(0);
  await page.getByRole('list', { name: 'Transcript' }).evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(last).toBeInViewport();
  expect(await rows.count()).toBeLessThan(bound);
});

test('a file read light reads what it left in the file when a row is opened: a call\'s output, an agent\'s log entry', async ({ page }, info) => {
  // One file past the size from which the worker reads light (48 MiB), read once for both: a real
  // Qwen Code chat's lines, then a generated Grok session.
  const grok = info.outputPath('light.grok.jsonl');
  execFileSync('node', [GENERATOR, '--format', 'grok', '--mb', '50', '--out', grok]);
  const file = info.outputPath('light.qwen-and-grok.jsonl');
  writeFileSync(file, readFileSync(fixture('native/qwen-code-0.24.4_chat.jsonl')));
  appendFileSync(file, readFileSync(grok));
  await openByPicker(page, file);

  // Line 3: Qwen Code's telemetry of an API response, shown by its type; its fields are in the file only.
  const entry = page.locator('[data-kind="event"][data-line="3"]');
  await expect(entry).toContainText('system/ui_telemetry');
  await entry.getByRole('button').first().click();
  await expect(entry.getByText('Reading this entry from the file…')).toHaveCount(0);
  await expect(entry).toContainText('systemPayload');
  await expect(entry).toContainText('1774a48a-4c74-405f-af03-223fa6557159');

  await page.getByRole('group', { name: 'By label' }).getByLabel('Edit').check();
  const row = page.locator('[data-label="Edit"]').first();
  await row.locator('> button').click();
  await expect(row).toHaveAttribute('data-open', 'true');
  await expect(row.getByText('Reading this call’s output from the file…')).toHaveCount(0);
  await row.getByRole('tab', { name: 'Raw' }).click();
  await expect(row.getByRole('table')).toContainText('tool_call');
  await expect(row).toContainText('"full"');
});

test('past the browser\'s maximum element height, the list scales and End still reaches the last row', async ({ page }, info) => {
  // 320,000 separate messages (a messageId each, so none merge): far more virtual pixels than
  // the 10 M px spacer the list allows itself, so scrolling runs in the scaled coordinate space.
  const file = info.outputPath('tall.updates.jsonl');
  const count = 320_000;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = i === count - 1 ? 'the very last message' : `message ${i}`;
    lines.push(JSON.stringify({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', messageId: `m${i}`, content: { type: 'text', text } } }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  await openByPicker(page, file);

  const list = page.getByRole('list', { name: 'Transcript' });
  const rows = page.getByRole('listitem');
  // The spacer stops at its cap, though the rows need more: the scaled coordinate space is in use.
  expect(await list.evaluate((el) => el.scrollHeight)).toBe(10_000_000);

  await page.keyboard.press('End');
  await expect(page.getByText('the very last message')).toBeInViewport();
  expect(await rows.count()).toBeLessThan(120);

  // The middle of the scrollbar is the middle of the session.
  await list.evaluate((el) => {
    el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
  });
  await expect.poll(async () => Number(await page.locator('[data-item]').first().getAttribute('data-item'))).toBeGreaterThan(count * 0.4);
  expect(Number(await page.locator('[data-item]').first().getAttribute('data-item'))).toBeLessThan(count * 0.6);
  expect(await rows.count()).toBeLessThan(120);
});
