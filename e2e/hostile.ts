// What the hostile-input specs share: a case written by scripts/hostile.mjs into the test's own
// output folder, and the page's long tasks recorded from its first script on.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { ROOT } from './helpers';

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
