// The views beside the transcript, in the built app: stats counts equal the model's, the session
// list equals the input's sessions, a timeline bar answers hover with its call and opens it on click,
// and the view is kept in the URL and reachable from the keyboard.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callStats } from '../src/analysis/insights';
import { timelineLayout } from '../src/analysis/timeline';
import { AXIS_H, ROW_H, rowTop } from '../src/ui/insights/drawTimeline';
import { expect, expectedSession, fixture, GENERATOR, openByUrl, test } from './helpers';

const CODEX = fixture('acp/codex-acp-1.6.2_unwrapped.jsonl');

// Generated sessions, one folder per worker, made on first use (Playwright also loads this file
// to list the tests, where no afterAll runs) and removed when the worker's tests end.
let work: string | undefined;
test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});
let generatedFiles = 0;

function generated(format: string, calls: number): string {
  work ??= mkdtempSync(join(tmpdir(), 'loupe-insights-e2e-'));
  const out = join(work, `session-${generatedFiles++}.${format}.jsonl`);
  execFileSync('node', [GENERATOR, '--format', format, '--calls', String(calls), '--seed', '11', '--bad-rate', '0.01', '--out', out]);
  return out;
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name });

async function expectStatsEqualModel(page: Page, file: string): Promise<void> {
  const session = await expectedSession(file);
  const stats = callStats(session.calls.values(), { ended: true });
  const rows = page.locator('tbody tr[data-label]');
  await expect(rows).toHaveCount(stats.labels.length);
  for (const l of stats.labels) {
    const row = page.locator(`tbody tr[data-label="${l.label}"]`);
    await expect(row, l.label).toHaveAttribute('data-calls', String(l.calls));
    await expect(row, l.label).toHaveAttribute('data-failed', String(l.failed));
  }
  await expect(page.locator('tfoot tr')).toHaveAttribute('data-calls', String(session.calls.size));
}

test.describe('stats', () => {
  for (const format of ['acp', 'grok', 'ledger']) {
    test(`per-label counts of a generated ${format} session equal the model's`, async ({ page }) => {
      const file = generated(format, 400);
      await openByUrl(page, file, '#view=stats');
      await expect(tab(page, 'Stats')).toHaveAttribute('aria-selected', 'true');
      await expectStatsEqualModel(page, file);
    });
  }

  test('a count clicks through to its calls in the transcript, as a filter', async ({ page }) => {
    const file = generated('grok', 300);
    await openByUrl(page, file, '#view=stats');
    const session = await expectedSession(file);
    const failedLabel = callStats(session.calls.values(), { ended: true }).labels.find((l) => l.failed > 0);
    expect(failedLabel).toBeDefined();
    if (!failedLabel) return;
    await page.locator(`tbody tr[data-label="${failedLabel.label}"] td`).nth(1).getByRole('button').click();
    await expect(tab(page, 'Transcript')).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByRole('region', { name: 'Filters' })).toContainText(`showing ${failedLabel.failed} rows`);
    expect(new URL(page.url()).searchParams.getAll('label')).toEqual([failedLabel.label]);
  });
});

