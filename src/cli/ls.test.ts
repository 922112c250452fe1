// `loupe ls` under a scratch HOME holding a Claude Code project, a Codex rollout and a tee capture.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { main } from './ls';
import type { FoundSession } from './sessions';

const FIXTURES = join(import.meta.dirname, '../../fixtures/native');
const NOW = Date.parse('2026-12-01T15:00:00Z');

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'loupe-ls-test-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function place(source: string, ...path: string[]): string {
  const target = join(home, ...path);
  mkdirSync(join(target, '..'), { recursive: true });
  copyFileSync(join(FIXTURES, source), target);
  return target;
}

function touch(path: string, iso: string): void {
  const when = new Date(iso);
  utimesSync(path, when, when);
}

async function run(args: string[], env: NodeJS.ProcessEnv = { HOME: home }): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) }, { env, now: NOW });
  return { code, out, err };
}

test('finds Claude Code, Codex and tee sessions with their formats, newest first', async () => {
  const claude = place('claude-code-2.1.83_via-claude-agent-acp.jsonl', '.claude/projects/-home-dev-run1-work-claude-agent-acp-capture/4b56d36c-807f-4005-b88e-b42e393376e0.jsonl');
  const subagent = join(home, '.claude/projects/-home-dev-run1-work-claude-agent-acp-capture/4b56d36c-807f-4005-b88e-b42e393376e0/subagents/agent-a1.jsonl');
  mkdirSync(join(subagent, '..'), { recursive: true });
  writeFileSync(subagent, `${JSON.stringify({ type: 'user', isSidechain: true, agentId: 'a1', sessionId: '4b56d36c-807f-4005-b88e-b42e393376e0', uuid: 'x', message: { role: 'user', content: 'go' } })}\n`);
  // Claude Code writes each sub-agent's description beside its entries: not a sub-agent, nor a session of its own.
  writeFileSync(join(subagent, '../agent-a1.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'Check the notes' }));
  const codex = place('codex-0.137.0_rollout.jsonl', '.codex/sessions/2026/12/01/rollout-2026-12-01T14-09-36-01a231f0-8607-7e42-a1ef-30bb58ce5759.jsonl');
  const capture = place('claude-agent-acp.acp.jsonl', '.local/state/loupe/captures/2026-12-01T14-08-28-000Z_claude-agent-acp_4242.jsonl');
  touch(claude, '2026-12-01T14:08:33Z');
  touch(codex, '2026-12-01T14:59:30Z'); // written 30 s before NOW: live
  touch(capture, '2026-12-01T14:08:40Z');

  const { code, out } = await run(['--json']);
  expect(code).toBe(0);
  const found = JSON.parse(out) as FoundSession[];
  expect(found.map(({ path, format, sessionId, project, startedAt, lastWriteAt, live, subagents }) => ({ path, format, sessionId, project, startedAt, lastWriteAt, live, subagents }))).toEqual([
    {
      path: codex, format: 'codex', sessionId: '01a231f0-8607-7e42-a1ef-30bb58ce5759', project: '/home/dev/run1/work/codex-acp-capture',
      startedAt: '2026-12-01T14:09:36.880Z', lastWriteAt: '2026-12-01T14:59:30.000Z', live: true, subagents: [],
    },
    {
      path: capture, format: 'acp-capture', sessionId: expect.any(String) as string, project: '/home/dev/run1/work/claude-agent-acp-capture',
      startedAt: '2026-12-01T14:08:28.000Z', lastWriteAt: '2026-12-01T14:08:40.000Z', live: false, subagents: [],
    },
    {
      path: claude, format: 'claude-code', sessionId: '4b56d36c-807f-4005-b88e-b42e393376e0', project: '/home/dev/run1/work/claude-agent-acp-capture',
      startedAt: '2026-12-01T14:08:28.841Z', lastWriteAt: '2026-12-01T14:08:33.000Z', live: false, subagents: [subagent],
    },
  ]);
  expect(found.every((s) => s.size > 0)).toBe(true);
  // Each titled by the person's prompt: not Claude Code's `/model` command and caveat, not Codex's environment context.
  const prompt = 'Please tidy up notes.txt and report on the workspace.';
  expect(found.map((s) => s.title)).toEqual([prompt, prompt, prompt]);

  const text = await run([]);
  expect(text.out.split('\n')[0]).toMatch(/^LAST WRITE \(UTC\)\s+HARNESS\s+SIZE\s+PROJECT\s+TITLE\s+PATH$/);
  expect(text.out).toMatch(/live {2}Codex\s+\S+ KB\s+work\/codex-acp-capture\s+Please tidy up notes\.txt and report on the work…/);
  expect(text.out).toContain('(+1 sub-agent)');
});

test('DIR arguments list what is under them; CLAUDE_CONFIG_DIR and CODEX_HOME move the defaults', async () => {
  const elsewhere = place('codex-0.137.0_rollout.jsonl', 'elsewhere/codex/sessions/2026/12/01/rollout-x.jsonl');
  const dir = place('claude-code-2.1.44_via-claude-code-acp.jsonl', 'some/dir/session.jsonl');
  writeFileSync(join(home, 'some/dir/notes.txt'), 'not a session');
  const listed = JSON.parse((await run(['--json', join(home, 'some')])).out) as FoundSession[];
  expect(listed.map((s) => [s.path, s.format])).toEqual([[dir, 'claude-code']]);

  const moved = JSON.parse((await run(['--json'], { HOME: join(home, 'nowhere'), CODEX_HOME: join(home, 'elsewhere/codex') })).out) as FoundSession[];
  expect(moved.map((s) => s.path)).toEqual([elsewhere]);
});

test('nothing there: says so; a file that is not a session is listed as unknown, never a crash', async () => {
  expect((await run([])).out).toMatch(/^no sessions found in /);
  writeFileSync(join(home, 'junk.jsonl'), 'not json\n[1,2]\n');
  const listed = JSON.parse((await run(['--json', home])).out) as FoundSession[];
  expect(listed.map((s) => [s.format, s.sessionId])).toEqual([['unknown', null]]);
  expect((await run(['--bogus'])).code).toBe(2);
});

test('a home folder given as DIR: dot-folders are entered, .git, node_modules and an index folder are not', async () => {
  const claude = place('claude-code-2.1.83_via-claude-agent-acp.jsonl', '.claude/projects/-p/4b56d36c-807f-4005-b88e-b42e393376e0.jsonl');
  const codex = place('codex-0.137.0_rollout.jsonl', '.codex/sessions/2026/12/01/rollout-x.jsonl');
  // Beside them, JSON that is not a session: Claude Code's settings, Codex's prompt history, a sub-agent's metadata.
  writeFileSync(join(home, '.claude/settings.json'), '{"model": "opus"}\n');
  writeFileSync(join(home, '.codex/history.jsonl'), '{"session_id": "x", "text": "hi"}\n');
  mkdirSync(join(home, '.claude/projects/-p/4b56d36c-807f-4005-b88e-b42e393376e0/subagents'), { recursive: true });
  writeFileSync(join(home, '.claude/projects/-p/4b56d36c-807f-4005-b88e-b42e393376e0/subagents/agent-a1.meta.json'), '{"agentType": "x"}\n');
  place('codex-0.137.0_rollout.jsonl', 'repo/.git/rollout.jsonl');
  place('codex-0.137.0_rollout.jsonl', 'repo/node_modules/pkg/rollout.jsonl');
  const index = join(home, '.cache/loupe/index');
  mkdirSync(index, { recursive: true });
  for (const name of ['manifest.json', 'sessions.parquet', 'calls.parquet']) writeFileSync(join(index, name), '{}\n');

  const listed = JSON.parse((await run(['--json', home])).out) as FoundSession[];
  expect(listed.map((s) => s.path).sort()).toEqual([claude, codex].sort());
  expect(listed.find((s) => s.path === claude)?.subagents).toEqual([]);
});

test('links that loop list each session once; a folder reached twice is read once', async () => {
  const session = place('claude-code-2.1.83_via-claude-agent-acp.jsonl', 'runs/session.jsonl');
  for (let i = 0; i < 8; i++) symlinkSync('.', join(home, 'runs', `loop${i}`));
  symlinkSync(join(home, 'runs'), join(home, 'again'));
  const listed = JSON.parse((await run(['--json', home])).out) as FoundSession[];
  expect(listed.map((s) => s.path)).toEqual([session]);
});

test("Gemini CLI's chats where it keeps them, titled by the first prompt, its logs beside them left out", async () => {
  const chat = place('gemini-cli-0.61.0_chat-session-B.jsonl', '.gemini/tmp/gemini-cli/chats/session-2026-12-01T14-23-76039580.jsonl');
  writeFileSync(join(home, '.gemini/tmp/gemini-cli/logs.json'), '[{"sessionId": "x", "type": "user", "message": "hi"}]\n');
  const listed = JSON.parse((await run(['--json'])).out) as FoundSession[];
  expect(listed.map(({ path, format, sessionId, title, project }) => ({ path, format, sessionId, title, project }))).toEqual([
    {
      path: chat, format: 'gemini-cli', sessionId: '76039580-ee98-42e7-8628-a5e0eb1b4858',
      title: 'TURN-1: Read notes.txt, check missing-dir, and write docs/gemini.md.', project: '/home/dev/run2/work/gemini-cli',
    },
  ]);
});

test('a file whose name is not valid UTF-8 is said on stderr, not dropped silently', async () => {
  mkdirSync(join(home, 'runs'));
  writeFileSync(Buffer.concat([Buffer.from(join(home, 'runs/')), Buffer.from([0x73, 0xff, 0x2e, 0x6a, 0x73, 0x6f, 0x6e, 0x6c])]), '{}\n');
  const { out, err } = await run(['--json', join(home, 'runs')]);
  expect(JSON.parse(out)).toEqual([]);
  expect(err).toMatch(/^loupe ls: left out .*runs\/s\uFFFD\.jsonl: its name is not valid UTF-8$/m);
});

test("Qwen Code's chats where it keeps them, titled by the first prompt, with their sub-agents; its settings and usage records left out", async () => {
  const project = '.qwen/projects/-tmp-qwen-rec-b3fWmL-ws';
  const chat = place('qwen-code-0.24.4_chat.jsonl', project, 'chats/2258bfa4-6581-425d-931a-ea0485616774.jsonl');
  const subagent = place('qwen-code-0.24.4_subagent.jsonl', project, 'subagents/2258bfa4-6581-425d-931a-ea0485616774/agent-general-purpose-call_fake_8_10.jsonl');
  writeFileSync(join(home, project, 'subagents/2258bfa4-6581-425d-931a-ea0485616774/agent-general-purpose-call_fake_8_10.meta.json'), '{"agentId": "x"}\n');
  writeFileSync(join(home, '.qwen/settings.json'), '{"model": {"name": "qwen3-coder"}}\n');
  writeFileSync(join(home, '.qwen/usage_record.jsonl'), '{"sessionId": "x", "type": "usage"}\n');
  const listed = JSON.parse((await run(['--json'])).out) as FoundSession[];
  expect(listed.map(({ path, format, sessionId, title, project, subagents }) => ({ path, format, sessionId, title, project, subagents }))).toEqual([
    {
      path: chat, format: 'qwen-code', sessionId: '2258bfa4-6581-425d-931a-ea0485616774',
      title: 'Tidy my notes: read notes.txt, look around, fix the greeting, write out/result.txt, try a couple of commands and have a…',
      project: '/tmp/qwen-rec.b3fWmL/ws', subagents: [subagent],
    },
  ]);
  const text = await run([]);
  expect(text.out).toMatch(/Qwen Code\s+\S+ KB\s+\S+\s+Tidy my notes/);
  expect(text.out).toContain('(+1 sub-agent)');
  // QWEN_HOME moves ~/.qwen.
  const moved = JSON.parse((await run(['--json'], { HOME: join(home, 'nowhere'), QWEN_HOME: join(home, '.qwen') })).out) as FoundSession[];
  expect(moved.map((s) => s.path)).toEqual([chat]);
});

test("Pi's sessions where it keeps them (and where its variables move them), titled by the first prompt; its settings and credentials left out", async () => {
  const file = '2026-12-02T03-50-32-576Z_01a234e0-1d75-7524-a9b9-879ced84ded2.jsonl';
  const session = place('pi-0.73.1_two-turns-and-a-branch.jsonl', `.pi/agent/sessions/--tmp-pi-record.XGDBKc-ws--/${file}`);
  for (const name of ['auth.json', 'models.json', 'settings.json']) writeFileSync(join(home, '.pi/agent', name), '{"providers": {}}\n');
  const moved = place('pi-0.73.1_two-turns-and-a-branch.jsonl', 'pi-sessions', file);
  const expected = { format: 'pi', sessionId: '01a234e0-1d75-7524-a9b9-879ced84ded2', title: 'Please tidy up notes.txt and report on the workspace.', project: '/tmp/pi-record.XGDBKc/ws' };
  const listed = JSON.parse((await run(['--json'])).out) as FoundSession[];
  expect(listed.map(({ path, format, sessionId, title, project }) => ({ path, format, sessionId, title, project }))).toEqual([{ path: session, ...expected }]);
  const both = JSON.parse((await run(['--json'], { HOME: home, PI_CODING_AGENT_SESSION_DIR: '~/pi-sessions' })).out) as FoundSession[];
  expect(both.map((s) => s.path).sort()).toEqual([moved, session].sort());
});

test("OpenCode's database where it keeps it ($XDG_DATA_HOME moves it), titled by its latest session; its logs, snapshots and -wal beside it left out", async () => {
  const db = place('opencode-1.18.33_tidy-notes.db', 'data/opencode/opencode.db');
  writeFileSync(join(home, 'data/opencode/opencode.db-wal'), '');
  mkdirSync(join(home, 'data/opencode/log'), { recursive: true });
  writeFileSync(join(home, 'data/opencode/log/2026-12-02T035057.log'), 'INFO service=default\n');
  mkdirSync(join(home, 'data/opencode/storage/session/p1'), { recursive: true });
  writeFileSync(join(home, 'data/opencode/storage/session/p1/ses_1.json'), '{"id": "ses_1", "title": "older releases kept JSON"}\n');
  touch(db, '2026-12-01T14:08:33Z');
  const listed = JSON.parse((await run(['--json'], { HOME: home, XDG_DATA_HOME: join(home, 'data') })).out) as FoundSession[];
  expect(listed.map(({ path, format, sessionId, title, project, startedAt }) => ({ path, format, sessionId, title, project, startedAt }))).toEqual([
    {
      path: db, format: 'opencode', sessionId: 'ses_dcb195a86ffePtpFwkbooH24Z8', title: 'Tidy the notes', project: '/tmp/oc-scratch/out/main/ws',
      startedAt: new Date(1796183860601).toISOString(),
    },
  ]);
});
test("Cline's sessions where it keeps them ($CLINE_DIR moves them), titled by the first prompt, in the directory its <id>.json names, with their sub-agents; its settings, databases and logs left out", async () => {
  const folder = '.cline/data/sessions/1796192429067_g2n1j';
  const session = place('cline-3.0.65_tidy-notes.messages.json', folder, '1796192429067_g2n1j.messages.json');
  const subagent = place('cline-3.0.65_tidy-notes_subagent.messages.json', folder, 'agent_1796192430520_zqzsx4.messages.json');
  copyFileSync(join(FIXTURES, '../cline/1796192429067_g2n1j.json'), join(home, folder, '1796192429067_g2n1j.json'));
  mkdirSync(join(home, '.cline/data/settings'), { recursive: true });
  writeFileSync(join(home, '.cline/data/settings/providers.json'), '{"version": 1, "providers": {}}\n');
  mkdirSync(join(home, '.cline/data/logs'), { recursive: true });
  writeFileSync(join(home, '.cline/data/logs/cline.log'), '{"level": 30, "msg": "started"}\n');
  const listed = JSON.parse((await run(['--json'])).out) as FoundSession[];
  expect(listed.map(({ path, format, sessionId, title, project, startedAt, subagents }) => ({ path, format, sessionId, title, project, startedAt, subagents }))).toEqual([
    {
      path: session, format: 'cline', sessionId: '1796192429067_g2n1j', title: 'Please tidy up notes.txt and report on the workspace.',
      project: '/tmp/cline-rec/out/main/ws', startedAt: '2026-12-02T06:20:29.079Z', subagents: [subagent],
    },
  ]);
  const text = await run([]);
  expect(text.out).toMatch(/Cline\s+\S+ KB\s+\S+\s+Please tidy up notes\.txt/);
  expect(text.out).toContain('(+1 sub-agent)');
  const moved = JSON.parse((await run(['--json'], { HOME: join(home, 'nowhere'), CLINE_DIR: join(home, '.cline') })).out) as FoundSession[];
  expect(moved.map((s) => s.path)).toEqual([session]);
});

// Issue 28, e and f: an index's manifest is not a session; a capture is live only while its tee runs.

/**
 * Issue 28 e, for sessions.ts's walk: skip a file `isIndexOutput` (src/cli/indexOutput.ts) says is
 * an index's manifest (`loupe index --out DIR/index`, then `loupe ls DIR` lists manifest.json).
 */
async function indexManifestNotListed(): Promise<void> {
  const session = place('claude-code-2.1.44_via-claude-code-acp.jsonl', 'work/session.jsonl');
  const { main: index } = await import('./indexCommand');
  expect(await index([join(home, 'work'), '--out', join(home, 'work/index'), '--jobs', '0'], { out: () => undefined, err: () => undefined })).toBe(0);
  const listed = JSON.parse((await run(['--json', join(home, 'work')])).out) as FoundSession[];
  expect(listed.map((s) => s.path)).toEqual([session]);
}
test('`loupe ls DIR` does not list an index\'s manifest.json written under DIR (skip isIndexOutput files in the walk)', indexManifestNotListed);

/**
 * Issue 28 f, for sessions.ts's describe(): a capture is live while its tee runs, and only then:
 * `live = head.format === 'acp-capture' ? await isCaptureLive(path) : now - lastWriteMs < LIVE_MS`
 * (tee removes `<capture>.live` when it exits; a marker a crashed tee left names a pid that is gone).
 */
async function finishedCaptureNotLive(): Promise<void> {
  const capture = place('claude-agent-acp.acp.jsonl', '.local/state/loupe/captures/2026-12-01T14-59-00-000Z_claude-agent-acp_4242.jsonl');
  touch(capture, '2026-12-01T14:59:50Z'); // written 10 s before NOW, by a tee that has exited since
  const live = () => run(['--json']).then(({ out }) => (JSON.parse(out) as FoundSession[]).map((s) => s.live));
  expect(await live()).toEqual([false]);
  writeFileSync(`${capture}.live`, JSON.stringify({ pid: process.pid, agent: 'claude-agent-acp', startedMs: NOW }));
  expect(await live()).toEqual([true]);
}
test('a tee capture is live only while its tee runs, not for a minute after it exits (acp-capture: isCaptureLive alone)', finishedCaptureNotLive);

test("a Codex run's sub-agent threads (rollouts of their own naming it as parent) are its sub-agents, not sessions of their own", async () => {
  const recorded = join(import.meta.dirname, '../../fixtures/subagent/codex-0.137.0_two-subagents');
  const rollouts = readdirSync(recorded).filter((name) => name.startsWith('rollout-')).sort();
  const day = join(home, '.codex/sessions/2026/12/02');
  mkdirSync(day, { recursive: true });
  for (const name of rollouts) copyFileSync(join(recorded, name), join(day, name));
  const json = await run(['--json']);
  const found = JSON.parse(json.out) as FoundSession[];
  expect(found.map((s) => [s.path, s.subagents])).toEqual([[join(day, rollouts[0]!), rollouts.slice(1).map((name) => join(day, name))]]);
  expect((await run([])).out).toContain('(+2 sub-agents)');
});
