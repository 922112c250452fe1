// The secret corpus (src/share/testing/secretCorpus.ts) read redacted in the viewer: each variant,
// placed in a call, a message streamed in chunks that cut through it, stderr lines and a diff, is
// gone from every row and from every export the viewer makes (a note quoting them too), and each
// is counted in the Secrets panel.
import { readFileSync, writeFileSync } from 'node:fs';
import { corpusSession, leaked, readable, secretVariants } from '../src/share/testing/secretCorpus';
import { expect, openByPicker, test, waitLoaded } from './helpers';

test('the redacted view shows no variant of the corpus, counts each, and exports none', async ({ page }, info) => {
  test.setTimeout(120_000);
  const variants = secretVariants();
  const file = info.outputPath('corpus.jsonl');
  writeFileSync(file, corpusSession());
  await openByPicker(page, file);
  const search = page.getByRole('searchbox', { name: 'Search' });
  const oauth = variants.find((variant) => variant.kind === 'anthropic-oauth-token')!.value;
  // Unredacted, a token streamed across chunks is found in its message (so the checks below can fail).
  await search.fill(oauth);
  await expect(page.getByText('No rows match the filter.')).toBeHidden();
  await expect(page.locator('[data-item]').first()).toBeVisible();
  await search.fill('');

  const redact = page.getByRole('button', { name: 'Redact secrets' });
  await redact.click();
  await expect(redact).toHaveAttribute('aria-pressed', 'true');
  await waitLoaded(page);
  const summary = page.getByRole('region', { name: 'Secrets' }).getByTestId('secrets-summary');
  for (const kind of ['anthropic-oauth-token', 'azure-storage-key', 'azure-sas-signature', 'azure-ad-client-secret', 'pypi-token', 'vault-token', 'slack-token', 'telegram-bot-token', 'private-key', 'cookie', 'url-password', 'password']) {
    await expect(summary).toContainText(kind);
  }
  // Search reads every row's text (messages joined, as shown): no variant is in any.
  for (const value of new Set(variants.map((variant) => variant.value))) {
    await search.fill(value);
    await expect(page.getByText('No rows match the filter.'), value).toBeVisible();
  }
  await search.fill('');
  expect(leaked(await page.content(), variants)).toEqual([]);
  // A note quoting every variant, on the first call: the notes listed and the md and html exports
  // show it redacted (the box it is written in shows what is typed).
  const notes = page.getByRole('region', { name: 'Notes' });
  await page.locator('[data-call-id]').first().click();
  await notes.getByRole('textbox').fill(variants.map((variant) => variant.text).join('\n\n'));
  const listed = notes.getByTestId('notes-list');
  await expect(listed).toContainText('‹password›');
  await expect(listed).not.toContainText('…');
  expect(leaked(await listed.innerText(), variants)).toEqual([]);

  for (const format of ['jsonl', 'md', 'html'] as const) {
    await page.getByRole('button', { name: 'Export ▾', exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${format}"]`).click()]);
    let text = readFileSync(await download.path(), 'utf8');
    // The html page holds the records as base64: read them too.
    if (format === 'html') text += Buffer.from(/id="loupe-session"[^>]*>([^<]*)</.exec(text)?.[1] ?? '', 'base64').toString('utf8');
    expect(text.length, format).toBeGreaterThan(1000);
    expect(leaked(readable(text), variants), format).toEqual([]);
    if (format === 'md') expect(text).toContain('## Notes');
    if (format === 'html') expect(text).toContain('id="loupe-notes"');
  }
});
