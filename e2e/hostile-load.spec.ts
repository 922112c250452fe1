// Issue 12's hostile inputs loaded in the built app: each generated case reads to its end through
// the worker with no page error, the counts and calls Node reads, and its rows shown. The longest
// main-thread task while loading is recorded as an annotation, not asserted (speed is for
// `npm run bench:hostile` and `bench:browser`, not timed assertions).
import { cssEscape, expect, test } from './helpers';
import { generate, loadHostile } from './hostile';

test('a rawInput 2,000 levels deep: every call arrives, and the deep one opens', async ({ page }, info) => {
  const c = generate('deep-raw-input', info);
  const { errors } = await loadHostile(page, c, info);
  // Found as a person finds it among 2,001 rows: by searching.
  await page.getByRole('searchbox', { name: 'Search' }).fill('deep input');
  const row = page.locator(`[data-call-id="${cssEscape('deep')}"]`);
  await row.locator('> button').click();
  await expect(row).toHaveAttribute('data-open', 'true');
  await row.getByRole('tab', { name: 'Raw' }).click();
  await expect(row.locator('[data-draw-error]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('50,000 image chunks: one agent message drawing its first images, with Show more', async ({ page }, info) => {
  test.setTimeout(120_000);
  const c = generate('image-chunks', info);
  const { errors } = await loadHostile(page, c, info);
  const message = page.locator('[data-kind="agent"]');
  await expect(message.locator('img')).toHaveCount(50);
  await message.getByRole('button', { name: 'Show 200 more (49,950 not shown)' }).click();
  await expect(message.locator('img')).toHaveCount(250);
  expect(errors).toEqual([]);
});

for (const name of ['same-id-requests', 'same-id-replies', 'terminal-fan-out', 'one-call-updates', 'meta-proto', 'nul-ids'] as const) {
  test(`${name}: loads to its end with Node's counts and calls`, async ({ page }, info) => {
    test.setTimeout(120_000);
    const c = generate(name, info);
    const { errors } = await loadHostile(page, c, info);
    expect(errors).toEqual([]);
  });
}

test('a Zed export with one unterminated string: one bad element, the other 999 shown', async ({ page }, info) => {
  const c = generate('zed-unterminated', info);
  const { errors, expected } = await loadHostile(page, c, info);
  expect(expected.counts).toEqual({ lines: 1000, events: 999, unknown: 0, bad: 1 });
  expect(errors).toEqual([]);
});

for (const name of ['ledger-garbage-inserted', 'ledger-foreign-inserted'] as const) {
  test(`${name}: the chain is shown broken, naming the inserted line`, async ({ page }, info) => {
    const c = generate(name, info);
    const { errors } = await loadHostile(page, c, info);
    await expect(page.locator('[data-chain]')).toHaveAttribute('data-chain', 'broken');
    await expect(page.locator('[data-chain]')).toContainText('line 9 is not part of the chain');
    expect(errors).toEqual([]);
  });
}

test('a million sessions: loads to its end, every session counted', async ({ page }, info) => {
  test.setTimeout(300_000);
  const c = generate('million-sessions', info);
  const { errors } = await loadHostile(page, c, info);
  await expect(page.locator('[data-count="sessions"]')).toHaveText('1000000');
  expect(errors).toEqual([]);
});
