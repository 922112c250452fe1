import { readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectCallsShown, expectPinnedCalls, failOnPageErrors, expectedCalls, fixture, openByDrop, openByPicker, openByUrl, test, waitLoaded } from './helpers';

// Every real sample, read one of three ways in turn (a file picked, dropped, or named by URL), so
// each way reads a third of the samples of every kind; the rows must carry what the model
// (CONTRACTS §5–§6) prescribes. Each sample read all three ways was 39% of the suite's time: the
// ways share everything after the bytes are in hand, and picker and drop even those.
const SAMPLES = ['acp', 'grok', 'ledger', 'native'].flatMap((dir) =>
  readdirSync(fixture(dir))
    .filter((f) => /\.(jsonl?|log)$/.test(f))
    .sort()
    .map((f) => `${dir}/${f}`),
);

const WAYS = [
  { name: 'by picker', open: (page: Page, file: string) => openByPicker(page, file) },
  { name: 'by drop', open: (page: Page, file: string) => openByDrop(page, [file]) },
  { name: 'by URL', open: (page: Page, file: string) => openByUrl(page, file) },
] as const;

// Tall enough that every call of a small sample is drawn by the virtual list at once.
test.use({ viewport: { width: 1280, height: 2400 } });

// Whatever the input, the page itself never throws.
failOnPageErrors();

SAMPLES.forEach((rel, index) => {
  const way = WAYS[index % WAYS.length]!;
  test(`${rel} ${way.name}`, async ({ page }) => {
    const file = fixture(rel);
    await way.open(page, file);
    await expectCallsShown(page, await expectedCalls(file));
    // An agent's own log also shows what its snapshot table pins (native.spec.ts reads the rest).
    if (rel.startsWith('native/') && rel.endsWith('.jsonl')) expect(await expectPinnedCalls(page, rel.slice('native/'.length))).toBe(true);
  });
});

test('the Grok esc-interrupt sample shows its interrupted command', async ({ page }) => {
  await page.goto('/?src=samples/grok-esc-interrupt.updates.jsonl');
  await waitLoaded(page);
  const row = page.locator('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]');
  await expect(row).toContainText('Run Command');
  await expect(row).toContainText('sleep 45');
  await expect(row).toHaveAttribute('data-status', 'unfinished');
  await expect(page.getByText('Turn ended: cancelled')).toBeVisible();
});

test('the Gemini live turn shows the permission asked, its diff and its command', async ({ page }) => {
  await openByPicker(page, fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl'));
  const edit = page.locator('[data-call-id^="replace__replace"]');
  await expect(edit).toContainText('Edit');
  await expect(edit).toContainText('/home/dev/ws/hello.py');
  await edit.getByRole('button', { expanded: false }).click();
  await expect(edit).toContainText("print('hello, world')");
  const run = page.locator('[data-call-id^="run_shell_command"]');
  await expect(run).toContainText('Run Command');
  await expect(run).toContainText('permission: Allow');
});

test('dropping several files opens each, one tab per file', async ({ page }) => {
  await openByDrop(page, [fixture('grok/esc-interrupt.updates.jsonl'), fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl')]);
  const tabs = page.getByRole('navigation', { name: 'Open files' }).getByRole('button');
  await expect(tabs).toHaveCount(2);
  await expect(page.locator('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toBeVisible();
  await tabs.nth(1).click();
  await expect(page.locator('[data-call-id^="run_shell_command"]')).toBeVisible();
});

test('the landing page offers the bundled samples, and a missing URL shows an error', async ({ page }) => {
  await page.goto('/');
  const links = page.getByRole('link', { name: /Grok Build|Gemini CLI|Ledger/ });
  await expect(links).toHaveCount(3);
  await links.first().click();
  await waitLoaded(page);
  await expect(page.locator('[data-call-id]').first()).toBeVisible();

  await page.route('**/e2e-src/missing.jsonl', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto('/?src=e2e-src/missing.jsonl');
  await expect(page.getByRole('alert')).toContainText('404');
  // A host that answers every path with its index page is not mistaken for a session either.
  await page.goto('/?src=samples/does-not-exist.jsonl');
  await expect(page.getByRole('alert')).toContainText('text/html');
});

test('pasted JSONL is read like a file', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Paste…' }).click();
  const text = (await import('node:fs')).readFileSync(fixture('grok/esc-interrupt.updates.jsonl'), 'utf8');
  await page.getByLabel('Paste JSONL').fill(text);
  await page.getByRole('button', { name: 'Load' }).click();
  await waitLoaded(page);
  await expect(page.locator('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]')).toContainText('sleep 45');
});

test('text pasted on the page (outside any field) is read as a session', async ({ page }) => {
  await page.goto('/');
  const text = (await import('node:fs')).readFileSync(fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl'), 'utf8');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
  await waitLoaded(page);
  await expect(page.locator('[data-call-id]')).toHaveCount(3);
});

test('an input whose lines are all unknown names what was found, with the counts, not "empty"', async ({ page }) => {
  await openByPicker(page, fixture('acp/gemini-cli-0.61.0_scripted-model_fake-responses.jsonl'));
  const panel = page.getByRole('region', { name: 'Diagnostics' });
  await expect(panel.locator('[data-count="format"]')).toHaveText('unknown (no line has a known shape)');
  await expect(panel.locator('[data-count="unknown"]')).toHaveText('5');
  // Read to the end: the label list does not wait for tool calls still to come.
  await expect(page.getByRole('group', { name: 'By label' })).toContainText('The input holds no tool calls');
});

test('calls whose id came back are counted as a person counts them', async ({ page }) => {
  await openByPicker(page, fixture('acp/id-reuse_per-turn-numbering_from-contract.jsonl'));
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('Tool calls: 4');
  const reused = page.locator('[data-call-id="gemini_call_0"]');
  await expect(reused).toHaveCount(3);
  await expect(reused.nth(1)).toHaveAttribute('data-status', 'failed');
  await expect(reused.nth(1)).toContainText('permission: Reject');
});
