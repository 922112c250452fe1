// The app's "Open folder…" without a server: a folder picked in the page is indexed in a worker,
// one row per session file, fleet stats equal to the sums of what the model reads from each file,
// and a session opens in the viewer from the picked file.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedFleet, expectLibraryShows } from './fleet';
import { cssEscape, expect, failOnPageErrors, fixture, test, waitLoaded } from './helpers';

failOnPageErrors();

const SESSIONS = ['native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'native/codex-0.137.0_rollout.jsonl', 'grok/esc-interrupt.updates.jsonl'];

test('Open folder… lists one row per session file of the picked folder, with fleet stats that are the sums of each file', async ({ page }, info) => {
  const dir = info.outputPath('picked');
  for (const file of SESSIONS) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    copyFileSync(fixture(file), join(dir, file));
  }
  // Not sessions: a settings file (read, then left out) and a file the picker skips by its kind.
  writeFileSync(join(dir, 'settings.json'), '{"theme": "dark"}\n');
  writeFileSync(join(dir, 'notes.md'), '# not a session\n');

  const expected = await expectedFleet(dir, SESSIONS);
  expect(expected.total).toBeGreaterThan(0);

  await page.goto('/');
  await page.getByTestId('folder-input').setInputFiles(dir);

  await expectLibraryShows(page, expected);

  // A session opens in the viewer from the picked file; "Library" goes back to the same rows.
  const claude = SESSIONS[0]!;
  await page.getByTestId('library').locator(`[data-session-file="${cssEscape(claude)}"] a`).click();
  await waitLoaded(page);
  await expect(page.getByText(`Tool calls: ${expected.perFile.get(claude)!.calls}`)).toBeVisible();
  await expect(page).toHaveTitle(/claude-code-2\.1\.83_via-claude-agent-acp\.jsonl/);
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  await expect(page.getByTestId('library').locator('[data-session-file]')).toHaveCount(SESSIONS.length);
});