test('beside a label filter the stats say they count every call, and lead back to the filtered rows', async ({ page }) => {
  await openByUrl(page, fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl'), '&label=Edit#view=stats');
  await expect(page.locator('tfoot tr')).toHaveAttribute('data-calls', '3');
  const note = page.getByTestId('filter-note');
  await expect(note).toContainText('narrow the transcript only');
  await note.getByRole('button', { name: 'Show the 1 filtered row' }).click();
  await expect(tab(page, 'Transcript')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-call-id]')).toHaveCount(1);
  await expect(page.locator('[data-call-id]')).toHaveAttribute('data-label', 'Edit');
});

test.describe('sessions', () => {
  test('the codex fixture lists its 74 sessions; choosing one shows only its rows', async ({ page }) => {
    const session = await expectedSession(CODEX);
    await openByUrl(page, CODEX, '#view=sessions');
    const entries = page.locator('[data-session-id]');
    await expect(entries).toHaveCount(74);
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')))).toEqual(session.sessionIds);

    // The session with the most calls.
    const counts = new Map<string, number>();
    for (const c of session.calls.values()) if (c.sessionId !== null) counts.set(c.sessionId, (counts.get(c.sessionId) ?? 0) + 1);
    const [chosen, calls] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    await expect(page.locator(`[data-session-id="${chosen}"]`)).toHaveAttribute('data-calls', String(calls));
    await page.locator(`[data-session-id="${chosen}"]`).getByRole('button', { name: chosen }).click();
    await expect(tab(page, 'Transcript')).toHaveAttribute('aria-selected', 'true');
    expect(new URL(page.url()).searchParams.getAll('session')).toEqual([chosen]);
    const rows = page.locator('[data-call-id][data-label]');
    await expect(rows).toHaveCount(calls);

    // And back to every session.
    await tab(page, 'Sessions').click();
    await page.getByRole('button', { name: 'Show all sessions' }).click();
    await tab(page, 'Transcript').click();
    await expect(page.getByRole('region', { name: 'Filters' })).not.toContainText('showing');
  });
});

test.describe('timeline', () => {
  test('hovering a bar shows its call in a tooltip; clicking opens that call in the transcript', async ({ page }) => {
    const file = generated('grok', 60);
    const session = await expectedSession(file);
    await openByUrl(page, file, '#view=timeline');
    const canvas = page.locator('[data-testid="timeline-view"] canvas');
    await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-axis', 'time');
    const box = await canvas.boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    // Where the view puts each bar when it fits the session: the same layout, computed here.
    const layout = timelineLayout({ calls: session.calls.values(), items: session.items, sessionIds: session.sessionIds, ended: true });
    const widest = [...layout.keys.keys()].sort((a, b) => (layout.end[b] ?? 0) - (layout.start[b] ?? 0) - ((layout.end[a] ?? 0) - (layout.start[a] ?? 0)))[0] ?? 0;
    const toX = (x: number) => ((x - layout.min) / (layout.max - layout.min)) * box.width;
    const x = (toX(layout.start[widest] ?? 0) + toX(layout.end[widest] ?? 0)) / 2;
    const y = rowTop(layout, layout.row[widest] ?? 0) + ROW_H / 2;
    expect(y).toBeGreaterThan(AXIS_H);
    const id = layout.ids[widest] ?? '';

    await canvas.hover({ position: { x, y } });
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toHaveAttribute('data-call-id', id);
    const call = [...session.calls.values()].find((c) => c.id === id);
    await expect(tooltip).toContainText(call?.label ?? '');

    await canvas.click({ position: { x, y } });
    await expect(tab(page, 'Transcript')).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(new RegExp(`#call=${encodeURIComponent(id)}$`));
    const row = page.locator(`[data-call-id="${id}"]`).first();
    await expect(row).toBeVisible();
    await expect(row.locator('[aria-expanded="true"]').first()).toBeVisible();
  });

  test('keys step to a call and open it; an input without times says so', async ({ page }) => {
    await openByUrl(page, CODEX, '#view=timeline');
    await expect(page.getByTestId('timeline-no-times')).toBeVisible();
    const session = await expectedSession(CODEX);
    const first = [...session.calls.values()][0];
    const canvas = page.locator('[data-testid="timeline-view"] canvas');
    await canvas.focus();
    await page.keyboard.press('n');
    await expect(page.getByRole('tooltip')).toHaveAttribute('data-call-id', first?.id ?? '');
    await page.keyboard.press('Enter');
    await expect(tab(page, 'Transcript')).toHaveAttribute('aria-selected', 'true');
  });

  test('the legend’s “+N” says which labels it stands for', async ({ page }) => {
    const file = generated('acp', 200);
    const session = await expectedSession(file);
    const labels = timelineLayout({ calls: session.calls.values(), items: session.items, sessionIds: session.sessionIds, ended: true }).labels;
    expect(labels.length).toBeGreaterThan(8);
    await openByUrl(page, file, '#view=timeline');
    const more = page.getByTestId('legend-more');
    await expect(more).toHaveText(`+${labels.length - 8}`);
    await expect(more).toHaveAttribute('title', labels.slice(8).join(', '));
  });

  test('one call left off the time axis is counted in the singular', async ({ page }, info) => {
    const update = (toolCallId: string) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId, title: toolCallId, kind: 'read', status: 'completed' } } });
    const file = info.outputPath('one-untimed.jsonl');
    // Two timed capture lines, and one line that is a bare message: it has no time.
    writeFileSync(file, [JSON.stringify({ t_ms: 10, dir: 'agent->client', msg: update('a') }), JSON.stringify({ t_ms: 20, dir: 'agent->client', msg: update('b') }), JSON.stringify(update('c'))].join('\n') + '\n');
    await openByUrl(page, file, '#view=timeline');
    await expect(page.getByTestId('timeline-view')).toContainText('1 call without a start time is left off.');
  });

  test('the tooltip of a call with no subject names it by its title, as its row does', async ({ page }) => {
    await openByUrl(page, fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl'), '#view=timeline');
    await page.locator('[data-testid="timeline-view"] canvas').focus();
    // In time order: the Write, the Edit, then the command.
    for (let i = 0; i < 3; i++) await page.keyboard.press('n');
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toHaveAttribute('data-call-id', 'run_shell_command__run_shell_command_1795981971041_0');
    await expect(tooltip).toContainText('python3 hello.py');
  });
});

