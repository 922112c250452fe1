// Two runs of one task compared step by step (issue 20): `?src=A&vs=B` in the built app, and
// `loupe open B --follow --vs A` while B is still being written.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addressPrinted, expect, expectedSession, failOnPageErrors, fixture, GENERATOR, ROOT, test } from './helpers';

failOnPageErrors();

/** A real session: Claude Code through claude-agent-acp, recorded by loupe tee (ten calls). */
const CAPTURE = fixture('native/claude-agent-acp.acp.jsonl');
const LINES = readFileSync(CAPTURE, 'utf8').split('\n').filter((line) => line.trim() !== '');
const ofCall = (id: string) => (line: string) => line.includes(`"toolCallId":"${id}"`);

const rows = (page: Page) => page.locator('[data-diff]');
const summary = (page: Page) => page.getByTestId('compare-summary');

async function serveAt(page: Page, name: string, lines: string[]): Promise<string> {
  await page.route(`**/e2e-src/${name}`, (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: `${lines.join('\n')}\n` }));
  return `e2e-src/${name}`;
}

test('?src=A&vs=B shows the two runs aligned, the first divergence marked, scrolled to and announced', async ({ page }) => {
  // B skipped A's third call (the Edit) and its fifth call (the Write) failed where A's succeeded.
  const skipped = 'toolu_fake_03_4';
  const failed = 'toolu_fake_05_6';
  const b = LINES.filter((line) => !ofCall(skipped)(line)).map((line) => (ofCall(failed)(line) ? line.replace('"status":"completed"', '"status":"failed"') : line));
  expect(b.some((line) => ofCall(failed)(line) && line.includes('"status":"failed"'))).toBe(true);
  const srcA = await serveAt(page, 'a.jsonl', LINES);
  const srcB = await serveAt(page, 'b.jsonl', b);
  await page.goto(`/?src=${encodeURIComponent(srcA)}&vs=${encodeURIComponent(srcB)}`);

  await expect(summary(page)).toHaveText(/^First divergence at step 3: A: Edit .*notes\.txt \(done\); B: /);
  await expect(summary(page)).toHaveAttribute('aria-live', 'polite');
  const first = page.locator('[data-first-divergence]');
  await expect(first).toHaveCount(1);
  await expect(first).toHaveAttribute('data-diff', 'only-a');
  await expect(first.locator(`[data-call-id="${skipped}"]`)).toBeVisible();
  await expect(first.locator('[data-gap="B"]')).toBeVisible();
  await expect(first).toBeInViewport();
  await expect(page.getByTestId('compare-counts')).toHaveText('matched 9 (same 8, other status 1) · only in A 1 · only in B 0');

  // Every step of each run has its row: ten of A's, one of them alone.
  await expect(rows(page)).toHaveCount(10);
  await expect(page.locator('[data-diff="same"]')).toHaveCount(8);
  const statusRow = page.locator('[data-diff="status"]');
  await expect(statusRow.locator(`[data-call-id="${failed}"]`)).toHaveCount(2);
  await expect(statusRow.locator(`[data-call-id="${failed}"][data-status="failed"]`)).toHaveCount(1);

  // The next difference is the status row; a row opens as in the transcript.
  await page.getByRole('button', { name: /Next difference/ }).click();
  await expect(statusRow).toHaveAttribute('data-current', 'true');
  await page.keyboard.press('p');
  await expect(first).toHaveAttribute('data-current', 'true');
  const header = first.locator(`[data-call-id="${skipped}"] > button`);
  await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'true');

  await page.getByLabel('Only differences').check();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByTestId('compare-labels').locator('[data-label="Edit"]')).toHaveAttribute('data-difference', '-1');
});

test('"Compare with…" compares the session shown with a second file, and "Close comparison" goes back to it', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(CAPTURE);
  await expect(page.locator('[data-load-state="done"]')).toHaveCount(1);
  await page.getByTestId('compare-input').setInputFiles(fixture('native/claude-code-2.1.83_via-claude-agent-acp.jsonl'));
  await expect(summary(page)).toHaveText('The runs agree throughout (10 steps).');
  await expect(page.locator('[data-diff="same"]')).toHaveCount(10);
  await page.getByRole('button', { name: 'Close comparison' }).click();
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 10');
});

