// `loupe open BASE` on a team's index (three machines' `loupe index --machine NAME` partitions in
// one folder) in Chromium: the union as one library with a Machine column and filter; this
// machine's sessions open, another machine's say where they live, even at the same path.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { expectedFleet } from './fleet';
import { addressPrinted, cssEscape, expect, failOnPageErrors, GENERATOR, ROOT, test, waitLoaded } from './helpers';

const LOUPE = join(ROOT, 'bin/loupe.mjs');
const children: ChildProcess[] = [];

failOnPageErrors();

test.afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

function generate(dir: string, file: string, args: string[]): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  const made = spawnSync(process.execPath, [GENERATOR, ...args, '--out', join(dir, file)], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  // Written an hour ago: not a session an agent is still writing (which the viewer would follow).
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(join(dir, file), hourAgo, hourAgo);
}

test("loupe open BASE shows every machine's sessions, with a Machine column and filter; only this machine's files open", async ({ page }, info) => {
  const dir = info.outputPath('sessions');
  generate(dir, 'shared/s.jsonl', ['--format', 'acp', '--calls', '10', '--seed', '51']);
  generate(dir, 'alpha/a.jsonl', ['--format', 'grok', '--calls', '7', '--seed', '52']);
  generate(dir, 'beta/b.jsonl', ['--format', 'ledger', '--calls', '5', '--seed', '53']);
  generate(dir, 'here/h.jsonl', ['--format', 'acp', '--calls', '8', '--seed', '54']);
  const base = info.outputPath('team');
  // alpha and this machine both have a file at shared/s.jsonl: two sessions, one on each.
  const machines: [string, string[]][] = [['alpha', ['shared', 'alpha']], ['beta', ['beta']], ['here', ['shared', 'here']]];
  for (const [machine, folders] of machines) {
    const run = spawnSync(process.execPath, [LOUPE, 'index', ...folders.map((f) => join(dir, f)), '--out', base, '--machine', machine], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  }
  const fleet = await expectedFleet(dir, ['shared/s.jsonl', 'alpha/a.jsonl', 'beta/b.jsonl', 'here/h.jsonl']);
  const callsOf = (file: string) => fleet.perFile.get(file)!.calls;
  const total = callsOf('shared/s.jsonl') * 2 + callsOf('alpha/a.jsonl') + callsOf('beta/b.jsonl') + callsOf('here/h.jsonl');

  const child = spawn(process.execPath, [LOUPE, 'open', base, '--machine', 'here', '--no-browser', '--port', '0'], {
    env: { ...process.env, XDG_CACHE_HOME: info.outputPath('cache') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const url = await addressPrinted(child);
  await page.goto(url);

  const library = page.getByTestId('library');
  await expect(library).toHaveAttribute('data-team', '3');
  const rows = library.locator('[data-session-file]');
  await expect(rows).toHaveCount(5);
  const row = (machine: string, file: string) => library.locator(`[data-machine="${machine}"][data-session-file="${cssEscape(join(dir, file))}"]`);
  for (const [machine, file] of [['alpha', 'shared/s.jsonl'], ['alpha', 'alpha/a.jsonl'], ['beta', 'beta/b.jsonl'], ['here', 'shared/s.jsonl'], ['here', 'here/h.jsonl']] as const) {
    await expect(row(machine, file)).toHaveAttribute('data-calls', String(callsOf(file)));
  }
  const stats = page.getByRole('table', { name: 'Calls per label' });
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(total));

  // Another machine's session says where it lives; this machine's opens.
  await expect(row('alpha', 'shared/s.jsonl').locator('a')).toHaveCount(0);
  await expect(row('alpha', 'shared/s.jsonl').locator('[data-elsewhere]')).toHaveAttribute('data-elsewhere', `alpha:${join(dir, 'shared/s.jsonl')}`);
  await expect(row('beta', 'beta/b.jsonl').locator('[data-elsewhere]')).toHaveCount(1);

  // The Machine filter: beta's one session, and the stats over it.
  await page.locator('select[data-filter="machine"]').selectOption('beta');
  await expect(rows).toHaveCount(1);
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(callsOf('beta/b.jsonl')));
  await page.locator('select[data-filter="machine"]').selectOption('here');
  await expect(rows).toHaveCount(2);
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(callsOf('shared/s.jsonl') + callsOf('here/h.jsonl')));

  await row('here', 'here/h.jsonl').locator('a').click();
  await waitLoaded(page);
  await expect(page.getByText(`Tool calls: ${callsOf('here/h.jsonl')}`)).toBeVisible();
});
