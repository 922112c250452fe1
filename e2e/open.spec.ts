// `loupe open` as a user runs it (the built CLI as a child process), in Chromium: a session file
// followed while a script appends to it, requests without the token refused, and the recordings list.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ingest } from '../src/model';
import { expect, fixture, ROOT, test, waitLoaded } from './helpers';

const GEMINI = fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
const LOUPE = join(ROOT, 'bin/loupe.mjs');

interface Running {
  url: string;
  child: ChildProcess;
}

const children: ChildProcess[] = [];

test.afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Starts `loupe open ARGS --no-browser --port 0` and waits for the address it prints. */
async function loupeOpen(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const child = spawn(process.execPath, [LOUPE, 'open', ...args, '--no-browser', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`loupe open exited with ${code}: ${stderr}`)));
  });
  return { url, child };
}

/** The ids of the calls in the first `count` lines, computed by the model the viewer uses. */
async function callIdsAfter(lines: string[], count: number): Promise<string[]> {
  const session = await ingest(new TextEncoder().encode(lines.slice(0, count).join('')));
  return [...session.calls.values()].map((call) => call.id);
}

test('--follow: rows appear as a script appends the session line by line', async ({ page }, info) => {
  const lines = readFileSync(GEMINI, 'utf8').split(/(?<=\n)/);
  const file = info.outputPath('growing.jsonl');
  // The handshake and the prompt, before any tool call.
  const start = 5;
  writeFileSync(file, lines.slice(0, start).join(''));
  const { url } = await loupeOpen([file, '--follow']);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/\?src=session\/growing\.jsonl$/);

  await page.goto(url);
  await expect(page.getByRole('list', { name: 'Transcript' }).getByText('Create hello.py that prints')).toBeVisible();
  await expect(page.locator('[data-call-id]')).toHaveCount(0);

  let shown = 0;
  for (let n = start + 1; n <= lines.length; n++) {
    appendFileSync(file, lines[n - 1]!);
    const ids = await callIdsAfter(lines, n);
    if (ids.length === shown) continue;
    // A new call: its row appears while the file is still open for writing.
    await expect(page.locator('[data-call-id]')).toHaveCount(ids.length);
    await expect(page.locator(`[data-call-id="${ids.at(-1)}"]`)).toBeVisible();
    shown = ids.length;
  }
  expect(shown).toBe(3);
});

test('the session is called by its file name: page title, header, downloads, md heading, html title', async ({ page }, info) => {
  const file = info.outputPath('gemini run 7.jsonl');
  writeFileSync(file, readFileSync(GEMINI));
  const { url } = await loupeOpen([file]);
  await page.goto(url);
  await waitLoaded(page);
  await expect(page).toHaveTitle('gemini run 7.jsonl — Loupe');
  await expect(page.locator('header').getByText('gemini run 7.jsonl')).toBeVisible();

  const download = async (format: 'md' | 'html' | 'jsonl') => {
    await page.getByRole('button', { name: 'Export ▾', exact: true }).click();
    const [file_] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${format}"]`).click()]);
    return { name: file_.suggestedFilename(), text: readFileSync(await file_.path(), 'utf8') };
  };
  const md = await download('md');
  expect(md.name).toBe('gemini run 7.md');
  expect(md.text.split('\n')[0]).toBe('# gemini run 7');
  const html = await download('html');
  expect(html.name).toBe('gemini run 7.html');
  expect(html.text).toContain('<title>gemini run 7 — Loupe</title>');
  expect((await download('jsonl')).name).toBe('gemini run 7.jsonl');
});

test('a request without the token, or from another Host, is refused', async ({ page, playwright }) => {
  const { url } = await loupeOpen([GEMINI]);
  const page_ = new URL(url);
  const token = page_.pathname.split('/')[1]!;
  const origin = page_.origin;

  // The page itself reads the session (same origin, with the token).
  await page.goto(url);
  await waitLoaded(page);
  await expect(page.locator('[data-call-id]')).toHaveCount(3);

  const api = await playwright.request.newContext();
  try {
    expect((await api.get(`${origin}/session`)).status()).toBe(403);
    expect((await api.get(`${origin}/`)).status()).toBe(403);
    expect((await api.get(`${origin}/not-the-token/session`)).status()).toBe(403);
    const rebound = await api.get(`${origin}/${token}/session`, { headers: { host: `attacker.example:${page_.port}` } });
    expect(rebound.status()).toBe(403);
    const foreign = await api.get(`${origin}/${token}/session`, { headers: { origin: 'https://attacker.example' } });
    expect(foreign.status()).toBe(403);
    expect((await api.get(`${origin}/${token}/session`)).status()).toBe(200);
  } finally {
    await api.dispose();
  }

  // A script on the page cannot reach past the token either.
  const status = await page.evaluate(async () => (await fetch('/session')).status);
  expect(status).toBe(403);
});

