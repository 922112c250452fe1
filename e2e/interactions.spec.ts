import { readFileSync, writeFileSync } from 'node:fs';
import { expect, expectedSession, fixture, GENERATOR, openByPicker, openByUrl, test, waitLoaded } from './helpers';

const GEMINI = fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
const EDIT_ID = 'replace__replace_1795981971029_0';
const RUN_ID = 'run_shell_command__run_shell_command_1795981971041_0';

test('filters by label and status narrow the rows, live in the URL and survive a reload', async ({ page }) => {
  await openByUrl(page, GEMINI);
  await expect(page.locator('[data-call-id]')).toHaveCount(3);
  const labels = page.getByRole('group', { name: 'By label' });
  // gemini names its tool at the head of the id: write_file__… is a Write, replace__… an Edit (CONTRACTS §5).
  await expect(labels.locator('[data-facet-label="Edit"]')).toContainText('1');
  await expect(labels.locator('[data-facet-label="Write"]')).toContainText('1');
  await labels.getByLabel('Run Command').check();
  await expect(page.locator('[data-call-id]')).toHaveCount(1);
  await expect(page.locator(`[data-call-id="${RUN_ID}"]`)).toBeVisible();
  // Messages are not tool calls: a label filter hides them.
  await expect(page.getByRole('list', { name: 'Transcript' }).getByText('Create hello.py that prints')).toHaveCount(0);
  expect(new URL(page.url()).searchParams.getAll('label')).toEqual(['Run Command']);

  await page.reload();
  await waitLoaded(page);
  await expect(page.getByRole('group', { name: 'By label' }).getByLabel('Run Command')).toBeChecked();
  await expect(page.locator('[data-call-id]')).toHaveCount(1);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.locator('[data-call-id]')).toHaveCount(3);
  await page.getByRole('group', { name: 'By status' }).getByLabel('failed').check();
  await expect(page.getByText('No rows match the filter.')).toBeVisible();
});

test('free-text search matches subjects, titles and content, and is kept in the URL', async ({ page }) => {
  await openByUrl(page, GEMINI);
  await page.getByRole('searchbox', { name: 'Search' }).fill('python3');
  await expect(page.locator('[data-call-id]')).toHaveCount(1);
  await expect(page.locator(`[data-call-id="${RUN_ID}"]`)).toBeVisible();
  expect(new URL(page.url()).searchParams.get('q')).toBe('python3');
  // Content text is searched too: the diff's new text only appears in the edit's content.
  await page.getByRole('searchbox', { name: 'Search' }).fill("hello, world");
  await expect(page.locator(`[data-call-id="${EDIT_ID}"]`)).toBeVisible();
});

test('#call=<id> scrolls to and opens the call, and survives a reload', async ({ page }) => {
  await openByUrl(page, GEMINI, `#call=${EDIT_ID}`);
  const row = page.locator(`[data-call-id="${EDIT_ID}"]`);
  await expect(row).toHaveAttribute('data-open', 'true');
  await expect(row).toContainText("print('hello, world')");
  await page.reload();
  await waitLoaded(page);
  await expect(page.locator(`[data-call-id="${EDIT_ID}"]`)).toHaveAttribute('data-open', 'true');

  // Opening another call puts it in the address.
  await page.locator(`[data-call-id="${RUN_ID}"] > button`).click();
  await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toBe(`#call=${RUN_ID}`);
});

test('a deep link into a long session opens a call far below the fold', async ({ page }, info) => {
  const { execFileSync } = await import('node:child_process');
  const out = info.outputPath('long.jsonl');
  const key = info.outputPath('long.key.json');
  execFileSync('node', [GENERATOR, '--format', 'grok', '--calls', '600', '--out', out, '--expect', key]);
  const calls = (JSON.parse(readFileSync(key, 'utf8')) as { calls: { id: string }[] }).calls;
  const target = calls[calls.length - 5]?.id ?? '';
  await openByUrl(page, out, `#call=${encodeURIComponent(target)}`);
  await expect(page.locator(`[data-call-id="${target}"]`)).toHaveAttribute('data-open', 'true');
  await expect(page.locator(`[data-call-id="${target}"]`)).toBeInViewport();
});

