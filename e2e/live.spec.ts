// Following a session as it is written: `loupe open FILE --follow` while this test appends the
// session line by line, as `loupe tee` would while an agent works.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addressPrinted, expect, ROOT, test } from './helpers';

const SESSION = 'sess-live';

const update = (u: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update: u } });

const readCall = (i: number): string[] => [
  update({ sessionUpdate: 'tool_call', toolCallId: `read-${i}`, title: 'Read', kind: 'read', status: 'pending', rawInput: { path: `/src/file-${i}.ts` } }),
  update({ sessionUpdate: 'tool_call_update', toolCallId: `read-${i}`, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: `file ${i}` } }] }),
];

interface Served {
  url: string;
  file: string;
  append: (...lines: string[]) => void;
  stop: () => void;
}

/** `loupe open FILE --follow --no-browser` on an empty file, and the address it prints. */
async function serveFollowing(): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-live-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, '');
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'open', file, '--follow', '--no-browser', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await addressPrinted(child);
  return {
    url,
    file,
    append: (...lines) => appendFileSync(file, lines.map((l) => `${l}\n`).join('')),
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const row = (page: Page, id: string) => page.locator(`[data-call-id="${id}"]`);

test.describe('a session followed live', () => {
  let served: Served;
  test.beforeEach(async () => {
    served = await serveFollowing();
  });
  test.afterEach(() => served.stop());

  test('rows appear as their lines are written, a running call turns done in place', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.getByTestId('live')).toBeVisible();

    served.append(update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Run the tests, then read the files.' } }));
    await expect(page.getByRole('list', { name: 'Transcript' }).getByText('Run the tests, then read the files.')).toBeVisible();

    // One line on its own, and then nothing: it must not wait for the next line to be shown.
    const written = Date.now();
    served.append(update({ sessionUpdate: 'tool_call', toolCallId: 'tests', title: 'npm test', kind: 'execute', status: 'in_progress', rawInput: { command: 'npm test' } }));
    await expect(row(page, 'tests')).toBeVisible();
    const shownAfterMs = Date.now() - written;
    test.info().annotations.push({ type: 'row shown after (ms)', description: String(shownAfterMs) });
    await expect(row(page, 'tests')).toHaveAttribute('data-status', 'running');
    await expect(row(page, 'tests')).toContainText('npm test');
    // Its clock ticks while it runs.
    const clock = row(page, 'tests').locator('[data-elapsed]');
    const first = await clock.textContent();
    await expect(clock).not.toHaveText(first ?? '', { timeout: 5_000 });

    // Opened while running, it updates in place; so do the filter and the search.
    await row(page, 'tests').getByRole('button', { expanded: false }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('passed');
    await expect(row(page, 'tests')).toBeHidden();
    served.append(
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'tests', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '42 tests passed' } }] }),
    );
    await expect(row(page, 'tests')).toHaveAttribute('data-status', 'done');
    await expect(row(page, 'tests')).toContainText('42 tests passed');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await expect(row(page, 'tests')).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 1');
    // Still live: the file has not ended, so nothing is "unfinished".
    await expect(page.getByTestId('live')).toBeVisible();
  });

  test('follow keeps the newest row in view; scrolling up pauses it and the jump button resumes it', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.getByTestId('live')).toBeVisible();
    // More rows than the window holds, a few at a time.
    for (let i = 0; i < 60; i += 10) {
      served.append(...Array.from({ length: 10 }, (_, k) => readCall(i + k)).flat());
      await expect(row(page, `read-${i + 9}`)).toBeInViewport();
    }
    await expect(row(page, 'read-59')).toHaveAttribute('data-status', 'done');

    // Scrolling up pauses following: new rows do not pull the view down.
    const list = page.getByRole('list', { name: 'Transcript' });
    await list.hover();
    await page.mouse.wheel(0, -1500);
    await expect(page.getByTestId('jump-to-latest')).toBeVisible();
    await list.evaluate((el) => (el.scrollTop = 0));
    await expect(row(page, 'read-0')).toBeInViewport();
    served.append(...readCall(60), ...readCall(61), ...readCall(62));
    await expect(page.getByTestId('jump-to-latest')).toContainText('3 new rows');
    await expect(row(page, 'read-0')).toBeInViewport();
    await expect(row(page, 'read-62')).not.toBeInViewport();

    // The button jumps back to the newest row and following resumes.
    await page.getByTestId('jump-to-latest').click();
    await expect(row(page, 'read-62')).toBeInViewport();
    await expect(page.getByTestId('jump-to-latest')).toBeHidden();
    served.append(...readCall(63));
    await expect(row(page, 'read-63')).toBeInViewport();

    // End does the same after another pause.
    await list.evaluate((el) => (el.scrollTop = 0));
    await list.dispatchEvent('scroll');
    await expect(page.getByTestId('jump-to-latest')).toBeVisible();
    served.append(...readCall(64));
    await expect(page.getByTestId('jump-to-latest')).toContainText('1 new row');
    await page.keyboard.press('End');
    await expect(row(page, 'read-64')).toBeInViewport();
    await expect(page.getByTestId('jump-to-latest')).toBeHidden();
  });

  test('a recording whose writer ends stops being live, and calls left open read as unfinished', async ({ page }) => {
    // What `loupe tee` keeps beside its capture while it runs (see src/cli/captures.ts).
    writeFileSync(`${served.file}.live`, JSON.stringify({ pid: process.pid, agent: 'test-agent', startedMs: Date.now() }));
    await page.goto(served.url);
    served.append(update({ sessionUpdate: 'tool_call', toolCallId: 'stuck', title: 'sleep', kind: 'execute', status: 'in_progress', rawInput: { command: 'sleep 600' } }));
    await expect(row(page, 'stuck')).toHaveAttribute('data-status', 'running');
    await expect(page.getByTestId('live')).toBeVisible();
    rmSync(`${served.file}.live`);
    await expect(page.locator('[data-load-state]').first()).toHaveAttribute('data-load-state', 'done');
    await expect(page.getByTestId('live')).toBeHidden();
    await expect(row(page, 'stuck')).toHaveAttribute('data-status', 'unfinished');
  });

  test('the session is refused without the token in the address', async ({ request }) => {
    const { origin, pathname } = new URL(served.url);
    const token = pathname.split('/')[1] ?? '';
    // (The session itself is followed: its response stays open, so the page stands in for it.)
    expect((await request.get(`${origin}/${token}/`)).status()).toBe(200);
    expect((await request.get(`${origin}/`)).status()).toBe(403);
    expect((await request.get(`${origin}/session`)).status()).toBe(403);
    expect((await request.get(`${origin}/${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}/session`)).status()).toBe(403);
  });
});
