// Shared steps for the viewer's browser tests: getting a session in three ways, and the
// expected calls computed by the same model in Node (so the tests follow the contract, not a copy).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { test as base, expect, type Page } from '@playwright/test';
import { ingest } from '../src/model';

export { expect };

/** Violations a test provokes on purpose (a fetch the policy must block), by pattern. */
export interface CspViolations {
  seen: string[];
  allow: (pattern: RegExp) => void;
}

const VIOLATION = 'Content-Security-Policy violation:';

/**
 * Every spec's `test`: the app, `loupe open` and the html export run under a strict CSP, and a
 * test fails on any violation it did not ask for. Each page reports `securitypolicyviolation`
 * events to the console (workers' refusals reach it as Chromium's own messages).
 */
export const test = base.extend<{ cspViolations: CspViolations }>({
  cspViolations: [
    async ({ context }, use) => {
      const allowed: RegExp[] = [];
      const violations: CspViolations = { seen: [], allow: (pattern) => void allowed.push(pattern) };
      await context.addInitScript((prefix) => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`${prefix} ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
        });
      }, VIOLATION);
      context.on('console', (message) => {
        const text = message.text();
        if (text.startsWith(VIOLATION) || /Refused to .*Content Security Policy/i.test(text)) violations.seen.push(text);
      });
      await use(violations);
      expect(violations.seen.filter((text) => !allowed.some((pattern) => pattern.test(text))), 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export const ROOT = join(import.meta.dirname, '..');
export const fixture = (rel: string): string => join(ROOT, 'fixtures', rel);
/** The project's session generator (a CLI: --format, --calls | --mb, --seed, --bad-rate, --expect, --out). */
export const GENERATOR = join(ROOT, 'scripts/gen-session.mjs');

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

/** A row the transcript drew: its call's id and label, and its text. */
interface DrawnRow {
  id: string;
  label: string;
  text: string;
}

/**
 * Each expected call has a row showing its label and subject. The transcript is read in one round
 * trip: the page scrolls its list a screen at a time and collects every row drawn (a round trip or
 * two per call, and a search per call off screen, cost a loaded machine tens of seconds on a
 * session of 59 calls). A call not found that way (a list scaled past its DOM height skips rows) is
 * then searched for, by its subject or its id (the search covers both).
 */
export async function expectCallsShown(page: Page, calls: ExpectedCall[]): Promise<void> {
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText(`Tool calls: ${calls.length.toLocaleString('en')}`);
  const drawn = await drawnRows(page);
  const shows = (rows: readonly DrawnRow[], c: ExpectedCall) => rows.some((row) => row.id === c.id && row.label === c.label && row.text.includes(c.label) && (c.subject === null || row.text.includes(c.subject)));
  const search = page.getByRole('searchbox', { name: 'Search' });
  const missed = calls.filter((c) => !shows(drawn, c));
  if (process.env.LOUPE_E2E_DEBUG) console.log(`expectCallsShown: ${drawn.length} rows drawn, ${missed.length} of ${calls.length} calls searched for`);
  for (const c of missed) {
    // Ids are unique per session, not per file (one capture may hold several sessions).
    let row = page.locator(`[data-call-id="${cssEscape(c.id)}"][data-label="${cssEscape(c.label)}"]`);
    if (c.subject !== null) row = row.filter({ hasText: c.subject });
    // The subject narrows more than an id that several sessions share (codex's "call-id").
    await search.fill(c.subject ?? c.id);
    await expect(row.first(), `row for call ${c.id}: ${c.label} ${c.subject ?? ''}`).toBeVisible({ timeout: 10_000 });
    await expect(row.first()).toContainText(c.label);
    await search.fill('');
  }
}

/** Every call row the transcript draws, top to bottom, collected in the page as it scrolls; left scrolled to the top. */
async function drawnRows(page: Page): Promise<DrawnRow[]> {
  return page.getByRole('list', { name: 'Transcript' }).evaluate(async (scroller) => {
    const frame = () => new Promise<void>((done) => requestAnimationFrame(() => done()));
    /**
     * The list draws after a scroll, a frame or more later on a busy machine: waits until a row
     * is drawn at the window's top and what is drawn stays the same from one frame to the next.
     */
    const drawn = () => {
      const top = scroller.getBoundingClientRect().top + 1;
      const rows = [...scroller.querySelectorAll('[data-vindex]')];
      const covers = rows.some((row) => {
        const r = row.getBoundingClientRect();
        return r.top <= top && r.bottom >= top;
      });
      return covers ? rows.map((row) => `${row.getAttribute('data-vindex')}:${Math.round(row.getBoundingClientRect().top)}`).join(',') : null;
    };
    const settle = async () => {
      let last: string | null = null;
      for (let i = 0; i < 300; i++) {
        await frame();
        const now = drawn();
        if (now !== null && now === last) return;
        last = now;
      }
    };
    const rows = new Map<Element, { id: string; label: string; text: string }>();
    const seen: { id: string; label: string; text: string }[] = [];
    const collect = () => {
      for (const el of scroller.querySelectorAll('[data-call-id][data-label]')) {
        const row = { id: el.getAttribute('data-call-id') ?? '', label: el.getAttribute('data-label') ?? '', text: el.textContent ?? '' };
        if (rows.get(el)?.text !== row.text) {
          rows.set(el, row);
          seen.push(row);
        }
      }
    };
    scroller.scrollTop = 0;
    await settle();
    collect();
    for (let step = 0; step < 10_000 && scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1; step++) {
      const before = scroller.scrollTop;
      scroller.scrollTop = before + Math.max(1, scroller.clientHeight * 0.8);
      await settle();
      collect();
      if (scroller.scrollTop === before) break;
    }
    scroller.scrollTop = 0;
    await settle();
    return seen;
  });
}

export function cssEscape(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}

/** Fails each test of the file whose page threw: whatever the input, the page itself never throws. */
export function failOnPageErrors(): void {
  const pageErrors = new WeakMap<object, string[]>();
  test.beforeEach(({ page }) => {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on('pageerror', (e) => errors.push(e.message));
  });
  test.afterEach(({ page }) => {
    expect(pageErrors.get(page)).toEqual([]);
  });
}

/** The address a `loupe open` child prints on stdout, once it has printed it. */
export function addressPrinted(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`loupe open exited (${code}) before printing its address: ${out}`)));
  });
}

/**
 * The calls pinned in a native sample's snapshot table (`fixtures/__snapshots__/native__NAME.calls.txt`,
 * `id | label | subject | status | …` per call, the table src/model/samples.test.ts pins in Node)
 * are the rows shown, with those labels, subjects and statuses. False when the sample has no table.
 */
export async function expectPinnedCalls(page: Page, name: string): Promise<boolean> {
  const table = fixture(`__snapshots__/native__${name}.calls.txt`);
  if (!existsSync(table)) return false;
  const rows = readFileSync(table, 'utf8').trim().split('\n').slice(1).map((line) => {
    const [id = '', label = '', subject = '', status = ''] = line.split(' | ');
    return { id, label, subject, status };
  });
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText(`Tool calls: ${rows.length}`);
  for (const r of rows) {
    const shown = page.locator(`[data-call-id="${cssEscape(r.id)}"]`).filter({ hasText: r.subject === '—' ? '' : r.subject }).first();
    await expect(shown, `${r.id} ${r.label} ${r.subject}`).toHaveAttribute('data-label', r.label);
    await expect(shown).toHaveAttribute('data-status', r.status);
  }
  return true;
}