test('keyboard: j/k move with a visible focus ring, Enter opens, Esc closes, / searches', async ({ page }) => {
  await openByUrl(page, GEMINI);
  await page.keyboard.press('j');
  const focused = page.locator('[data-focused]');
  await expect(focused).toHaveCount(1);
  const first = await focused.getAttribute('data-item');
  await page.keyboard.press('j');
  await expect(focused).not.toHaveAttribute('data-item', first ?? '');
  await page.keyboard.press('k');
  await expect(focused).toHaveAttribute('data-item', first ?? '');

  // Walk down to the first tool call and open it.
  for (let i = 0; i < 20; i++) {
    if ((await focused.locator('[data-call-id]').count()) > 0) break;
    await page.keyboard.press('j');
  }
  const call = focused.locator('[data-call-id]');
  await expect(call).toHaveCount(1);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(call).toHaveAttribute('data-open', 'true');
  // Enter on a control inside the opened call works that control, and leaves the call open.
  await call.getByRole('tab', { name: 'Raw' }).focus();
  await page.keyboard.press('Enter');
  await expect(call.getByRole('table')).toBeVisible();
  await expect(call).toHaveAttribute('data-open', 'true');
  await call.locator('> button').focus();
  await page.keyboard.press('Escape');
  await expect(call).not.toHaveAttribute('data-open', 'true');

  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
  await page.keyboard.type('python3');
  await expect(page.locator('[data-call-id]')).toHaveCount(1);
});

test('diagnostics list bad lines with their numbers, and a click jumps to the nearest row', async ({ page }, info) => {
  const lines = readFileSync(fixture('grok/esc-interrupt.updates.jsonl'), 'utf8').trimEnd().split('\n');
  lines.splice(3, 0, '{"this is": not json');
  lines.splice(6, 0, '[1, 2, 3]');
  const file = info.outputPath('with-bad-lines.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n{"truncated": `);
  const expected = await expectedSession(file);
  await openByPicker(page, file);
  const panel = page.getByRole('region', { name: 'Diagnostics' });
  await expect(panel.locator('[data-count="bad"]')).toHaveText(String(expected.counts.bad));
  await expect(panel.locator('[data-count="lines"]')).toHaveText(String(expected.counts.lines));
  await expect(panel.locator('[data-count="events"]')).toHaveText(String(expected.counts.events));
  await expect(panel.locator('[data-count="unknown"]')).toHaveText(String(expected.counts.unknown));
  for (const b of expected.diagnostics.bad) await expect(panel.locator(`[data-bad-line="${b.line}"]`)).toContainText(`line ${b.line}`);
  await expect(panel.locator('[data-bad-line="4"]')).toContainText('{"this is": not json');

  await panel.locator('[data-bad-line="7"]').click();
  const focused = page.locator('[data-focused]');
  await expect(focused).toHaveCount(1);
  await expect(focused).toBeInViewport();
});

test('the ledger chain state is shown: intact, or broken at a line', async ({ page }, info) => {
  await openByPicker(page, fixture('ledger/golden-p0.ledger-00000000000000000000.jsonl'));
  await expect(page.locator('[data-chain="intact"]')).toBeVisible();

  const lines = readFileSync(fixture('ledger/golden-p0.ledger-00000000000000000000.jsonl'), 'utf8').split('\n');
  lines[5] = (lines[5] ?? '').replace('"seq":5', '"seq":55');
  const file = info.outputPath('tampered.ledger.jsonl');
  writeFileSync(file, lines.join('\n'));
  const expected = await expectedSession(file);
  expect(expected.chain?.state).toBe('broken');
  await openByPicker(page, file);
  const broken = page.locator('[data-chain="broken"]');
  await expect(broken).toContainText(`broken at line ${expected.chain?.state === 'broken' ? expected.chain.line : '?'}`);
  await broken.getByRole('button').click();
  await expect(page.locator('[data-focused]')).toBeInViewport();
});

test('a one-line ledger reads "intact (1 line)"', async ({ page }) => {
  await openByPicker(page, fixture('ledger/ledger-ahead.ledger-00000000000000000000.jsonl'));
  await expect(page.locator('[data-chain="intact"]')).toHaveText('intact (1 line)');
});

test('theme follows the system and can be toggled', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openByUrl(page, GEMINI);
  const root = page.locator('[data-load-state]');
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(root).toHaveAttribute('data-theme', 'light');
  // The page around the viewer follows.
  expect(await page.evaluate(() => getComputedStyle(document.body).colorScheme)).toBe('light');
  // The choice is kept for the next visit.
  await page.reload();
  await expect(root).toHaveAttribute('data-theme', 'light');
});

