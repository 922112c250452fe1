// Shared steps for the viewer's browser tests: getting a session in three ways, and the
// expected calls computed by the same model in Node (so the tests follow the contract, not a copy).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { ingest } from '../src/model';

export const ROOT = join(import.meta.dirname, '..');
export const fixture = (rel: string): string => join(ROOT, 'fixtures', rel);
/** The shared session generator, beside the project (as in CI). */
export const GENERATOR = join(ROOT, '../shared/tools/gen-session.mjs');

export interface ExpectedCall {
  id: string;
  label: string;
  subject: string | null;
}

export async function expectedCalls(file: string): Promise<ExpectedCall[]> {
  const session = await ingest(new Uint8Array(readFileSync(file)));
  return [...session.calls.values()].map((c) => ({ id: c.id, label: c.label, subject: c.subject }));
}

export async function expectedSession(file: string) {
  return ingest(new Uint8Array(readFileSync(file)));
}

/** The viewer's root once a session has been read to its end. */
export async function waitLoaded(page: Page): Promise<void> {
  await expect(page.locator('[data-load-state]').first()).toHaveAttribute('data-load-state', 'done', { timeout: 60_000 });
}

export async function openByPicker(page: Page, file: string): Promise<void> {
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(file);
  await waitLoaded(page);
}

export async function openByDrop(page: Page, files: string[]): Promise<void> {
  await page.goto('/');
  const payload = files.map((f) => ({ name: basename(f), text: readFileSync(f, 'utf8') }));
  const dt = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const it of items) dt.items.add(new File([it.text], it.name, { type: 'application/json' }));
    return dt;
  }, payload);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await waitLoaded(page);
}

/** Serves `file` at /e2e-src/<name> and opens it with ?src=. */
export async function openByUrl(page: Page, file: string, extra = ''): Promise<string> {
  const name = basename(file);
  await page.route(`**/e2e-src/${encodeURIComponent(name)}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: readFileSync(file) }),
  );
  const url = `/?src=${encodeURIComponent(`e2e-src/${name}`)}${extra}`;
  await page.goto(url);
  await waitLoaded(page);
  return url;
}

/**
 * Each expected call has a row showing its label and subject. Rows outside the virtual list's
 * window are found by searching for the call's subject, or its id (the search covers both).
 */
export async function expectCallsShown(page: Page, calls: ExpectedCall[]): Promise<void> {
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText(`Tool calls: ${calls.length.toLocaleString('en')}`);
  const search = page.getByRole('searchbox', { name: 'Search' });
  for (const c of calls) {
    // Ids are unique per session, not per file (one capture may hold several sessions).
    let row = page.locator(`[data-call-id="${cssEscape(c.id)}"][data-label="${cssEscape(c.label)}"]`);
    if (c.subject !== null) row = row.filter({ hasText: c.subject });
    const searched = (await row.count()) === 0;
    // The subject narrows more than an id that several sessions share (codex's "call-id").
    if (searched) await search.fill(c.subject ?? c.id);
    await expect(row.first(), `row for call ${c.id}: ${c.label} ${c.subject ?? ''}`).toBeVisible({ timeout: 10_000 });
    await expect(row.first()).toContainText(c.label);
    if (searched) await search.fill('');
  }
}

export function cssEscape(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}
