// `loupe open DIR` (the built CLI as a child process) in Chromium: the folder indexed, one row per
// session file, and fleet stats equal to the sums of what the model reads from each file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedFleet, expectLibraryShows } from './fleet';
import { addressPrinted, cssEscape, expect, failOnPageErrors, fixture, GENERATOR, ROOT, test, waitLoaded } from './helpers';

const LOUPE = join(ROOT, 'bin/loupe.mjs');
const children: ChildProcess[] = [];

failOnPageErrors();

test.afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** A folder of sessions in sub-folders: generated ACP, Grok and ledger ones, Claude Code and Codex logs, and a file that is no session. */
function fleetFolder(dir: string): string[] {
  const generated: [string, string[]][] = [
    ['alpha/acp-1.jsonl', ['--format', 'acp', '--calls', '25', '--seed', '11']],
    ['alpha/grok.jsonl', ['--format', 'grok', '--calls', '18', '--seed', '12']],
    ['beta/ledger.jsonl', ['--format', 'ledger', '--calls', '14', '--seed', '13']],
    ['beta/acp-2.jsonl', ['--format', 'acp', '--calls', '9', '--seed', '14']],
  ];
  for (const [file, args] of generated) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    const made = spawnSync(process.execPath, [GENERATOR, ...args, '--out', join(dir, file)], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
  }
  const natives = ['native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'native/codex-0.137.0_rollout.jsonl'];
  mkdirSync(join(dir, 'native'), { recursive: true });
  for (const file of natives) copyFileSync(fixture(file), join(dir, file));
  writeFileSync(join(dir, 'alpha', 'settings.json'), '{"theme": "dark"}\n');
  return [...generated.map(([file]) => file), ...natives].sort();
}

test('loupe open DIR lists one row per session file, with fleet stats that are the sums of each file', async ({ page }, info) => {
  const dir = info.outputPath('fleet');
  const files = fleetFolder(dir);
  const expected = await expectedFleet(dir, files);
  const { perFile, labels, total } = expected;
  expect(total).toBeGreaterThan(60);

  const child = spawn(process.execPath, [LOUPE, 'open', dir, '--no-browser', '--port', '0'], {
    env: { ...process.env, XDG_CACHE_HOME: info.outputPath('cache') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const url = await addressPrinted(child);
  expect(url).toMatch(/\/\?library$/);
  await page.goto(url);

  const library = page.getByTestId('library');
  const rows = library.locator('[data-session-file]');
  await expectLibraryShows(page, expected);
  const stats = page.getByRole('table', { name: 'Calls per label' });

  // A label opens the sessions behind it: those with a call of that label, and the stats follow.
  const [someLabel, labelCalls] = [...labels].sort((a, b) => a[1] - b[1])[0]!;
  const withLabel = files.filter((file) => perFile.get(file)!.labels.has(someLabel));
  await stats.locator(`tbody [data-label="${cssEscape(someLabel)}"] th button`).click();
  await expect(rows).toHaveCount(withLabel.length);
  const shownTotal = withLabel.reduce((sum, file) => sum + perFile.get(file)!.calls, 0);
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(shownTotal));
  await expect(stats.locator(`tbody [data-label="${cssEscape(someLabel)}"]`)).toHaveAttribute('data-calls', String(labelCalls));

  // Filter by harness; sort by calls, most first.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.locator('select[data-filter="harness"]').selectOption('ledger');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-session-file', 'beta/ledger.jsonl');
  await page.getByRole('button', { name: 'Clear' }).click();
  await library.locator('[data-sort="calls"]').click();
  const byCalls = [...files].sort((a, b) => perFile.get(b)!.calls - perFile.get(a)!.calls || a.localeCompare(b));
  await expect(rows.first()).toHaveAttribute('data-session-file', byCalls[0]!);

  // A session opens in the viewer, with the calls the model reads from its file.
  const claude = 'native/claude-code-2.1.83_via-claude-agent-acp.jsonl';
  await library.locator(`[data-session-file="${cssEscape(claude)}"] a`).click();
  await waitLoaded(page);
  await expect(page.getByText(`Tool calls: ${perFile.get(claude)!.calls}`)).toBeVisible();
  await expect(page).toHaveTitle(/claude-code-2\.1\.83_via-claude-agent-acp\.jsonl/);
});