test('opening a call shows its raw view with the history of its updates', async ({ page }) => {
  await openByUrl(page, GEMINI);
  const row = page.locator(`[data-call-id="${EDIT_ID}"]`);
  await row.locator('> button').click();
  await row.getByRole('tab', { name: 'Raw' }).click();
  await expect(row.getByRole('table')).toContainText('tool_call');
  await expect(row).toContainText('Merged state');

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await row.getByRole('button', { name: 'Copy JSON' }).click();
  await expect(row.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { id: string; label: string };
  expect(copied).toMatchObject({ id: EDIT_ID, label: 'Edit' });
});

test('a file of nothing but bad lines says so, and lists them', async ({ page }, info) => {
  const file = info.outputPath('garbage.jsonl');
  writeFileSync(file, 'not json at all\n{"unterminated": \n\u0000\u0001binary\n');
  const expected = await expectedSession(file);
  await openByPicker(page, file);
  await expect(page.getByText(`No record could be read: ${expected.counts.bad} bad lines`)).toBeVisible();
  await expect(page.locator('[data-bad-line]')).toHaveCount(expected.diagnostics.bad.length);
});

test('an opened diff fits a narrow window: its lines wrap, none is cut off at the right', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await openByUrl(page, GEMINI);
  const row = page.locator(`[data-call-id="${EDIT_ID}"]`);
  await row.locator('> button').click();
  const diff = row.locator('table').first();
  await expect(diff).toContainText("print('hello, world')");
  const [diffRight, rowRight] = await Promise.all([diff.evaluate((el) => el.getBoundingClientRect().right), row.evaluate((el) => el.getBoundingClientRect().right)]);
  expect(diffRight).toBeLessThanOrEqual(rowRight);
});

test('a label too long for the sidebar is cut with an ellipsis, keeps its count in sight, and is shown whole on hover', async ({ page }, info) => {
  const label = 'Create Pull Request Review Comment Reply On Enterprise Server';
  const file = info.outputPath('long-label.jsonl');
  const update = { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 't', status: 'completed', _meta: { 'x.ai/tool': { version: 1, name: 'n', kind: 'other', namespace: 'mcp', label, read_only: true } } };
  writeFileSync(file, `${JSON.stringify(update)}\n`);
  await openByPicker(page, file);
  const name = page.locator(`[data-facet-label="${label}"] span`).first();
  await expect(name).toHaveText(label);
  expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(name).toHaveAttribute('title', label);
  const count = page.locator(`[data-facet-label="${label}"] span`).last();
  await expect(count).toHaveText('1');
  const [countRight, sidebarRight] = await Promise.all([count.evaluate((el) => el.getBoundingClientRect().right), page.locator('aside').evaluate((el) => el.getBoundingClientRect().right)]);
  expect(countRight).toBeLessThanOrEqual(sidebarRight);
});

test('the status line counts one record in the singular', async ({ page }, info) => {
  const file = info.outputPath('one-record.jsonl');
  writeFileSync(file, `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } } })}\n`);
  await openByPicker(page, file);
  await expect(page.getByTestId('load-status')).toHaveText(/· 1 record$/);
});

test('"Show all" on a long command output draws its lines as they scroll into view, first to last', async ({ page }, info) => {
  const output = Array.from({ length: 40_000 }, (_, i) => `output line ${i + 1} ${'.'.repeat(i % 40)}`).join('\n');
  const file = info.outputPath('long-output.jsonl');
  writeFileSync(file, `${JSON.stringify({ sessionUpdate: 'tool_call', toolCallId: 'long-run', title: 'make', kind: 'execute', status: 'completed', rawInput: { command: 'make' }, content: [{ type: 'content', content: { type: 'text', text: output } }] })}\n`);
  await openByPicker(page, file);
  const row = page.locator('[data-call-id="long-run"]');
  await row.locator('> button').click();
  await expect(row.locator('[data-terminal]')).toContainText('output line 40000');
  await row.getByRole('button', { name: 'Show all' }).click();
  const lines = row.getByRole('list', { name: 'Terminal output, 40,000 lines' });
  // Every line is there to scroll to, but only those in view are in the page.
  await expect(lines.locator('[data-terminal-line="1"]')).toContainText('output line 1');
  expect(await lines.locator('[data-terminal-line]').count()).toBeLessThan(200);
  await lines.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(lines.locator('[data-terminal-line="40000"]')).toContainText('output line 40000');
});
