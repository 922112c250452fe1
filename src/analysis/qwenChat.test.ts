// Qwen Code's own chat log (ingest/formats/qwenCode.ts, docs/harnesses/qwen-code.md): the real 0.24.4
// recordings in fixtures/native/ (made by scripts/record/qwen-code.sh against its scripted model),
// read as what the run really did; and the held-out run in fixtures/held-out/, which the adapter was
// not written from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { classify } from '../ingest/classify';
import { displayStatus, ingest, type Session } from '../model/index';
import { sessionSummaries, sessionTree } from './insights';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const CHAT = 'native/qwen-code-0.24.4_chat.jsonl';
const SUBAGENT = 'native/qwen-code-0.24.4_subagent.jsonl';
const HELD_OUT = 'held-out/qwen-code-0.24.4_chat.jsonl';

async function load(...paths: string[]): Promise<Session> {
  const text = paths.map((path) => readFileSync(join(FIXTURES, path), 'utf8')).join('\n');
  return ingest(new TextEncoder().encode(text), { chunkSize: 4096 });
}

const calls = (session: Session) => [...session.calls.values()].map((call) => [call.id, call.label, call.subject, displayStatus(call, session.ended)]);
const messages = (session: Session) => session.items.flatMap((item) => (item.type === 'message' ? [`${item.role}: ${item.text}`] : []));
const usage = (session: Session) => {
  const items = session.items.flatMap((item) => (item.type === 'usage' ? [item.usage] : []));
  return { items: items.length, input: items.reduce((sum, u) => sum + (u.inputTokens ?? 0), 0), output: items.reduce((sum, u) => sum + (u.outputTokens ?? 0), 0) };
};

