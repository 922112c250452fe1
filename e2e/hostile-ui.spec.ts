// Hostile inputs in the built app (issues 10 and 12): each generated case loads, its row opens,
// and the viewer keeps its rows and counts with no page error. What each view draws is asserted
// by structure (plain-text fallbacks, bounded DOM); the longest main-thread task while opening is
// recorded as an annotation, not asserted: speed is for benchmarks, not timed assertions.
import type { Page, TestInfo } from '@playwright/test';
import { cssEscape, expect, test } from './helpers';
import { generate, loadHostile, takeLongTasks, type HostileCase } from './hostile';

async function recordOpening(page: Page, c: HostileCase, info: TestInfo): Promise<void> {
  // Two frames, so work that the opening scheduled has run and been observed.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const tasks = await takeLongTasks(page);
  info.annotations.push({ type: `${c.name}: longest main-thread task while opening`, description: `${Math.round(Math.max(0, ...tasks))} ms` });
}

async function openCall(page: Page, callId: string) {
  const row = page.locator(`[data-call-id="${cssEscape(callId)}"]`);
  await row.locator('> button').click();
  await expect(row).toHaveAttribute('data-open', 'true');
  return row;
}

test('times out of range read as invalid, in the row and in the Raw tab', async ({ page }, info) => {
  const c = generate('bad-times', info);
  const { errors } = await loadHostile(page, c, info);
  for (const id of ['time-1e13', 'time-inf', 'time-neg']) {
    const row = await openCall(page, id);
    await row.getByRole('tab', { name: 'Raw' }).click();
    await expect(row.getByRole('table')).toContainText('invalid time (');
    await expect(row.locator('> button')).toHaveAttribute('title', /invalid time \(/);
  }
  await recordOpening(page, c, info);
  await expect(page.getByText('still here after the bad times')).toBeVisible();
  await expect(page.locator('[data-draw-error]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

for (const [name, reason] of [
  ['deep-blockquote', 'too deeply nested to format'],
  ['deep-list', 'too large to format'],
  ['many-references', 'too large to format'],
  ['huge-message', 'too large to format'],
] as const) {
  test(`${name}: the agent message is shown as plain text, the rest of the view stays`, async ({ page }, info) => {
    const c = generate(name, info);
    const { errors } = await loadHostile(page, c, info);
    const message = page.locator('[data-kind="agent"]');
    await expect(message.getByText(`shown as plain text: ${reason}`)).toBeVisible();
    await expect(message.locator('blockquote, li')).toHaveCount(0);
    await expect(page.locator('[data-kind="user"]')).toBeVisible();
    await recordOpening(page, c, info);
    expect(errors).toEqual([]);
  });
}

test('an Edit of 20,000 lines a side opens with its diff drawn a page at a time', async ({ page }, info) => {
  const c = generate('big-diff', info);
  const { errors } = await loadHostile(page, c, info);
  const row = await openCall(page, 'big-edit');
  const diff = row.locator('[data-large-diff]');
  await expect(diff).toContainText('+20,000');
  await recordOpening(page, c, info);
  await expect(diff.locator('[data-diff-line]')).toHaveCount(500);
  await diff.getByRole('button', { name: /Show 1,000 more lines/ }).click();
  await expect(diff.locator('[data-diff-line]')).toHaveCount(1500);
  expect(errors).toEqual([]);
});

test('the largest diff drawn on the main thread keeps the diff viewer\'s look', async ({ page }, info) => {
  const c = generate('largest-small-diff', info);
  const { errors } = await loadHostile(page, c, info);
  const row = await openCall(page, 'small-edit');
  await expect(row.locator('table')).toContainText('new line 99 of the file');
  await recordOpening(page, c, info);
  await expect(row.locator('[data-large-diff]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

for (const { title, fixture, call, shows } of [
  { title: 'terminal output of 100,000 bold escapes is one styled span', fixture: 'ansi-bold', call: 'ansi-bold', shows: 'xxxxxxxxxx' },
  { title: '1 MB of unterminated escapes opens as a bounded terminal view', fixture: 'ansi-unterminated', call: 'ansi-open', shows: 'earlier characters not shown' },
] as const) {
  test(title, async ({ page }, info) => {
    const c = generate(fixture, info);
    const { errors } = await loadHostile(page, c, info);
    const row = await openCall(page, call);
    const terminal = row.locator('[data-terminal]');
    await expect(terminal).toContainText(shows);
    await recordOpening(page, c, info);
    expect(await terminal.locator('span').count()).toBeLessThan(5);
    expect(errors).toEqual([]);
  });
}

test('50,000 distinct labels draw a few facets, and any label can be found', async ({ page }, info) => {
  test.setTimeout(120_000);
  const c = generate('many-labels', info);
  const { errors } = await loadHostile(page, c, info);
  const labels = page.getByRole('group', { name: 'By label' });
  await expect(labels.getByRole('checkbox')).toHaveCount(30);
  await expect(labels.getByRole('button', { name: 'Show more (49,970 more labels)' })).toBeVisible();
  await labels.getByRole('searchbox', { name: 'Find a label' }).fill('Label 49999');
  await expect(labels.getByRole('checkbox')).toHaveCount(1);
  await labels.getByLabel('Label 49999').check();
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText('showing 1 row');
  await recordOpening(page, c, info);
  expect(errors).toEqual([]);
});
