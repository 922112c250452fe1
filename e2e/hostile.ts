// What the hostile-input specs share: a case written by scripts/hostile.mjs into the test's own
// output folder, the page's long tasks recorded from its first script on, and loading a case.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, expectedSession, openByPicker, ROOT } from './helpers';

export interface HostileCase {
  name: string;
  file: string;
  bytes: number;
}

export function generate(name: string, info: TestInfo): HostileCase {
  const out = execFileSync('node', [join(ROOT, 'scripts/hostile.mjs'), info.outputPath('hostile'), name], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const [c] = JSON.parse(out) as HostileCase[];
  if (!c) throw new Error(`the generator wrote no case ${name}`);
  return c;
}

/** Records every long task (> 50 ms) the page runs, from its first script on. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The long tasks recorded since the last call (see watchLongTasks), in ms. */
export async function takeLongTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    const tasks = w.__longTasks;
    w.__longTasks = [];
    return tasks;
  });
}

/**
 * Loads `c` in the app and checks what any case must keep: no page error (the errors are handed
 * back, to be asserted after the case's own steps), Node's counts and calls, its rows shown. The
 * longest main-thread task while loading is recorded as an annotation, not asserted.
 */
export async function loadHostile(page: Page, c: HostileCase, info: TestInfo): Promise<{ errors: string[]; expected: Awaited<ReturnType<typeof expectedSession>> }> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await watchLongTasks(page);
  const expected = await expectedSession(c.file);
  const { lines, events, unknown, bad } = expected.counts;
  expect(events + unknown + bad).toBe(lines);
  await openByPicker(page, c.file);
  await expect(page.locator('[data-load-state]').first()).toHaveAttribute('data-load-state', 'done');
  await expect(page.getByTestId('records')).toHaveText(lines.toLocaleString('en'));
  await expect(page.getByRole('region', { name: 'Filters' })).toContainText(`Tool calls: ${expected.calls.size.toLocaleString('en')}`);
  await expect(page.getByRole('list', { name: 'Transcript' }).getByRole('listitem').first()).toBeVisible();
  const longest = Math.max(0, ...(await takeLongTasks(page)));
  info.annotations.push({ type: `${c.name}: longest main-thread task while loading ${(c.bytes / 1e6).toFixed(1)} MB`, description: `${Math.round(longest)} ms` });
  return { errors, expected };
}
