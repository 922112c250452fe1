// Notes on calls are kept in the browser under the file's content hash: they survive a reload and
// a re-open of the same file, never attach to a different file, and go into the md export.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, fixture, openByPicker, test } from './helpers';

const SESSION = fixture('acp/codex-acp-1.6.2_unwrapped.jsonl');
const OTHER = fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');

test('a note on a call survives a reload and re-open of the same file, and does not attach to another', async ({ page }) => {
  await openByPicker(page, SESSION);
  const notes = page.getByRole('region', { name: 'Notes' });
  await page.locator('[data-call-id]').first().click();
  await notes.getByRole('textbox').fill('retry this one');
  await notes.getByRole('button', { name: '☆ Bookmark' }).click();
  await expect(notes.getByTestId('notes-list')).toContainText('★');
  // The row itself is marked, with the note's text on hover.
  const marked = page.locator('[data-call-id] [data-user-note]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveText('★✎');
  await expect(marked).toHaveAttribute('title', 'bookmarked; note: retry this one');

  await page.reload();
  await openByPicker(page, SESSION);
  await expect(notes.getByTestId('notes-list')).toContainText('retry this one');
  await expect(page.locator('[data-call-id]').first().locator('[data-user-note]')).toHaveText('★✎');
  // The md export carries it.
  await page.getByRole('button', { name: 'Export ▾', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="md"]').click()]);
  expect(readFileSync(await download.path(), 'utf8')).toMatch(/## Notes\n\n- ★ .*retry this one/);
  // A click on the note opens its call.
  await notes.getByTestId('notes-list').getByRole('button').first().click();
  await expect(page.locator('[aria-expanded="true"]').first()).toBeVisible();

  const [sidecar] = await Promise.all([page.waitForEvent('download'), notes.getByRole('button', { name: 'Export notes' }).click()]);
  const sidecarPath = await sidecar.path();

  await openByPicker(page, OTHER);
  await expect(notes).toBeVisible();
  await expect(notes.getByTestId('notes-list')).toHaveCount(0);
  await expect(notes).not.toContainText('retry this one');
  await expect(page.locator('[data-user-note]')).toHaveCount(0);
  // Another file's notes are refused.
  await notes.getByTestId('notes-import').setInputFiles(sidecarPath);
  await expect(notes.getByRole('status')).toContainText('another file');
  await expect(notes.getByTestId('notes-list')).toHaveCount(0);
});

test('the note box is named for its call alone, and a call with a very long name stays inside the sidebar', async ({ page }, info) => {
  const longTitle = 'x'.repeat(400);
  const file = info.outputPath('long-title.jsonl');
  writeFileSync(file, `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: longTitle, kind: 'other', status: 'completed' } } })}\n`);
  await openByPicker(page, file);
  await page.locator('[data-call-id="c1"] > button').click();
  const notes = page.getByRole('region', { name: 'Notes' });
  const box = notes.getByRole('textbox');
  await expect(box).toHaveAccessibleName(`Note on ${longTitle}`);
  const [panelWidth, panelScrollWidth] = await notes.evaluate((el) => [el.clientWidth, el.scrollWidth]);
  expect(panelScrollWidth).toBeLessThanOrEqual(panelWidth);
});