test('without PATH: the recordings, newest first, the live one marked; choosing one opens it', async ({ page }, info) => {
  const state = info.outputPath('state');
  const captures = join(state, 'loupe', 'captures');
  mkdirSync(captures, { recursive: true });
  const older = '2026-01-01T10-00-00-000Z_codex-acp_101.jsonl';
  const newer = '2026-01-01T11-00-00-000Z_gemini_202.jsonl';
  writeFileSync(join(captures, older), readFileSync(fixture('acp/gemini-cli-0.61.0_scripted-model_fake-responses.jsonl')));
  writeFileSync(join(captures, newer), readFileSync(GEMINI));
  utimesSync(join(captures, older), 1_000, 1_000);
  utimesSync(join(captures, newer), 2_000, 2_000);
  // tee's marker, naming a process that is running (this test's own), so the capture counts as live.
  writeFileSync(join(captures, `${newer}.live`), JSON.stringify({ pid: process.pid, agent: 'gemini --experimental-acp', startedMs: 2_000_000 }));

  const { url } = await loupeOpen([], { ...process.env, XDG_STATE_HOME: state, HOME: info.outputPath('home') });
  // The library of every session on the machine, with the recordings as they are written a link away.
  expect(url).toMatch(/\/\?library$/);
  await page.goto(url);
  // The older capture holds a model's canned responses, not ACP: the library has the one session, titled by its prompt.
  const rows = page.locator('[data-session-file]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Create hello.py');
  await page.getByRole('link', { name: /Recordings and agents' folders/ }).click();
  const list = page.getByRole('list', { name: 'Recordings' });
  const items = list.getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-recording', newer);
  await expect(items.nth(1)).toHaveAttribute('data-recording', older);
  await expect(items.nth(0)).toContainText('live');
  await expect(items.nth(0)).toContainText('gemini --experimental-acp');
  await expect(items.nth(1)).not.toContainText('live');
  await expect(items.nth(1)).toContainText('codex-acp');

  await items.nth(0).getByRole('link').click();
  await expect(page).toHaveURL(/\?src=recordings\//);
  await expect(page.locator('[data-call-id]')).toHaveCount(3);
});

test("without PATH: Claude Code's and Codex's own sessions by project; choosing one opens it", async ({ page }, info) => {
  const claudeHome = info.outputPath('claude');
  const codexHome = info.outputPath('codex');
  const project = join(claudeHome, 'projects', '-home-dev-run1-work');
  const rollouts = join(codexHome, 'sessions', '2026', '12', '01');
  mkdirSync(project, { recursive: true });
  mkdirSync(rollouts, { recursive: true });
  const claudeLog = 'claude-code-2.1.83_via-claude-agent-acp.jsonl';
  writeFileSync(join(project, claudeLog), readFileSync(fixture(`native/${claudeLog}`)));
  writeFileSync(join(rollouts, 'rollout-codex.jsonl'), readFileSync(fixture('native/codex-0.137.0_rollout.jsonl')));
  for (const file of [join(project, claudeLog), join(rollouts, 'rollout-codex.jsonl')]) utimesSync(file, 1_000, 1_000);

  const { url } = await loupeOpen([], { ...process.env, XDG_STATE_HOME: info.outputPath('state'), CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome, HOME: info.outputPath('home') });
  await page.goto(url.replace(/\?library$/, '?recordings'));
  const sessions = page.getByRole('region', { name: 'Agent sessions' });
  await expect(sessions.locator('[data-agent-session]')).toHaveCount(2);
  const claude = sessions.locator(`[data-agent-session="${claudeLog}"]`);
  await expect(claude).toContainText('Claude Code');
  await claude.getByRole('link').click();
  await waitLoaded(page);
  // The same calls `summarize` reads from the file, under the file's own name.
  const expected = await ingest(readFileSync(fixture(`native/${claudeLog}`)));
  await expect(page.getByText(`Tool calls: ${expected.calls.size}`)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(claudeLog.replace(/\./g, '\\.')));
});
