import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, fixture, openByPicker, test } from './helpers';

// Search finds a call by what is in its output, not only by its name: here a string that is only
// in one call's terminal output, and one only in another call's output content.
const SAMPLE = fixture('acp/acpx_session-log_from-contract.jsonl');

async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
}

async function expectOnlyCall(page: Page, id: string): Promise<void> {
  await expect(page.locator('[data-call-id]')).toHaveCount(1);
  await expect(page.locator(`[data-call-id="${id}"]`)).toBeVisible();
}

test('a string only in one call’s terminal output finds that call, in a full read', async ({ page }) => {
  await openByPicker(page, SAMPLE);
  await searchFor(page, 'QUOKKA-7731');
  await expectOnlyCall(page, 'call_1');
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText(/showing 1 row(?!s)/);
  await searchFor(page, 'pangolin-4410');
  await expectOnlyCall(page, 'call_2');
});

test('the same, in a light read: output left in the file is searched there', async ({ page }, info) => {
  test.setTimeout(120_000);
  // Past the size from which the worker leaves call output in the file (48 MB): the sample, then
  // 48 finished calls with 1 MB of output each.
  const file = info.outputPath('light.acpx.jsonl');
  const bulk = 'x'.repeat(1 << 20);
  const padding = Array.from({ length: 48 }, (_, i) =>
    JSON.stringify({
      seq: 100 + i,
      at: '2026-03-02T09:20:00.000Z',
      direction: 'inbound',
      message: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'acpx-7f3c', update: { sessionUpdate: 'tool_call', toolCallId: `pad_${i}`, title: 'padding', kind: 'other', status: 'completed', rawOutput: { bulk } } } },
    }),
  );
  writeFileSync(file, `${readFileSync(SAMPLE, 'utf8')}${padding.join('\n')}\n`);
  await openByPicker(page, file);
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 50');
  // In the page only by its terminal, whose output is sent with the terminals.
  await searchFor(page, 'QUOKKA-7731');
  await expectOnlyCall(page, 'call_1');
  // Only in the file: the worker finds it in the call's own line.
  await searchFor(page, 'pangolin-4410');
  await expectOnlyCall(page, 'call_2');
  // Opened, the call is read again from the file and shows what was found.
  await page.locator('[data-call-id="call_2"] > button').click();
  await expect(page.locator('[data-call-id="call_2"]')).toContainText('PANGOLIN-4410');
});

test('Esc in the search box keeps the search and hands the keys to its results', async ({ page }) => {
  await openByPicker(page, SAMPLE);
  await page.keyboard.press('/');
  await page.keyboard.type('pangolin-4410');
  await expectOnlyCall(page, 'call_2');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('pangolin-4410');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expectOnlyCall(page, 'call_2');
  await expect(page.locator('[data-call-id="call_2"]')).toContainText('PANGOLIN-4410');
});
