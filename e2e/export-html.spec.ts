// The html export, the CLI's and the viewer's, opens from disk with the network blocked and shows
// the same rows as the viewer, with no CSP violation. Needs `npm run build` (dist/cli, dist/export,
// and the export viewer inside dist/app).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { createBLAKE3 } from 'hash-wasm';
import { ingest } from '../src/model';
import { leakedSecrets, plantedSession } from '../src/share/testing/plantedCorpus';
import { expect, expectCallsShown, expectedCalls, fixture, openByPicker, ROOT, test, waitLoaded } from './helpers';

const FIXTURES = ['acp/codex-acp-1.6.2_unwrapped.jsonl', 'ledger/golden-p0.ledger-00000000000000000000.jsonl'];

for (const name of FIXTURES) {
  test(`html export of ${name} opens offline from file:// with the viewer's rows`, async ({ page, context }, info) => {
    const out = info.outputPath('session.html');
    execFileSync(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'export', fixture(name), '--format', 'html', '--redact', '--out', out], { stdio: 'pipe' });

    const requests: string[] = [];
    await context.route(/^(?!file:|data:|blob:)/, (route) => {
      requests.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await context.setOffline(true);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`));
    });

    await page.goto(pathToFileURL(out).href);
    await waitLoaded(page);
    await expectCallsShown(page, await expectedCalls(fixture(name)));
    // Exported with --redact: the page says so, and offers no redaction of its own.
    await expect(page).toHaveTitle(/ \(redacted\) — Loupe$/);
    await expect(page.getByRole('note')).toHaveText(/^Redacted: (\d+ secrets \(.+\), each shown as ‹kind›|no secrets were found)\.$/);
    await expect(page.getByRole('button', { name: 'Redact secrets' })).toHaveCount(0);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([]);
  });
}

test('an html export carries only what its page needs: the viewer adds under 1.6 MB to the session', async ({ page }, info) => {
  const session = fixture('grok/esc-interrupt.updates.jsonl');
  const out = info.outputPath('small.html');
  execFileSync(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'export', session, '--format', 'html', '--out', out], { stdio: 'pipe' });
  // The session is in the page as base64: 4 bytes for every 3.
  const added = statSync(out).size - Math.ceil(statSync(session).size / 3) * 4;
  // 2.18 MB before the viewer was minified whole and lost the redaction ruleset it never used here;
  // 1.43 MB with two harnesses, 1.53 MB with six (Gemini CLI, Qwen Code, Pi and OpenCode's readers);
  // 3.5 MB when SQLite's WebAssembly came in with OpenCode (left out: sqlite.absent.ts).
  expect(added).toBeLessThan(1_600_000);
  await page.goto(pathToFileURL(out).href);
  await waitLoaded(page);
  // Not redacted: no note says it is.
  await expect(page.getByRole('note')).toHaveCount(0);
  await expect(page).toHaveTitle('esc-interrupt.updates.jsonl — Loupe');
});

/** Opens `file` from disk in a new page of `context` with every request off file:, data: and blob: refused, and the network off. */
async function openOffline(context: BrowserContext, file: string): Promise<{ page: Page; requests: string[]; pageErrors: string[] }> {
  const requests: string[] = [];
  await context.route(/^(?!file:|data:|blob:)/, (route) => {
    requests.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  await context.setOffline(true);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(pathToFileURL(file).href);
  await waitLoaded(page);
  return { page, requests, pageErrors };
}

async function exportHtmlFrom(page: Page, saveAs: string): Promise<string> {
  await page.getByRole('button', { name: 'Export ▾', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="html"]').click()]);
  await download.saveAs(saveAs);
  return download.suggestedFilename();
}

test('html export from the viewer opens offline from file:// with the viewer rows, and its notes read-only on their calls', async ({ page, context }, info) => {
  const name = 'acp/codex-acp-1.6.2_unwrapped.jsonl';
  const viewerFetches: string[] = [];
  page.on('request', (request) => {
    if (/\/export\/standalone\.(js|css)$/.test(request.url())) viewerFetches.push(request.url());
  });
  await openByPicker(page, fixture(name));
  const firstRow = page.locator('[data-call-id]').first();
  const notedId = await firstRow.getAttribute('data-call-id');
  await firstRow.click();
  const notes = page.getByRole('region', { name: 'Notes' });
  await notes.getByRole('textbox').fill('check </script> <b>this</b> one');

  // The app's own load does not carry the export viewer: it is fetched when html is chosen.
  expect(viewerFetches).toEqual([]);
  const out = info.outputPath('from-viewer.html');
  expect(await exportHtmlFrom(page, out)).toBe('codex-acp-1.6.2_unwrapped.html');
  expect(viewerFetches).toHaveLength(2);

  const offline = await openOffline(context, out);
  const carried = offline.page.getByRole('region', { name: 'Notes' });
  await expect(carried.getByTestId('notes-list')).toContainText('check </script> <b>this</b> one');
  await offline.page.locator(`[data-call-id="${notedId}"]`).first().click();
  await expect(carried.getByTestId('note-on-call')).toContainText('check </script> <b>this</b> one');
  // Its row is marked, the note's text as text.
  await expect(offline.page.locator(`[data-call-id="${notedId}"] [data-user-note]`).first()).toHaveAttribute('title', 'note: check </script> <b>this</b> one');
  // Read-only: nothing to type in, nothing to import.
  await expect(carried.getByRole('textbox')).toHaveCount(0);
  await expect(carried.getByRole('button', { name: 'Import notes' })).toHaveCount(0);
  await expectCallsShown(offline.page, await expectedCalls(fixture(name)));
  expect(offline.pageErrors).toEqual([]);
  expect(offline.requests).toEqual([]);
});

test('html export from the viewer holds only the rows the filter shows, redacted when the view is', async ({ page, context }, info) => {
  test.setTimeout(90_000);
  const file = info.outputPath('planted.jsonl');
  writeFileSync(file, plantedSession());
  await openByPicker(page, file);
  await page.getByRole('button', { name: 'Redact secrets' }).click();
  await waitLoaded(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill('title-3');
  const shown = [...(await ingest(plantedSession())).calls.values()].filter((call) => call.id.includes('title-3')).map((call) => call.id);
  expect(shown.length).toBeGreaterThan(1);

  // A note can quote a secret too: it goes out redacted with the records.
  await page.locator('[data-call-id]').first().click();
  await page.getByRole('region', { name: 'Notes' }).getByRole('textbox').fill('leaked AKIAQX3YZ7PLMN4R2T6V here');

  const out = info.outputPath('planted.html');
  expect(await exportHtmlFrom(page, out)).toBe('planted.redacted.html');
  const html = readFileSync(out, 'utf8');
  const payload = Buffer.from(/id="loupe-session"[^>]*>([^<]*)</.exec(html)?.[1] ?? '', 'base64').toString('utf8');
  expect(payload).toContain('‹aws-access-key›');
  expect(html).toContain('leaked ‹aws-access-key› here');
  expect(leakedSecrets(`${html}\n${payload}`)).toEqual([]);

  const offline = await openOffline(context, out);
  await expect(offline.page.getByRole('note')).toHaveText(/^Redacted: \d+ secrets \(.*aws-access-key.*\), each shown as ‹kind›\.$/);
  await expect(offline.page.getByRole('region', { name: 'Filters' })).toContainText(`Tool calls: ${shown.length}`);
  for (const id of shown) await expect(offline.page.locator(`[data-call-id="${id}"]`).first()).toBeVisible();
  expect(offline.pageErrors).toEqual([]);
  expect(offline.requests).toEqual([]);
});

test('html export from the command line with --notes shows them read-only on their calls', async ({ context }, info) => {
  const name = fixture('acp/codex-acp-1.6.2_unwrapped.jsonl');
  const [noted] = (await ingest(readFileSync(name))).calls.keys();
  const sidecar = info.outputPath('notes.json');
  const contentHash = (await createBLAKE3()).update(readFileSync(name)).digest('hex');
  writeFileSync(sidecar, JSON.stringify({ loupeNotes: 1, contentHash, notes: { [noted!]: { text: 'the CLI carried <i>this</i>', bookmarked: true } } }));
  const out = info.outputPath('cli-notes.html');
  execFileSync(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'export', name, '--format', 'html', '--notes', sidecar, '--out', out], { stdio: 'pipe' });

  const offline = await openOffline(context, out);
  await expect(offline.page.getByRole('region', { name: 'Notes' }).getByTestId('notes-list')).toContainText('★ ');
  await expect(offline.page.getByRole('region', { name: 'Notes' }).getByTestId('notes-list')).toContainText('the CLI carried <i>this</i>');
  expect(offline.pageErrors).toEqual([]);
  expect(offline.requests).toEqual([]);
});