describe('Qwen Code 0.24.4 chat log (real recording)', () => {
  test("is read as Qwen Code's, not Claude Code's: every line an event, one session", async () => {
    const session = await load(CHAT);
    expect(session.format).toBe('qwen-code');
    expect(session.counts).toEqual({ lines: 50, events: 50, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual(['2258bfa4-6581-425d-931a-ea0485616774']);
  });

  test('the ten calls the scripted model asked for, labelled and named; the refused read and the failing cat failed', async () => {
    const ws = '/tmp/qwen-rec.b3fWmL/ws';
    expect(calls(await load(CHAT))).toEqual([
      ['call_fake_0_1', 'Read', `${ws}/notes.txt`, 'done'],
      ['call_fake_1_2', 'List Files', ws, 'done'],
      // `File not found: …` (errorType file_not_found): toolCallResult.status `error`.
      ['call_fake_2_3', 'Read', `${ws}/missing.txt`, 'failed'],
      // grep_search {pattern, path}: §6 tries `path` before `pattern`.
      ['call_fake_3_4', 'Search', ws, 'done'],
      ['call_fake_4_5', 'Edit', `${ws}/notes.txt`, 'done'],
      ['call_fake_5_6', 'Write', `${ws}/out/result.txt`, 'done'],
      // Exit Code: 1.
      ['call_fake_6_7', 'Run Command', 'cat missing-file.txt', 'failed'],
      ['call_fake_6_8', 'Run Command', 'echo hi && wc -l notes.txt', 'done'],
      ['call_fake_7_9', 'List Files', '**/*.txt', 'done'],
      // The `agent` tool, named by its description; it ran in the background and said so.
      ['call_fake_8_10', 'Subagent', 'Count TODOs', 'done'],
    ]);
  });

  test("a result's text is the tool's response; its raw output Qwen Code's resultDisplay", async () => {
    const session = await load(CHAT);
    const cat = session.calls.get([...session.calls.keys()][6]!)!;
    const text = cat.content?.[0];
    expect(text?.type === 'content' && text.content.type === 'text' ? text.content.text : '').toContain('Exit Code: 1');
    expect(cat.rawOutput).toMatchObject({ type: 'shell_result', exitCode: 1, outcome: 'failed' });
    expect(cat.history.map((entry) => entry.source)).toEqual(['tool_call', 'tool_call_update']);
  });

  test("messages: the prompt and the model's texts; the task notification Qwen Code wrote as a user record is not the person's", async () => {
    const final = 'Done: read notes.txt, listed the folder, failed to read missing.txt, searched for TODO, edited notes.txt, wrote out/result.txt, a failing cat and a passing echo, globbed *.txt, and asked a sub-agent to count TODOs.';
    const session = await load(CHAT);
    expect(messages(session)).toEqual([
      'user: Tidy my notes: read notes.txt, look around, fix the greeting, write out/result.txt, try a couple of commands and have a helper count the TODOs.',
      'agent: Reading the notes first.',
      'agent: Two commands: one fails, one succeeds.',
      `agent: ${final}`,
      // The model answered again after the sub-agent's notification: the same text, a new response.
      `agent: ${final}`,
    ]);
    const notification = session.items.find((item) => item.type === 'event' && item.name === 'user/notification');
    expect(notification?.type === 'event' && notification.summary).toMatch(/^<task-notification>/);
  });

  test('usage: one per assistant record (each a model response; the telemetry lines repeating it are not counted)', async () => {
    // 11 responses from the scripted server: 9 steps and 2 final answers; completion 20 tokens each.
    expect(usage(await load(CHAT))).toEqual({ items: 11, input: 114501, output: 220 });
  });

  test('system records are events named by their subtype, telemetry summarised by event and tool', async () => {
    const session = await load(CHAT);
    const names = session.items.flatMap((item) => (item.type === 'event' ? [item.name] : []));
    expect(new Set(names)).toEqual(new Set(['system/attribution_snapshot', 'system/ui_telemetry', 'user/notification']));
    const telemetry = session.items.find((item) => item.type === 'event' && item.summary?.includes('call_fake_6_7'));
    expect(telemetry?.type === 'event' && telemetry.summary).toBe('qwen-code.tool_call run_shell_command call_fake_6_7 error');
  });

  test("the sub-agent's file: its own session (the agentId), its read done, its usage; read with its chat, two sessions", async () => {
    const sub = await load(SUBAGENT);
    expect(sub.format).toBe('qwen-code');
    expect(sub.sessionIds).toEqual(['general-purpose-call_fake_8_10']);
    // Its tool_result says only {callId, durationMs}: the response (`output`, not `error`) says it succeeded.
    expect(calls(sub)).toEqual([['call_sub_0_11', 'Read', '/tmp/qwen-rec.b3fWmL/ws/notes.txt', 'done']]);
    expect(usage(sub)).toEqual({ items: 2, input: 7303, output: 40 });
    expect(messages(sub)).toEqual(['user: SUBAGENT-TASK: count the TODO lines in notes.txt and report the number.', 'agent: There are 2 TODO lines in notes.txt.']);
    const both = await load(CHAT, SUBAGENT);
    expect(both.sessionIds).toEqual(['2258bfa4-6581-425d-931a-ea0485616774', 'general-purpose-call_fake_8_10']);
    expect(both.calls.size).toBe(11);
    // The agent call's result names the sub-agent as Qwen Code does (`<subagentName>-<callId>`): it is the call's child.
    const { roots } = sessionTree(sessionSummaries(both.sessionIds, both.items, both.calls, both.ended), both.items, both.calls);
    expect(roots.map((node) => [node.summary.sessionId, node.children.map((child) => [child.summary.sessionId, child.viaCall?.id])])).toEqual([
      ['2258bfa4-6581-425d-931a-ea0485616774', [['general-purpose-call_fake_8_10', 'call_fake_8_10']]],
    ]);
  });

  test("told from Claude Code's entries line by line: a Claude entry stays Claude's", () => {
    const loc = { line: 1, offset: 0, length: 0 };
    const claude = { type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: 'hi' } };
    expect(classify(claude, JSON.stringify(claude), loc).shape).toBe('claude-code');
    // A sub-agent's record has no `provenance`: its `parts` say whose it is.
    const qwen = { type: 'user', sessionId: 's', uuid: 'u', isSidechain: true, agentId: 'a', message: { role: 'user', parts: [{ text: 'hi' }] } };
    expect(classify(qwen, JSON.stringify(qwen), loc).shape).toBe('qwen-code');
    const system = { type: 'system', subtype: 'custom_title', sessionId: 's', uuid: 'v', systemPayload: { title: 'Notes' } };
    const read = classify(system, JSON.stringify(system), loc);
    expect(read.shape).toBe('qwen-code');
    expect(read.body).toMatchObject({ kind: 'native', name: 'system/custom_title', summary: 'Notes' });
  });
});

describe('held-out Qwen Code 0.24.4 run (not used to write the adapter)', () => {
  test("reads as what the scripted model asked for and Qwen Code did", async () => {
    const ws = '/tmp/qwen-rec.oAZZu5/ws';
    const session = await load(HELD_OUT);
    expect(session.format).toBe('qwen-code');
    expect(session.counts).toEqual({ lines: 38, events: 38, unknown: 0, bad: 0 });
    expect(calls(session)).toEqual([
      ['call_fake_0_1', 'List Files', `${ws}/src`, 'done'],
      // `absolute_path` is not read_file's parameter: refused before it ran (invalid_tool_params).
      ['call_fake_1_2', 'Read', `${ws}/src/app.js`, 'failed'],
      ['call_fake_2_3', 'Read', `${ws}/src/app.js`, 'done'],
      ['call_fake_3_4', 'Run Command', 'node --check src/app.js && echo syntax-ok', 'done'],
      ['call_fake_4_5', 'Edit', `${ws}/src/app.js`, 'done'],
      // Exit code 2.
      ['call_fake_5_6', 'Run Command', 'ls does-not-exist', 'failed'],
      ['call_fake_6_7', 'Write', `${ws}/CHANGELOG.md`, 'done'],
      ['call_fake_7_8', 'Search', ws, 'done'],
    ]);
    // 8 steps and the final answer.
    expect(usage(session)).toEqual({ items: 9, input: 91676, output: 180 });
    expect(messages(session)).toEqual([
      'user: Make the app say hello instead of hi, note it in a changelog, and check nothing else still says hi.',
      'agent: Let me look at the app.',
      'agent: Done: listed src, read app.js (the second time), checked its syntax, edited it, failed to list a missing folder, wrote CHANGELOG.md and searched for hello.',
    ]);
  });
});
