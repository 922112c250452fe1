// Sharing a session from the viewer: read redacted (no planted secret reaches the page), the
// Secrets panel lists what was replaced and shows where, and the exports hold no secret either.
import { readFileSync, writeFileSync } from 'node:fs';
import { ingest } from '../src/model';
import { leakedSecrets, plantedSession } from '../src/share/testing/plantedCorpus';
import { expect, fixture, openByPicker, test, waitLoaded } from './helpers';

test('a session read redacted shows no secret, lists each one, and exports none', async ({ page }, info) => {
  test.setTimeout(90_000);
  const file = info.outputPath('planted.jsonl');
  writeFileSync(file, plantedSession());
  await openByPicker(page, file);
  const redact = page.getByRole('button', { name: 'Redact secrets' });
  await expect(redact).toHaveAttribute('aria-pressed', 'false');
  // Unredacted, a planted secret is on the page (so the check below can fail).
  await page.getByRole('searchbox', { name: 'Search' }).fill('AKIAQX3YZ7PLMN4R2T6V');
  await expect(page.locator('[data-call-id]').first()).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');

  await redact.click();
  await expect(redact).toHaveAttribute('aria-pressed', 'true');
  await waitLoaded(page);
  const secrets = page.getByRole('region', { name: 'Secrets' });
  await expect(secrets.getByTestId('secrets-summary')).toContainText('aws-access-key');
  await page.getByRole('searchbox', { name: 'Search' }).fill('AKIAQX3YZ7PLMN4R2T6V');
  await expect(page.getByText('No rows match the filter.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');

  // A finding in a call's title opens that call.
  const inTitle = secrets.locator('button', { hasText: / in / }).first();
  await inTitle.click();
  await expect(page.locator('[aria-expanded="true"]').first()).toBeVisible();

  for (const format of ['jsonl', 'md'] as const) {
    await page.getByRole('button', { name: 'Export ▾', exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${format}"]`).click()]);
    expect(download.suggestedFilename()).toBe(`planted.redacted.${format}`);
    const text = readFileSync(await download.path(), 'utf8');
    expect(leakedSecrets(text), format).toEqual([]);
    expect(text).toContain('‹aws-access-key›');
    if (format === 'jsonl') {
      // Reads back as the same calls.
      const [back, original] = await Promise.all([ingest(text), ingest(plantedSession())]);
      expect([...back.calls.values()].map((c) => [c.id, c.label, c.status])).toEqual([...original.calls.values()].map((c) => [c.id, c.label, c.status]));
    }
  }
  expect(leakedSecrets(await page.content())).toEqual([]);
});

test('an export under a filter holds only the rows shown', async ({ page }, info) => {
  const file = info.outputPath('planted.jsonl');
  writeFileSync(file, plantedSession());
  await openByPicker(page, file);
  await page.getByRole('searchbox', { name: 'Search' }).fill('title-3');
  await page.getByRole('button', { name: 'Export ▾', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="jsonl"]').click()]);
  const session = await ingest(readFileSync(await download.path(), 'utf8'));
  const original = await ingest(plantedSession());
  const shown = [...original.calls.values()].filter((c) => c.id.includes('title-3')).map((c) => c.id);
  expect(shown.length).toBeGreaterThan(1);
  expect(shown.length).toBeLessThan(original.calls.size);
  expect([...session.calls.values()].map((c) => c.id)).toEqual(shown);
});

test('turning redaction on keeps the row that was at the top of the transcript at the top', async ({ page }) => {
  await openByPicker(page, fixture('acp/codex-acp-1.6.2_unwrapped.jsonl'));
  const topItem = () =>
    page.evaluate(() => {
      const rows = [...document.querySelectorAll<HTMLElement>('[data-item]')];
      const pane = rows[0]?.parentElement?.closest<HTMLElement>('[class*="transcriptPane"]');
      const top = pane?.getBoundingClientRect().top ?? 0;
      // On top: the first row showing half a pixel or more, as the list itself names it (VirtualController.firstVisibleRow).
      return Number(rows.find((row) => row.getBoundingClientRect().bottom > top + 0.5)?.dataset.item ?? -1);
    });
  await page.locator('[data-item]').first().hover();
  await page.mouse.wheel(0, 6000);
  // Read once the scroll has settled: on a loaded machine the list may still be moving after the first reading past row 20.
  let before = -1;
  await expect.poll(async () => {
    const seen = before;
    before = await topItem();
    return before > 20 && before === seen;
  }).toBe(true);
  await page.getByRole('button', { name: 'Redact secrets' }).click();
  await waitLoaded(page);
  await expect.poll(topItem).toBe(before);
});
