// CONTRACTS §11 "Sub-agent parents": every call names the call whose sub-agent made it, over ACP
// (`_meta.claudeCode.parentToolUseId`) and from Claude Code's own log with its sub-agent files, so
// the two read the same run the same way. fixtures/subagent/ is one session in both forms,
// written in the shapes of the real claude-agent-acp 0.23.1 / Claude Code 2.1.83 run beside it (no
// recorded run with a sub-agent is in the samples; see fixtures/README.md).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fleetRows } from '../analysis/fleet';
import { sessionSummaries, sessionTree } from '../analysis/insights';
import { ingest, summarize, type Session } from '../model';
import { readSessionFile } from './files';
import { main as diff } from './diff';
import { main as exportMain } from './export';
import { main as summarizeMain } from './summarize';

const NATIVE = join(import.meta.dirname, '../../fixtures/native');
const DIR = join(import.meta.dirname, '../../fixtures/subagent');
const SESSION = '7d3f2a10-5b6c-4e8d-9f01-2a3b4c5d6e7f';
const LOG = join(DIR, `${SESSION}.jsonl`);
const SUBAGENT = join(DIR, SESSION, 'subagents', 'agent-a5f1c2d3e4b5a6978.jsonl');
const CAPTURE = join(DIR, 'claude-agent-acp_subagent.acp.jsonl');

const parents = (session: Session) => Object.fromEntries(summarize(session).calls.map((call) => [call.id, call.parent]));
const joined = (...paths: string[]) => new Uint8Array(Buffer.concat(paths.flatMap((path) => [readFileSync(path), Buffer.from('\n')])));
const lines = (...values: unknown[]) => new TextEncoder().encode(values.map((value) => JSON.stringify(value)).join('\n') + '\n');

const EXPECTED = { toolu_fake_01_2: null, toolu_fake_s1_1: 'toolu_fake_01_2', toolu_fake_s2_2: 'toolu_fake_01_2', toolu_fake_02_3: null };

describe('a Claude session with a sub-agent', () => {
  test('over ACP, each sub-agent call names its Agent call (_meta.claudeCode.parentToolUseId)', async () => {
    expect(parents(await ingest(readFileSync(CAPTURE), { detail: 'light' }))).toEqual(EXPECTED);
  });

  test('from the log with its sub-agent file, the same parents, whichever file is read first', async () => {
    expect(parents(await ingest(joined(LOG, SUBAGENT)))).toEqual(EXPECTED);
    expect(parents(await ingest(joined(SUBAGENT, LOG), { detail: 'light' }))).toEqual(EXPECTED);
  });

  test('loupe summarize reads the session file with its sub-agent files', async () => {
    const read = await readSessionFile(LOG);
    if (!read.ok) throw new Error(read.error);
    expect(parents(read.value)).toEqual(EXPECTED);
    // The sub-agent is a session of its own, and its failing cat keeps its exit code.
    expect(summarize(read.value).calls.find((call) => call.id === 'toolu_fake_s2_2')).toMatchObject({ session: 'a5f1c2d3e4b5a6978', status: 'failed', exitCode: 1 });
  });

  test('loupe diff of the ACP capture and the log (with its sub-agent) agrees throughout: exit 0', async () => {
    let out = '';
    const code = await diff([CAPTURE, LOG, '--json'], { out: (text) => (out += text), err: () => undefined });
    expect(code).toBe(0);
    const json = JSON.parse(out) as { counts: { same: number; onlyA: number; onlyB: number }; pairs: { a: string }[] };
    expect(json.counts).toMatchObject({ same: 4, onlyA: 0, onlyB: 0 });
    // A sub-agent's calls follow the call that started it, in both.
    expect(json.pairs.map((pair) => pair.a)).toEqual(['toolu_fake_01_2', 'toolu_fake_s1_1', 'toolu_fake_s2_2', 'toolu_fake_02_3']);
  });

  test('the Sessions view\'s tree hangs the sub-agent under the session, via its Agent call, read light too', async () => {
    const session = await ingest(joined(LOG, SUBAGENT), { detail: 'light' });
    const { roots } = sessionTree(sessionSummaries(session.sessionIds, session.items, session.calls, session.ended), session.items, session.calls);
    expect(roots.map((node) => [node.summary.sessionId, node.children.map((child) => [child.summary.sessionId, child.viaCall?.id, child.summary.calls, child.summary.failed])])).toEqual([
      [SESSION, [['a5f1c2d3e4b5a6978', 'toolu_fake_01_2', 2, 1]]],
    ]);
  });

  test('loupe export writes the session with its sub-agent file: the jsonl holds both files\' lines, the Markdown the sub-agent\'s failing cat', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'loupe-subagent-')), 'out');
    try {
      const io = { out: () => undefined, err: () => undefined };
      expect(await exportMain([LOG, '--format', 'jsonl', '--out', `${out}.jsonl`], io)).toBe(0);
      const exported = readFileSync(`${out}.jsonl`, 'utf8').split('\n').filter((line) => line.trim() !== '');
      expect(exported).toHaveLength(11 + 6);
      expect(parents(await ingest(readFileSync(`${out}.jsonl`)))).toEqual(EXPECTED);
      expect(await exportMain([LOG, '--format', 'md', '--out', `${out}.md`], io)).toBe(0);
      expect(readFileSync(`${out}.md`, 'utf8')).toContain('cat missing-file.txt');
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });

  test('calls.parquet rows carry parent_call_id', async () => {
    const session = await ingest(joined(LOG, SUBAGENT), { detail: 'light' });
    const { calls } = fleetRows(session, { file: 'f', bytes: 0, modifiedMs: 0, headFormat: 'claude-code', project: null, startedMs: null, sessionId: null, title: null });
    expect(Object.fromEntries(calls.map((call) => [call.call_id, call.parent_call_id]))).toEqual(EXPECTED);
  });
});

