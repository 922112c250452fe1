import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { GENERATOR, expectedSession, openByPicker } from './helpers';

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

test('a file read light still shows a call in full once it is opened', async ({ page }, info) => {
  const file = info.outputPath('light.grok.jsonl');
  // Past the size from which the worker leaves call output in the file (48 MB).
  execFileSync('node', [GENERATOR, '--format', 'grok', '--mb', '50', '--out', file]);
  await openByPicker(page, file);
  await page.getByRole('group', { name: 'By label' }).getByLabel('Edit').check();
  const row = page.locator('[data-label="Edit"]').first();
  await row.locator('> button').click();
  await expect(row).toHaveAttribute('data-open', 'true');
  await expect(row.getByText('Reading this call’s output from the file…')).toHaveCount(0);
  await row.getByRole('tab', { name: 'Raw' }).click();
  await expect(row.getByRole('table')).toContainText('tool_call');
  await expect(row).toContainText('"full"');
});
