// Three published ACP agents recorded through `loupe tee` (fixtures/native/, README there): what a
// person sees of each call, pinned to the amended contract (CONTRACTS §5 mcp__ names, §6
// shell-array subjects and locations before the fallback, §7 a refused call is failed), and how
// their output and usage reads.
import type { Locator, Page } from '@playwright/test';
import { expect, failOnPageErrors, fixture, openByDrop, openByUrl, test } from './helpers';

const CLAUDE_AGENT = fixture('native/claude-agent-acp.acp.jsonl');
const CLAUDE_CODE = fixture('native/claude-code-acp.acp.jsonl');
const CODEX = fixture('native/codex-acp.acp.jsonl');

// Tall enough that every call of these sessions is drawn at once.
test.use({ viewport: { width: 1280, height: 2400 } });

// Whatever the input, the page itself never throws.
failOnPageErrors();

type Pin = [id: string, label: string, subject: string | null, status: 'done' | 'failed' | 'unfinished'];

const CLAUDE_AGENT_WS = '/home/dev/run1/work/claude-agent-acp-capture';
const CLAUDE_CODE_WS = '/home/dev/run1/work/claude-code-acp-capture';
const CODEX_WS = '/home/dev/run1/work/codex-acp-capture';

const PINS: Record<string, Pin[]> = {
  [CLAUDE_AGENT]: [
    ['toolu_fake_01_2', 'Read', `${CLAUDE_AGENT_WS}/notes.txt`, 'done'],
    ['toolu_fake_02_3', 'Run Command', 'ls -la', 'done'],
    ['toolu_fake_03_4', 'Edit', `${CLAUDE_AGENT_WS}/notes.txt`, 'done'],
    ['toolu_fake_04_5', 'Search', CLAUDE_AGENT_WS, 'done'],
    ['toolu_fake_05_6', 'Write', `${CLAUDE_AGENT_WS}/out/result.txt`, 'done'],
    ['toolu_fake_06_7', 'Run Command', 'cat missing-file.txt', 'failed'],
    ['toolu_fake_07_8', 'List Files', '**/*.js', 'done'],
    ['toolu_fake_07_9', 'Run Command', 'echo hi', 'done'],
    ['toolu_fake_08_10', 'Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
    ['toolu_fake_09_11', 'Run Command', 'rm -f src/app.js', 'failed'],
  ],
  // Its own tools are mcp__acp__Read, …Edit, …Write, …Bash (§5: looked up by the part after the last __).
  [CLAUDE_CODE]: [
    ['toolu_fake_01_2', 'Read', `${CLAUDE_CODE_WS}/notes.txt`, 'done'],
    ['toolu_fake_02_3', 'Run Command', 'ls -la', 'done'],
    ['toolu_fake_03_4', 'Edit', `${CLAUDE_CODE_WS}/notes.txt`, 'done'],
    ['toolu_fake_04_5', 'Search', CLAUDE_CODE_WS, 'done'],
    ['toolu_fake_05_6', 'Write', `${CLAUDE_CODE_WS}/out/result.txt`, 'done'],
    // The adapter reports the failing cat as completed (its terminal says exit 1): the input is followed.
    ['toolu_fake_06_7', 'Run Command', 'cat missing-file.txt', 'done'],
    ['toolu_fake_07_8', 'List Files', '**/*.js', 'done'],
    ['toolu_fake_07_9', 'Run Command', 'echo hi', 'done'],
    ['toolu_fake_08_10', 'Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
    ['toolu_fake_09_11', 'Run Command', 'rm -f src/app.js', 'failed'],
  ],
  // Commands are ["/bin/bash", "-lc", SCRIPT] (§6: named by SCRIPT); edits name their file only in
  // locations (§6 rule 4); the refused rm gets no status after its permission (§7: failed).
  [CODEX]: [
    ['call_fake_1_2', 'Read', 'cat notes.txt', 'done'],
    ['call_fake_2_3', 'Search', 'ls -la', 'done'],
    ['call_fake_3_4', 'Search', 'grep -rn TODO .', 'done'],
    ['call_fake_4_5', 'Edit', `${CODEX_WS}/notes.txt`, 'done'],
    ['call_fake_5_6', 'Edit', `${CODEX_WS}/out/result.txt`, 'done'],
    ['call_fake_6_7', 'Run Command', 'echo hi', 'done'],
    ['call_fake_6_8', 'Read', 'cat missing-file.txt', 'failed'],
    ['call_fake_7_9', 'Run Command', 'mkdir -p build && echo built > build/log.txt', 'done'],
    ['call_fake_8_10', 'Run Command', 'rm -f src/app.js', 'failed'],
  ],
};

const row = (page: Page, id: string): Locator => page.locator(`[data-call-id="${id}"]`);

async function openCall(page: Page, id: string): Promise<Locator> {
  const r = row(page, id);
  await r.getByRole('button', { expanded: false }).first().click();
  await expect(r).toHaveAttribute('data-open', 'true');
  return r;
}

/** How many lines of `text` read exactly `line`. */
function linesReading(text: string, line: string): number {
  return text.split('\n').filter((l) => l.trim() === line).length;
}

for (const [file, pins] of Object.entries(PINS)) {
  test(`${file.split('/').pop()}: each call's label, subject and status`, async ({ page }) => {
    await openByUrl(page, file);
    await expect(page.getByRole('region', { name: 'Filters' })).toContainText(`Tool calls: ${pins.length}`);
    for (const [id, label, subject, status] of pins) {
      const r = row(page, id);
      await expect(r, id).toHaveCount(1);
      await expect(r, id).toHaveAttribute('data-label', label);
      await expect(r, id).toHaveAttribute('data-status', status);
      const header = r.locator('[data-row-focus]');
      await expect(header, id).toContainText(`${status}`);
      await expect(header, id).toContainText(label);
      if (subject === null) await expect(r.locator('[data-subject]'), id).toHaveCount(0);
      else await expect(r.locator('[data-subject]'), id).toHaveText(subject);
    }
  });
}

test("a Codex command's output is shown once, though its raw output holds it three times", async ({ page }) => {
  await openByUrl(page, CODEX);
  const read = await openCall(page, 'call_fake_1_2');
  await expect(read).toContainText('TODO: water the plants');
  expect(countNumbered(await read.innerText(), 'TODO: water the plants'), 'cat notes.txt').toBe(1);

  const echo = await openCall(page, 'call_fake_6_7');
  await expect(echo).toContainText('Exit code 0');
  expect(linesReading(await echo.innerText(), 'hi'), 'echo hi').toBe(1);

  const missing = await openCall(page, 'call_fake_6_8');
  await expect(missing).toContainText('No such file or directory');
  // Codex sends this cat as a read: it is drawn as the command it was, with its exit code.
  await expect(missing).toContainText('Exit code 1');
  expect((await missing.innerText()).split('No such file or directory').length - 1, 'cat missing-file.txt').toBe(1);
});

/** Lines of a numbered file view (line number, then the text) that read `line`. */
function countNumbered(text: string, line: string): number {
  return text.split('\n').filter((l) => l.replace(/^\s*\d+\s*/, '').trim() === line).length;
}

test('claude-agent-acp terminal output is shown without its markdown fences', async ({ page }) => {
  await openByUrl(page, CLAUDE_AGENT);
  for (const [id, shown] of [
    ['toolu_fake_02_3', 'README.md'],
    ['toolu_fake_07_9', 'hi'],
    ['toolu_fake_06_7', 'No such file or directory'],
    ['toolu_fake_01_2', 'TODO: water the plants'],
  ] as const) {
    const r = await openCall(page, id);
    await expect(r, id).toContainText(shown);
    const text = await r.innerText();
    expect(text, id).not.toContain('```');
    expect(linesReading(text, 'console'), id).toBe(0);
  }
});

/** A number written with more decimals than anyone reads (0.006599999999999999). */
const UNROUNDED = /\d\.\d{5,}/;

test('money and derived numbers are rounded in every view', async ({ page }) => {
  await openByUrl(page, CLAUDE_AGENT);
  const meter = page.getByTestId('usage-meter');
  await expect(meter).toContainText('0.0066 USD');
  await expect(meter).toContainText('101');
  await expect(meter).toContainText('200,000');
  const root = page.locator('[data-load-state]').first();
  expect(await root.innerText()).not.toMatch(UNROUNDED);
  for (const view of ['Timeline', 'Stats', 'Sessions', 'Usage']) {
    await page.getByRole('tab', { name: view }).click();
    await expect(page.getByRole('tab', { name: view })).toHaveAttribute('aria-selected', 'true');
    if (view === 'Usage') await expect(page.getByRole('table', { name: 'Usage per turn' })).toContainText('0.0066 USD');
    expect(await root.innerText(), view).not.toMatch(UNROUNDED);
  }
});

test("Codex's usage updates are a meter in the header and the Usage view, not a transcript row each", async ({ page }) => {
  await openByUrl(page, CODEX);
  await expect(row(page, 'call_fake_8_10')).toBeVisible();
  await expect(page.locator('[data-kind="usage"]')).toHaveCount(0);
  await expect(page.getByText(/^Usage:/)).toHaveCount(0);
  const meter = page.getByTestId('usage-meter');
  await expect(meter).toContainText('120');
  await expect(meter).toContainText('258,400');
  // Every line still counts: the nine usage updates are events.
  await expect(page.locator('[data-count="lines"]')).toHaveText('46');
  await expect(page.locator('[data-count="events"]')).toHaveText('46');
  await meter.click();
  await expect(page.getByRole('tab', { name: 'Usage' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table', { name: 'Usage per turn' }).locator('tbody tr')).toHaveCount(9);
});

test("a Claude Code log's usage adds up in the header meter: each response once, however many entries repeat it", async ({ page }) => {
  await openByUrl(page, fixture('native/claude-code-2.1.83_via-claude-agent-acp.jsonl'));
  // Eleven responses of 100 input and 20 output tokens (CONTRACTS §10: once per message id).
  await expect(page.getByTestId('usage-meter')).toHaveText('1,100 in · 220 out');
});

test.describe('history keeps a dropped file open', () => {
  test('Back after switching views returns to the view before, with the file still open', async ({ page }) => {
    await openByDrop(page, [CLAUDE_AGENT]);
    await expect(row(page, 'toolu_fake_01_2')).toBeVisible();
    await page.getByRole('tab', { name: 'Stats' }).click();
    await expect(page.getByTestId('stats-view')).toBeVisible();
    await page.getByRole('tab', { name: 'Usage' }).click();
    await expect(page.getByTestId('usage-view')).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId('stats-view')).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('tab', { name: 'Transcript' })).toHaveAttribute('aria-selected', 'true');
    await expect(row(page, 'toolu_fake_01_2')).toBeVisible();
    await page.goForward();
    await expect(page.getByTestId('stats-view')).toBeVisible();
  });

  test('editing the #fragment switches the view and keeps the file; Back returns', async ({ page }) => {
    await openByDrop(page, [CLAUDE_AGENT, CODEX]);
    const tabs = page.getByRole('navigation', { name: 'Open files' }).getByRole('button');
    await tabs.nth(1).click();
    await expect(row(page, 'call_fake_1_2')).toBeVisible();
    // As a person does it in the address bar: a new history entry, popstate and hashchange.
    await page.evaluate(() => {
      location.hash = '#view=usage';
    });
    await expect(page.getByTestId('usage-view')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Usage per turn' }).locator('tbody tr')).toHaveCount(9);
    await expect(tabs).toHaveCount(2);
    await page.goBack();
    await expect(page.getByRole('tab', { name: 'Transcript' })).toHaveAttribute('aria-selected', 'true');
    await expect(tabs).toHaveCount(2);
    await expect(tabs.nth(1)).toHaveAttribute('aria-current', 'page');
    await expect(row(page, 'call_fake_1_2')).toBeVisible();
  });
});