test('the real runs have no sub-agent: every call parent null, over ACP and from the logs', async () => {
  for (const name of ['claude-agent-acp.acp.jsonl', 'claude-code-2.1.83_via-claude-agent-acp.jsonl', 'claude-code-acp.acp.jsonl', 'codex-0.137.0_rollout.jsonl']) {
    const calls = summarize(await ingest(readFileSync(join(NATIVE, name)))).calls;
    expect(calls.length).toBeGreaterThan(8);
    // Claude's PostToolUse hook progress entries name a parentToolUseID but no agent.
    expect(calls.every((call) => call.parent === null)).toBe(true);
  }
});

test('a Codex sub-agent rollout: its calls have as parent the spawn_agent call whose output names its thread', async () => {
  const session = await ingest(lines(
    { timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 't1', source: 'cli' } },
    { timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'function_call', name: 'spawn_agent', arguments: '{"message":"look"}', call_id: 'c-spawn' } },
    { timestamp: '2026-01-01T00:00:02Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c-spawn', output: '{"agent_id":"t2","nickname":"Ada"}' } },
    { timestamp: '2026-01-01T00:00:03Z', type: 'session_meta', payload: { id: 't2', source: { subagent: { thread_spawn: { parent_thread_id: 't1', depth: 1 } } } } },
    { timestamp: '2026-01-01T00:00:04Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'c-ls' } },
    { timestamp: '2026-01-01T00:00:05Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c-ls', output: 'Process exited with code 0\nOutput:\na\n' } },
  ));
  expect(parents(session)).toEqual({ 'c-spawn': null, 'c-ls': 'c-spawn' });
});

test('an ACP subagent update naming its child session and the spawning call makes that call the parent of the child\'s calls', async () => {
  const update = (sessionId: string, body: object) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: body } });
  const session = await ingest(lines(
    update('p', { sessionUpdate: 'tool_call', toolCallId: 'spawn', title: 'Task', kind: 'think', status: 'pending' }),
    update('p', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Explorer', _meta: { claudeCode: { parentToolUseId: 'spawn' } } }),
    update('child', { sessionUpdate: 'tool_call', toolCallId: 'read', title: 'Read a.txt', kind: 'read', status: 'completed' }),
  ));
  expect(parents(session)).toEqual({ spawn: null, read: 'spawn' });
});

