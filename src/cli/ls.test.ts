// `loupe ls` under a scratch HOME holding a Claude Code project, a Codex rollout and a tee capture.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

  const text = await run([]);
  expect(text.out.split('\n')[0]).toMatch(/^LAST WRITE \(UTC\)\s+FORMAT\s+SIZE\s+PROJECT\s+PATH$/);
  expect(text.out).toContain('live  codex');
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

// Two fixes for the lead's rewrite of src/cli/sessions.ts (issue 28, e and f), left to it: each
// test below fails on the current walk and passes once its note is done. Run as `test` to check.

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
test.todo('sessions.ts (lead): `loupe ls DIR` does not list an index\'s manifest.json written under DIR (skip isIndexOutput files in the walk)', indexManifestNotListed);

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
test.todo('sessions.ts (lead): a tee capture is live only while its tee runs, not for a minute after it exits (acp-capture: isCaptureLive alone)', finishedCaptureNotLive);
