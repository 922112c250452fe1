// The app's "Open folder…" without a server: a folder picked in the page is indexed in a worker,
// one row per session file, fleet stats equal to the sums of what the model reads from each file,
// and a session opens in the viewer from the picked file.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest, summarize } from '../src/model';
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

  const perFile = new Map<string, { calls: number; failed: number }>();
  const labels = new Map<string, number>();
  for (const file of SESSIONS) {
    const summary = summarize(await ingest(new Uint8Array(readFileSync(join(dir, file))), { detail: 'light' }));
    for (const call of summary.calls) labels.set(call.label, (labels.get(call.label) ?? 0) + 1);
    perFile.set(file, { calls: summary.calls.length, failed: summary.calls.filter((call) => call.status === 'failed').length });
  }
  const total = [...perFile.values()].reduce((sum, f) => sum + f.calls, 0);
  const failed = [...perFile.values()].reduce((sum, f) => sum + f.failed, 0);
  expect(total).toBeGreaterThan(0);

  await page.goto('/');
  await page.getByTestId('folder-input').setInputFiles(dir);

  const library = page.getByTestId('library');
  const rows = library.locator('[data-session-file]');
  await expect(rows).toHaveCount(SESSIONS.length);
  for (const file of SESSIONS) {
    const row = library.locator(`[data-session-file="${cssEscape(file)}"]`);
    await expect(row).toHaveAttribute('data-calls', String(perFile.get(file)!.calls));
    await expect(row).toHaveAttribute('data-failed', String(perFile.get(file)!.failed));
  }
  const stats = page.getByRole('table', { name: 'Calls per label' });
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(total));
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-failed', String(failed));
  await expect(stats.locator('tbody [data-label]')).toHaveCount(labels.size);
  for (const [label, calls] of labels) await expect(stats.locator(`tbody [data-label="${cssEscape(label)}"]`)).toHaveAttribute('data-calls', String(calls));

  // A session opens in the viewer from the picked file; "Library" goes back to the same rows.
  const claude = SESSIONS[0]!;
  await library.locator(`[data-session-file="${cssEscape(claude)}"] a`).click();
  await waitLoaded(page);
  await expect(page.getByText(`Tool calls: ${perFile.get(claude)!.calls}`)).toBeVisible();
  await expect(page).toHaveTitle(/claude-code-2\.1\.83_via-claude-agent-acp\.jsonl/);
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  await expect(rows).toHaveCount(SESSIONS.length);
});