// A recorded run (fixtures/subagent/claude-code-2.1.83_three-subagents/, scripts/record/claude-subagents.sh):
// Claude Code 2.1.83 through claude-agent-acp 0.23.1, three turns, sub-agents A and B at once in
// the first, C in the second. The fake model's ids say who made each call (`toolu_subA_…` by the
// sub-agent whose prompt holds `SUBTASK-A`), so the right parent is read off the Agent calls' own
// input, not off what Loupe linked.
describe('a recorded Claude Code run with three sub-agents', () => {
  const RECORDED = join(DIR, 'claude-code-2.1.83_three-subagents');
  const RUN = '869c696e-f778-4f73-81d7-92fbc13f60b4';
  const RUN_LOG = join(RECORDED, `${RUN}.jsonl`);
  const RUN_CAPTURE = join(RECORDED, 'claude-agent-acp-0.23.1.acp.jsonl');
  const io = () => {
    const out: string[] = [];
    return { out, io: { out: (text: string) => void out.push(text), err: () => undefined } };
  };
  const summaryJson = async (path: string) => {
    const { out, io: cliIo } = io();
    expect(await summarizeMain(['summarize', path, '--json'], cliIo)).toBe(0);
    return JSON.parse(out.join('')) as { calls: { id: string; parent: string | null; session: string | null; status: string; exitCode: number | null }[] };
  };
  /** Each call's right parent: the Agent call whose prompt names the sub-agent its id names. */
  const rightParents = (calls: readonly { id: string; label: string; rawInput?: unknown }[]) => {
    const agentCallOf = new Map<string, string>();
    for (const call of calls) {
      const prompt = call.label === 'Subagent' && typeof call.rawInput === 'object' && call.rawInput !== null && 'prompt' in call.rawInput ? String(call.rawInput.prompt) : '';
      const who = /^SUBTASK-([A-Z]):/.exec(prompt)?.[1];
      if (who !== undefined) agentCallOf.set(who, call.id);
    }
    return Object.fromEntries(calls.map((call) => [call.id, agentCallOf.get(/^toolu_sub([A-Z])_/.exec(call.id)?.[1] ?? '') ?? null]));
  };

  test('every call\'s parent is right over ACP and from the log with its sub-agent files (19/19 each)', async () => {
    const capture = await ingest(readFileSync(RUN_CAPTURE));
    const expected = rightParents([...capture.calls.values()]);
    expect(Object.keys(expected)).toHaveLength(19);
    expect(Object.values(expected).filter((parent) => parent !== null)).toHaveLength(9);
    expect(new Set(Object.values(expected)).size).toBe(4); // null and three Agent calls
    expect(parents(capture)).toEqual(expected);
    const read = await readSessionFile(RUN_LOG);
    if (!read.ok) throw new Error(read.error);
    expect(parents(read.value)).toEqual(expected);
    // The log read whole (not light) gives the Agent calls' input too: the same right parents.
    const whole = await ingest(joined(RUN_LOG, ...['aab1cfe8219976e47', 'abfb5d1c99197dbd5', 'ae39ff0bfb83acdd9'].map((agent) => join(RECORDED, RUN, 'subagents', `agent-${agent}.jsonl`))));
    expect(rightParents([...whole.calls.values()])).toEqual(expected);
  });

  test('loupe summarize --json gives the same parents, sessions and exit codes for the capture and the log', async () => {
    const fromCapture = await summaryJson(RUN_CAPTURE);
    const fromLog = await summaryJson(RUN_LOG);
    const byId = (calls: typeof fromLog.calls) => Object.fromEntries(calls.map((call) => [call.id, { parent: call.parent, status: call.status, exitCode: call.exitCode }]));
    expect(byId(fromLog.calls)).toEqual(byId(fromCapture.calls));
    // The sub-agent's failing build (exit 1) and the main loop's failing cat, both ways.
    expect(byId(fromLog.calls).toolu_subC_1_1).toEqual({ parent: 'toolu_main2_1_1', status: 'failed', exitCode: 1 });
    // From the log each sub-agent is a session of its own: four sessions, three under Agent calls.
    expect(new Set(fromLog.calls.map((call) => call.session)).size).toBe(4);
  });

  test('the main log alone shows each running sub-agent\'s calls under its Agent call (its progress entries), and with the files nothing twice', async () => {
    const logLines = readFileSync(RUN_LOG, 'utf8').split('\n').filter((line) => line !== '');
    // Cut where the second turn's sub-agent C has made its first call and not yet finished: C's file is not there.
    const cut = logLines.findIndex((line) => line.includes('"agent_progress"') && line.includes('"toolu_subC_0_1"'));
    expect(cut).toBeGreaterThan(0);
    const live = summarize(await ingest(new TextEncoder().encode(logLines.slice(0, cut + 1).join('\n') + '\n'), { detail: 'light' }));
    expect(live.calls.filter((call) => call.parent === 'toolu_main2_1_1').map((call) => [call.id, call.status])).toEqual([['toolu_subC_0_1', 'unfinished']]);
    expect(live.calls.find((call) => call.id === 'toolu_main2_1_1')?.status).toBe('unfinished');

    const subagentFiles = ['aab1cfe8219976e47', 'abfb5d1c99197dbd5', 'ae39ff0bfb83acdd9'].map((agent) => join(RECORDED, RUN, 'subagents', `agent-${agent}.jsonl`));
    const alone = await ingest(readFileSync(RUN_LOG), { detail: 'light' });
    const withFiles = await ingest(joined(RUN_LOG, ...subagentFiles), { detail: 'light' });
    const filesFirst = await ingest(joined(...subagentFiles, RUN_LOG), { detail: 'light' });
    expect(parents(alone)).toEqual(parents(withFiles));
    expect(parents(filesFirst)).toEqual(parents(withFiles));
    expect(withFiles.calls.size).toBe(19);
    // Each sub-agent message once: its prompt is one message however many copies were read.
    const prompts = (session: Session) => session.items.filter((item) => item.type === 'message' && item.text.startsWith('SUBTASK-')).length;
    expect([prompts(alone), prompts(withFiles), prompts(filesFirst)]).toEqual([3, 3, 3]);
    // The sub-agents' usage is their files' (the progress copies say none): once per response, whichever file is read first.
    const outputTokens = (session: Session) => session.items.reduce((sum, item) => sum + (item.type === 'usage' ? item.usage.outputTokens ?? 0 : 0), 0);
    expect(outputTokens(withFiles)).toBe(outputTokens(filesFirst));
    expect(outputTokens(withFiles) - outputTokens(alone)).toBe(3 * 4 * 20); // three sub-agents, four responses each, 20 tokens each
  });

  test('loupe diff of the capture and the log (with its sub-agent files) agrees throughout: exit 0', async () => {
    const { out, io: cliIo } = io();
    expect(await diff([RUN_CAPTURE, RUN_LOG, '--json'], cliIo)).toBe(0);
    expect((JSON.parse(out.join('')) as { counts: unknown }).counts).toMatchObject({ same: 19, onlyA: 0, onlyB: 0 });
  });
});