test('a run that cannot be read is said, not compared as if it had no steps', async ({ page }) => {
  const srcA = await serveAt(page, 'a.jsonl', LINES);
  await page.route('**/e2e-src/missing.jsonl', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`/?src=${encodeURIComponent(srcA)}&vs=${encodeURIComponent('e2e-src/missing.jsonl')}`);
  await expect(summary(page)).toHaveText(/^Run B could not be read: .*404/);
  await expect(page.getByRole('alert')).toContainText('404');
  await expect(page.locator('[data-first-divergence]')).toHaveCount(0);
});

test('a divergence far down a long run is scrolled into view on load', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-compare-'));
  try {
    const file = join(dir, 'long.jsonl');
    execFileSync(process.execPath, [GENERATOR, '--format', 'acp', '--calls', '300', '--seed', '5', '--out', file]);
    const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
    const calls = [...(await expectedSession(file)).calls.values()];
    // A call near the end whose id is its own: B skipped it.
    const at = calls.findIndex((call, index) => index >= 250 && calls.filter((other) => other.id === call.id).length === 1);
    const skipped = calls[at]!.id;
    const srcA = await serveAt(page, 'long-a.jsonl', lines);
    const srcB = await serveAt(page, 'long-b.jsonl', lines.filter((line) => !ofCall(skipped)(line)));
    await page.goto(`/?src=${encodeURIComponent(srcA)}&vs=${encodeURIComponent(srcB)}`);
    await expect(summary(page)).toHaveText(new RegExp(`^First divergence at step ${at + 1}: `));
    const first = page.locator('[data-first-divergence]');
    await expect(first.locator(`[data-call-id="${skipped}"]`)).toBeVisible();
    await expect(first).toBeInViewport();
    await expect(page.locator(`[data-call-id="${calls[0]!.id}"]`).first()).not.toBeInViewport();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

interface Served {
  url: string;
  append: (lines: string[]) => void;
  stop: () => void;
}

/** `loupe open B --follow --vs A --no-browser`, B starting with `firstLines`. */
async function serveFollowing(firstLines: string[]): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-compare-'));
  const a = join(dir, 'old-run.jsonl');
  const b = join(dir, 'new-run.jsonl');
  writeFileSync(a, `${LINES.join('\n')}\n`);
  writeFileSync(b, `${firstLines.join('\n')}\n`);
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'open', b, '--follow', '--vs', a, '--no-browser', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await addressPrinted(child);
  return {
    url,
    append: (lines) => appendFileSync(b, lines.map((line) => `${line}\n`).join('')),
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('loupe open B --follow --vs A: the comparison grows as B is written, and marks where it parts from A', async ({ page }) => {
  const cut = LINES.findIndex(ofCall('toolu_fake_04_5'));
  const served = await serveFollowing(LINES.slice(0, cut));
  try {
    await page.goto(served.url);
    // B has A's first three steps so far: the rest are A's alone, and B may yet take them.
    await expect(summary(page)).toHaveText('Reading… the runs agree for their first 3 steps so far.');
    await expect(page.locator('[data-diff="same"]')).toHaveCount(3);
    await expect(page.locator('[data-diff="only-a"]')).toHaveCount(7);

    served.append(LINES.slice(cut));
    await expect(page.locator('[data-diff="same"]')).toHaveCount(10);
    await expect(summary(page)).toHaveText('Reading… the runs agree so far (10 steps).');
    await expect(page.locator('[data-first-divergence]')).toHaveCount(0);

    // B goes on where A ended: a step A never took, the first divergence once it has ended.
    served.append(LINES.filter(ofCall('toolu_fake_01_2')).map((line) => line.replaceAll('toolu_fake_01_2', 'toolu_extra_11')));
    await expect(summary(page)).toHaveText(/^First divergence at step 11: A has ended; B: Read .*notes\.txt \(done\)\.$/);
    const first = page.locator('[data-first-divergence]');
    await expect(first).toHaveAttribute('data-diff', 'only-b');
    await expect(first.locator('[data-call-id="toolu_extra_11"]')).toBeVisible();
    await expect(first).toBeInViewport();
  } finally {
    served.stop();
  }
});

test('a row opened in either run is in the address: the link opens it again, and Back and Forward go between the comparison and run A alone', async ({ page }) => {
  const failed = 'toolu_fake_05_6';
  const b = LINES.map((line) => (ofCall(failed)(line) ? line.replace('"status":"completed"', '"status":"failed"') : line));
  const srcA = await serveAt(page, 'a.jsonl', LINES);
  const srcB = await serveAt(page, 'b.jsonl', b);
  const compared = `/?src=${encodeURIComponent(srcA)}&vs=${encodeURIComponent(srcB)}`;
  await page.goto(compared);
  await expect(page.locator('[data-diff="status"]')).toHaveCount(1);

  // B's failed call, opened in B's column: the address names it, as B's.
  const inB = page.locator(`[data-run="B"] [data-call-id="${failed}"] > button`);
  await inB.click();
  await expect(inB).toHaveAttribute('aria-expanded', 'true');
  await expect(page).toHaveURL(new RegExp(`#call=${failed}&run=B$`));
  const link = page.url();

  // The link, opened afresh: the same call of B open and marked, A's of that id not.
  await page.goto('about:blank');
  await page.goto(link);
  await expect(inB).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator(`[data-run="A"] [data-call-id="${failed}"] > button`)).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('[data-diff="status"]')).toHaveAttribute('data-current', 'true');

  // A call of A's is named as the view of A alone names it.
  const firstOfA = page.locator('[data-run="A"] [data-call-id="toolu_fake_01_2"] > button');
  await firstOfA.click();
  await expect(page).toHaveURL(/#call=toolu_fake_01_2$/);

  // Closing the comparison is a step Back undoes; the call of A's stays open in A alone.
  await page.getByRole('button', { name: 'Close comparison' }).click();
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
  await expect(page).not.toHaveURL(/vs=/);
  await expect(page.locator('[data-call-id="toolu_fake_01_2"] > button')).toHaveAttribute('aria-expanded', 'true');
  await page.goBack();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page).toHaveURL(/vs=/);
  await expect(firstOfA).toHaveAttribute('aria-expanded', 'true');
  await page.goForward();
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 10');
});

test('"Download .md" is the report `loupe diff --md` prints, and read redacted it holds no secret', async ({ page }) => {
  // B ran another command at step 8, one that prints a key.
  const secret = 'AKIAQX3YZ7PLMN4R2T6V';
  const b = LINES.map((line) => line.replaceAll('echo hi', `echo ${secret}`));
  const dir = mkdtempSync(join(tmpdir(), 'loupe-compare-'));
  try {
    writeFileSync(join(dir, 'a.jsonl'), `${LINES.join('\n')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${b.join('\n')}\n`);
    const cli = spawnSync(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'diff', join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), '--md'], { encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain(secret);

    const srcA = await serveAt(page, 'a.jsonl', LINES);
    const srcB = await serveAt(page, 'b.jsonl', b);
    await page.goto(`/?src=${encodeURIComponent(srcA)}&vs=${encodeURIComponent(srcB)}`);
    await expect(summary(page)).toHaveText(/^First divergence at step 8: /);
    const download = async () => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .md' }).click()]);
      return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
    };
    const plain = await download();
    expect(plain.name).toBe('a-vs-b.md');
    expect(plain.text).toBe(`${cli.stdout.replace(/\n$/, '')}\n`);

    const redact = page.getByRole('button', { name: 'Redact secrets' });
    await redact.click();
    await expect(redact).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('[data-run="B"]', { hasText: '‹aws-access-key›' })).toHaveCount(1);
    // Both runs are read again redacted: the report is downloaded once the comparison stands again (run A too).
    await expect(summary(page)).toHaveText(/^First divergence at step 8: /);
    const redacted = await download();
    expect(redacted.name).toBe('a-vs-b.redacted.md');
    expect(redacted.text).not.toContain(secret);
    expect(redacted.text).toContain('echo ‹aws-access-key›');
    expect(redacted.text).toMatch(/^Redacted: \d+ secrets \(\d+ aws-access-key\)/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