test.describe('usage and the view switch', () => {
  test('turn usage is charted and tabled; tabs move with arrow keys and keep #view= in the URL; dark theme applies', async ({ page }) => {
    await openByUrl(page, fixture('grok/esc-interrupt.updates.jsonl'), '#view=usage');
    const table = page.getByRole('table', { name: 'Usage per turn' });
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table.locator('tbody tr').first()).toContainText('13,463');
    await expect(page.getByTestId('usage-chart').locator('canvas')).toHaveCount(1);

    await tab(page, 'Usage').focus();
    await page.keyboard.press('ArrowLeft');
    await expect(tab(page, 'Sessions')).toBeFocused();
    await expect(page).toHaveURL(/#view=sessions$/);
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL(/#view=stats$/);
    await expect(page.locator('tbody tr[data-label="Run Command"]')).toHaveAttribute('data-calls', '1');

    await page.getByRole('button', { name: /Switch to dark theme/ }).click();
    await expect(page.locator('[data-theme]').first()).toHaveAttribute('data-theme', 'dark');
    const th = await page.locator('tbody th').first().evaluate((el) => getComputedStyle(el).color);
    expect(th).toBe('rgb(227, 229, 232)');
  });
});

/** Records every text drawn on a canvas (the charts' axes and lane titles are not in the DOM). */
async function recordCanvasText(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const drawn: string[] = [];
    (window as unknown as { drawnText: string[] }).drawnText = drawn;
    const proto = CanvasRenderingContext2D.prototype;
    const fillText = Object.getOwnPropertyDescriptor(proto, 'fillText')?.value as (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) => void;
    proto.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
      drawn.push(text);
      fillText.call(this, text, x, y, maxWidth);
    };
  });
  return () => page.evaluate(() => (window as unknown as { drawnText: string[] }).drawnText);
}

test('the usage chart numbers its reports 1, 2, … with no fractional report between them', async ({ page }) => {
  const drawnText = await recordCanvasText(page);
  await openByUrl(page, fixture('grok/esc-interrupt.updates.jsonl'), '#view=usage');
  await expect(page.getByTestId('usage-chart').locator('canvas')).toHaveCount(1);
  await expect.poll(drawnText).toContain('Usage report');
  const drawn = await drawnText();
  expect(drawn).toContain('2');
  expect(drawn.filter((t) => /^\d+\.\d+$/.test(t))).toEqual([]);
});

test('a timeline lane with one call says “1 call”, and so does the timeline’s name', async ({ page }) => {
  const drawnText = await recordCanvasText(page);
  await openByUrl(page, fixture('grok/esc-interrupt.updates.jsonl'), '#view=timeline');
  await expect.poll(async () => [...new Set((await drawnText()).filter((t) => t.includes(' · 1 call')))]).toEqual(['bf9b7291-f5ab-48db-9a71-3bffe7c25ea0 · 1 call']);
  await expect(page.getByRole('img', { name: /^Timeline of/ })).toHaveAccessibleName(/^Timeline of 1 call in 1 lane\. /);
});
