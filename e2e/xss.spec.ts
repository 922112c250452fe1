import { writeFileSync } from 'node:fs';
import { expect, openByPicker, test } from './helpers';
import { XSS_CALL_IDS, xssSessionLines } from './xss-session';

test('hostile text is shown as text and runs nothing', async ({ page, baseURL }, info) => {
  const file = info.outputPath('xss.jsonl');
  writeFileSync(file, `${xssSessionLines().join('\n')}\n`);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await openByPicker(page, file);

  // Open everything that can be opened: calls (both tabs), the thought, the unknown record.
  for (const id of XSS_CALL_IDS) {
    const row = page.locator(`[data-call-id="${id}"]`);
    await row.locator('> button').click();
    await expect(row).toHaveAttribute('data-open', 'true');
  }
  await page.locator('[data-kind="thought"] button').click();
  await page.locator('[data-kind="unknown"] button').click();
  const showSource = page.getByRole('button', { name: 'show source' });
  await expect(showSource).toHaveCount(2);
  while ((await showSource.count()) > 0) await showSource.first().click();
  // The neutralised markdown link is inert text: clicking it goes nowhere.
  await page.getByText('click me').click();

  await expect(page.getByText('hello <img src=x onerror="window.__xss=1">').first()).toBeVisible();
  await expect(page.locator('[data-call-id="xss-other"]')).toContainText('other <script>window.__xss=1</script>');

  const injected = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: unknown }).__xss,
    imgX: document.querySelectorAll('img[src="x"]').length,
    scripts: document.querySelectorAll('#root script').length,
    jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
    svgImages: [...document.querySelectorAll('img')].filter((i) => /svg|html/i.test(i.getAttribute('src') ?? '')).length,
    svgElements: document.querySelectorAll('#root svg[onload]').length,
    iframes: document.querySelectorAll('iframe, object, embed').length,
  }));
  expect(injected).toEqual({ flag: undefined, imgX: 0, scripts: 0, jsLinks: 0, svgImages: 0, svgElements: 0, iframes: 0 });
  expect(dialogs).toEqual([]);
  // Still the viewer's own page: nothing in the session navigated it away.
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});