// A recorded Codex run (fixtures/subagent/codex-0.137.0_two-subagents/, scripts/record/codex-subagents.sh):
// the main thread spawns helper A (no history) and helper B (forked: its rollout copies the main
// thread's history) with multi-agent v2, whose `spawn_agent` output names the thread's path
// (`/root/helper_a`), not its id. Each call's id says who made it (`call_subA_…`).
describe('a recorded Codex run with two sub-agents, one of them forked', () => {
  const CODEX = join(DIR, 'codex-0.137.0_two-subagents');
  const MAIN = join(CODEX, 'rollout-2026-12-02T06-48-56-01a23583-712c-7681-8c6c-a10be2f97afa.jsonl');
  const HELPER_A = join(CODEX, 'rollout-2026-12-02T06-48-56-01a23583-7365-7553-93f3-7359b1167020.jsonl');
  const HELPER_B = join(CODEX, 'rollout-2026-12-02T06-48-56-01a23583-7383-7832-9db0-3e8f1abff15b.jsonl');
  /** Each call's right parent: the spawn_agent call whose message names the sub-agent its id names. */
  const rightParents = (session: Session) => {
    const spawnOf = new Map<string, string>();
    for (const call of session.calls.values()) {
      const message = typeof call.rawInput === 'object' && call.rawInput !== null && 'message' in call.rawInput ? String(call.rawInput.message) : '';
      const who = /^SUBTASK-([A-Z]):/.exec(message)?.[1];
      if (who !== undefined) spawnOf.set(who, call.id);
    }
    return Object.fromEntries([...session.calls.values()].map((call) => [call.id, spawnOf.get(/^call_sub([A-Z])_/.exec(call.id)?.[1] ?? '') ?? null]));
  };

  test('read together, every call has its spawn_agent call as parent (joined by the thread\'s path), whichever rollout comes first', async () => {
    const together = await ingest(joined(MAIN, HELPER_A, HELPER_B));
    const expected = rightParents(together);
    expect(Object.values(expected).filter((parent) => parent !== null)).toHaveLength(3);
    expect(new Set(Object.values(expected)).size).toBe(3);
    expect(parents(together)).toEqual(expected);
    expect(parents(await ingest(joined(HELPER_B, HELPER_A, MAIN), { detail: 'light' }))).toEqual(expected);
    const spawns = summarize(together).calls.filter((call) => call.id.startsWith('call_fake_1_'));
    expect(spawns.map((call) => call.label)).toEqual(['Subagent', 'Subagent']);
    // Each helper is its session: the forked one's call is not the main thread's.
    const sessionOf = Object.fromEntries(summarize(together).calls.map((call) => [call.id, call.session]));
    expect(new Set([sessionOf.call_fake_0_1, sessionOf.call_subA_0_4, sessionOf.call_subB_0_6]).size).toBe(3);
    expect(summarize(together).calls.find((call) => call.id === 'call_subA_1_7')).toMatchObject({ status: 'failed', exitCode: 1 });
  });

  test('loupe summarize of the main rollout reads the rollouts beside it of the threads it spawned; a helper\'s rollout is read alone', async () => {
    const read = await readSessionFile(MAIN);
    if (!read.ok) throw new Error(read.error);
    const expected = rightParents(await ingest(joined(MAIN, HELPER_A, HELPER_B)));
    expect(parents(read.value)).toEqual(expected);
    const helper = await readSessionFile(HELPER_A);
    if (!helper.ok) throw new Error(helper.error);
    expect(Object.keys(parents(helper.value))).toEqual(['call_subA_0_4', 'call_subA_1_7']);
  });

  test('the forked helper\'s copy of the main thread\'s history is counted, not folded: no prompt, usage or session of the main thread in it', async () => {
    const fork = await ingest(readFileSync(HELPER_B));
    const main = await ingest(readFileSync(MAIN));
    const prompt = 'Count and list the TODOs in notes.txt with two helpers.';
    const prompts = (session: Session) => session.items.filter((item) => item.type === 'message' && item.role === 'user' && item.text === prompt).length;
    const usages = (session: Session) => session.items.filter((item) => item.type === 'usage').length;
    expect(prompts(main)).toBe(1);
    expect(prompts(fork)).toBe(0);
    // Its own two responses (the copy holds the main thread's first token_count too).
    expect(usages(fork)).toBe(2);
    expect(fork.sessionIds).toEqual(['01a23583-7383-7832-9db0-3e8f1abff15b']);
    expect([...fork.calls.values()].map((call) => call.id)).toEqual(['call_subB_0_6']);
    // Every line still counted, the copied ones in one quiet row.
    expect(summarize(fork).counts).toMatchObject({ lines: 22, events: 22, unknown: 0, bad: 0 });
    const all = await ingest(joined(MAIN, HELPER_A, HELPER_B));
    expect(prompts(all)).toBe(1);
    expect(usages(all)).toBe(usages(main) + usages(await ingest(readFileSync(HELPER_A))) + 2);
  });
});
