// What a library page must show for a folder of session files: the sums of what the model reads
// from each file (as `loupe summarize` reads it), checked the same way whether the server indexed
// the folder (`loupe open DIR`) or the page did ("Open folder…").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ingest, summarize } from '../src/model';
import { cssEscape, expect } from './helpers';

export interface ExpectedFleet {
  perFile: Map<string, { calls: number; failed: number; labels: Map<string, number> }>;
  labels: Map<string, number>;
  total: number;
  failed: number;
}

export async function expectedFleet(dir: string, files: readonly string[]): Promise<ExpectedFleet> {
  const perFile: ExpectedFleet['perFile'] = new Map();
  const labels = new Map<string, number>();
  for (const file of files) {
    const summary = summarize(await ingest(new Uint8Array(readFileSync(join(dir, file))), { detail: 'light' }));
    const mine = new Map<string, number>();
    for (const call of summary.calls) {
      mine.set(call.label, (mine.get(call.label) ?? 0) + 1);
      labels.set(call.label, (labels.get(call.label) ?? 0) + 1);
    }
    perFile.set(file, { calls: summary.calls.length, failed: summary.calls.filter((call) => call.status === 'failed').length, labels: mine });
  }
  const total = [...perFile.values()].reduce((sum, f) => sum + f.calls, 0);
  const failed = [...perFile.values()].reduce((sum, f) => sum + f.failed, 0);
  return { perFile, labels, total, failed };
}

/** One row per file with its calls and failures, and calls per label that are the sums over the files. */
export async function expectLibraryShows(page: Page, expected: ExpectedFleet): Promise<void> {
  const library = page.getByTestId('library');
  await expect(library.locator('[data-session-file]')).toHaveCount(expected.perFile.size);
  for (const [file, { calls, failed }] of expected.perFile) {
    const row = library.locator(`[data-session-file="${cssEscape(file)}"]`);
    await expect(row).toHaveAttribute('data-calls', String(calls));
    await expect(row).toHaveAttribute('data-failed', String(failed));
  }
  const stats = page.getByRole('table', { name: 'Calls per label' });
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(expected.total));
  await expect(stats.locator('tfoot [data-label=""]')).toHaveAttribute('data-failed', String(expected.failed));
  await expect(stats.locator('tbody [data-label]')).toHaveCount(expected.labels.size);
  for (const [label, calls] of expected.labels) await expect(stats.locator(`tbody [data-label="${cssEscape(label)}"]`)).toHaveAttribute('data-calls', String(calls));
}
