// Cline's own sessions (ingest/formats/cline.ts, docs/harnesses/cline.md): the real 3.0.65
// recordings in fixtures/native/ (made by scripts/record/cline.sh against its scripted model), read
// as what the run really did: the main session with its sub-agent's file after it (as every command
// reads a session with its sub-agents), and the held-out run, which the adapter was not written from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { displayStatus, ingest, summarize, type Session } from '../model/index';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const MAIN = 'native/cline-3.0.65_tidy-notes.messages.json';
const SUBAGENT = 'native/cline-3.0.65_tidy-notes_subagent.messages.json';
const HELD_OUT = 'native/cline-3.0.65_held-out.messages.json';
const WS = '/tmp/cline-rec/out/main/ws';

async function load(...texts: string[]): Promise<Session> {
  return ingest(new TextEncoder().encode(texts.join('\n')), { chunkSize: 4096 });
}
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

const calls = (session: Session) => [...session.calls.values()].map((call) => [call.id, call.label, call.subject, displayStatus(call, session.ended)]);
const messages = (session: Session) => session.items.flatMap((item) => (item.type === 'message' ? [`${item.role}: ${item.text}`] : []));

describe('Cline 3.0.65 session (real recording)', () => {
  test("is read as Cline's: every record an event, the session and its sub-agent's", async () => {
    const session = await load(fixture(MAIN), fixture(SUBAGENT));
    expect(session.format).toBe('cline');
    // Main: its head, 17 messages, the head again with the system prompt; the sub-agent: its head and 4 messages.
    expect(session.counts).toEqual({ lines: 24, events: 24, unknown: 0, bad: 0 });
    expect(session.diagnostics.bad).toEqual([]);
    expect(session.sessionIds).toEqual(['1796192429067_g2n1j', '1796192429067_g2n1j__agent_1796192430520_zqzsx4']);
  });

  test('the calls the scripted model asked for, labelled and named as CONTRACTS §5–§6 say; the missing read and the failing cat failed', async () => {
    expect(calls(await load(fixture(MAIN), fixture(SUBAGENT)))).toEqual([
      // read_files {files: [{path}]}: named by its files' paths.
      ['call_main_0_1', 'Read', `${WS}/notes.txt`, 'done'],
      // `success: false`, ENOENT.
      ['call_main_1_2', 'Read', `${WS}/missing.txt`, 'failed'],
      ['call_main_2_3', 'Search', 'TODO', 'done'],
      ['call_main_3_4', 'Edit', `${WS}/notes.txt`, 'done'],
      // editor without old_text creates the file: still Cline's editor, an Edit.
      ['call_main_4_5', 'Edit', `${WS}/out/result.txt`, 'done'],
      ['call_main_5_6', 'Run Command', 'cat missing-file.txt', 'failed'],
      ['call_main_5_7', 'Run Command', 'ls && echo hi && wc -l notes.txt', 'done'],
      // spawn_agent {systemPrompt, task}: named by its task.
      ['call_main_6_8', 'Subagent', '[sub-agent] Count the TODO lines in notes.txt.', 'done'],
      ['call_sub_0_9', 'Read', `${WS}/notes.txt`, 'done'],
    ]);
  });

  test("exit codes as Cline wrote them, and the sub-agent's call under the spawn_agent call whose task started it", async () => {
    const summary = summarize(await load(fixture(MAIN), fixture(SUBAGENT)));
    const byId = new Map(summary.calls.map((call) => [call.id, call]));
    expect(byId.get('call_main_5_6')?.exitCode).toBe(1);
    // A command that succeeded: Cline writes no exit code for it.
    expect(byId.get('call_main_5_7')?.exitCode).toBeNull();
    expect(byId.get('call_sub_0_9')?.parent).toBe('call_main_6_8');
    expect(byId.get('call_sub_0_9')?.session).toBe('1796192429067_g2n1j__agent_1796192430520_zqzsx4');
    expect(summary.calls.filter((call) => call.parent !== null).map((call) => call.id)).toEqual(['call_sub_0_9']);
  });

  test("a result's text is what the tool said; its raw output Cline's own result", async () => {
    const session = await load(fixture(MAIN));
    const cat = [...session.calls.values()].find((call) => call.id === 'call_main_5_6')!;
    const text = cat.content?.[0];
    expect(text?.type === 'content' && text.content.type === 'text' ? text.content.text : '').toContain('cat: missing-file.txt: No such file or directory');
    expect(cat.rawOutput).toEqual([expect.objectContaining({ query: 'cat missing-file.txt', error: 'Command exited with code 1', success: false })]);
    // The ACP kind Cline's own ACP mode gives run_commands.
    expect(cat.kind).toBe('execute');
    expect(cat.history.map((entry) => entry.source)).toEqual(['tool_call', 'tool_call_update']);
  });

  test("messages: the prompt, the model's thought and texts, and the sub-agent's task and answer", async () => {
    const session = await load(fixture(MAIN), fixture(SUBAGENT));
    expect(messages(session)).toEqual([
      'user: <user_input mode="act">Please tidy up notes.txt and report on the workspace.</user_input>',
      'thought: Read the notes before changing them.',
      'agent: Reading the notes first.',
      'agent: Two commands: one fails, one succeeds.',
      'agent: Done: read notes.txt, failed to read missing.txt, searched for TODO, fixed the greeting, wrote out/result.txt, a failing cat and a passing ls, and asked a sub-agent to count the TODOs.',
      'user: [sub-agent] Count the TODO lines in notes.txt.',
      'agent: Reading notes.txt.',
      'agent: There are 2 TODO lines in notes.txt.',
    ]);
    const prompt = session.items.find((item) => item.type === 'event' && item.name === 'system_prompt');
    expect(prompt?.type === 'event' && prompt.summary).toMatch(/^You are Cline, an AI coding agent/);
  });

  test('usage once per response: 8 of the session and 2 of its sub-agent, 100 in and 20 out each, as Cline counted them', async () => {
    const session = await load(fixture(MAIN), fixture(SUBAGENT));
    const usage = session.items.flatMap((item) => (item.type === 'usage' ? [item] : []));
    expect(usage.map((item) => item.sessionId)).toEqual([...Array<string>(8).fill('1796192429067_g2n1j'), ...Array<string>(2).fill('1796192429067_g2n1j__agent_1796192430520_zqzsx4')]);
    expect(usage.every((item) => item.usage.inputTokens === 100 && item.usage.outputTokens === 20 && item.usage.cachedReadTokens === 0)).toBe(true);
  });

  test('a message of a role never seen, an error Cline only shows, and a newer release: named events, and the release said', async () => {
    const head = JSON.stringify({ version: 1, sessionId: 's1', origin: { source: 'cli', mode: 'user', version: '3.9.0' }, messages: [] });
    const shown = JSON.stringify({ id: 'e1', role: 'assistant', content: [{ type: 'text', text: 'Model returned empty response' }], ts: 1, metadata: { displayOnly: true, displayRole: 'error' } });
    const odd = JSON.stringify({ id: 'o1', role: 'narrator', content: [{ type: 'text', text: 'meanwhile' }], ts: 2 });
    const session = await load(head, shown, odd);
    expect(session.counts).toEqual({ lines: 3, events: 3, unknown: 0, bad: 0 });
    const events = session.items.flatMap((item) => (item.type === 'event' ? [`${item.name}: ${item.summary ?? ''}`] : []));
    expect(events).toEqual(['session: user, 3.9.0', 'assistant/error: Model returned empty response', 'narrator: meanwhile']);
    expect(messages(session)).toEqual([]);
    expect(session.diagnostics.warnings.map((warning) => warning.message).join('\n')).toMatch(/Cline 3\.9\.0.*3\.0\.65/);
  });
});

describe('Cline 3.0.65 held-out run (not written from)', () => {
  test('several commands, files and queries in one call; a failed edit and a failing ls', async () => {
    const session = await load(fixture(HELD_OUT));
    const ws = '/tmp/cline-rec/out/heldout/ws';
    expect(session.counts).toMatchObject({ unknown: 0, bad: 0 });
    expect(calls(session)).toEqual([
      // Three commands, the last exiting 2: the call failed with that code.
      ['call_heldout_0_1', 'Run Command', 'ls src node --check src/app.js && echo syntax-ok ls does-not-exist', 'failed'],
      ['call_heldout_1_2', 'Read', `${ws}/src/app.js ${ws}/README.md`, 'done'],
      ['call_heldout_2_3', 'Edit', `${ws}/src/app.js`, 'done'],
      // `No replacement performed: text not found`.
      ['call_heldout_3_4', 'Edit', `${ws}/src/app.js`, 'failed'],
      ['call_heldout_4_5', 'Edit', `${ws}/CHANGELOG.md`, 'done'],
      ['call_heldout_5_6', 'Search', 'hello TODO', 'done'],
    ]);
    expect(summarize(session).calls[0]?.exitCode).toBe(2);
  });
});
