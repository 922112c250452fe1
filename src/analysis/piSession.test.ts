// Pi's own session files (ingest/formats/pi.ts, docs/harnesses/pi.md): the real 0.73.1 recording in
// fixtures/native/ (scripts/record/pi), read as what the run did.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { classify } from '../ingest/classify';
import type { JsonObject } from '../ingest/schemas';
import { reportedExitCode } from '../model/inputs';
import { displayStatus, ingest, type Session } from '../model/index';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const RUN = 'native/pi-0.73.1_two-turns-and-a-branch.jsonl';

async function load(path: string, chunkSize = 4096): Promise<Session> {
  return ingest(readFileSync(join(FIXTURES, path)), { chunkSize });
}

const calls = (session: Session) => [...session.calls.values()].map((call) => [call.id, call.label, call.subject, displayStatus(call, session.ended)]);
const messages = (session: Session) => session.items.flatMap((item) => (item.type === 'message' ? [`${item.role}: ${item.text}`] : []));
const events = (session: Session) => session.items.flatMap((item) => (item.type === 'event' ? [`${item.name}: ${item.summary ?? ''}`] : []));

describe('Pi 0.73.1 session file (real recording: two turns, then a branch made as /tree makes it)', () => {
  test('is read as Pi: every line an event, one session', async () => {
    const session = await load(RUN);
    expect(session.format).toBe('pi');
    expect(session.counts).toEqual({ lines: 29, events: 29, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual(['01a234e0-1d75-7524-a9b9-879ced84ded2']);
  });

  test('the calls Pi ran, with their labels, subjects and statuses', async () => {
    expect(calls(await load(RUN, 7))).toEqual([
      ['call_pi_0_0_1', 'Read', 'notes.txt', 'done'],
      // isError, and its text ends `Command exited with code 1`.
      ['call_pi_0_1_2', 'Run Command', 'cat missing-file.txt', 'failed'],
      ['call_pi_0_2_3', 'Run Command', 'ls -la && echo done', 'done'],
      ['call_pi_0_3_4', 'List Files', '.', 'done'],
      // Debian's fdfind 8 does not know the `--no-require-git` Pi passes: a real failure of the run.
      ['call_pi_0_3_5', 'List Files', '*.js', 'failed'],
      // §6: `path` comes before `pattern`.
      ['call_pi_0_3_6', 'Search', '.', 'done'],
      ['call_pi_0_4_7', 'Edit', 'notes.txt', 'done'],
      ['call_pi_0_5_8', 'Write', 'out/result.txt', 'done'],
      // The second turn, abandoned by the branch.
      ['call_pi_1_0_9', 'Run Command', 'wc -l notes.txt out/result.txt', 'done'],
      ['call_pi_1_1_10', 'Read', 'out/result.txt', 'done'],
      // The branch's turn.
      ['call_pi_1_0_101', 'Run Command', 'head -n 1 notes.txt', 'done'],
    ]);
  });

  test('the failed command keeps its exit code; a command that succeeded says none (Pi records none)', async () => {
    const session = await load(RUN);
    expect(reportedExitCode(session.calls.get([...session.calls.keys()][1]!)!)).toBe(1);
    expect(reportedExitCode(session.calls.get([...session.calls.keys()][2]!)!)).toBeUndefined();
    const failed = [...session.calls.values()][1]!;
    const output = failed.content?.[0];
    expect(output?.type === 'content' && output.content.type === 'text' ? output.content.text : '').toContain('Command exited with code 1');
    // A call and its result: times from the entries that hold them.
    expect(failed.history.map((entry) => entry.source)).toEqual(['tool_call', 'tool_call_update']);
    expect([failed.startMs, failed.endMs]).toEqual([Date.parse('2026-12-02T03:50:32.803Z'), Date.parse('2026-12-02T03:50:32.817Z')]);
  });

  test('messages and thinking in order, the abandoned turn and the branch included', async () => {
    expect(messages(await load(RUN))).toEqual([
      'user: Please tidy up notes.txt and report on the workspace.',
      'thought: Start by reading the notes.',
      'agent: Reading the notes first.',
      'agent: Done: read notes.txt, a missing file failed to cat, listed and searched the workspace, edited notes.txt and wrote out/result.txt.',
      'user: How many lines do the two files have now?',
      'agent: notes.txt has 2 lines and out/result.txt has 2 lines.',
      'user: What is the first line of notes.txt now?',
      'agent: The first line of notes.txt is `hello, world`.',
    ]);
  });

  test('the branch: an event where the person went back, naming what was left behind', async () => {
    const session = await load(RUN);
    expect(events(session)).toEqual([
      'session: /tmp/pi-record.XGDBKc/ws',
      'model_change: fake/fake-model',
      'thinking_level_change: off',
      'branch: branch abandoned at 21baf746: 6 entries after it left behind, with 2 calls: Run Command wc -l notes.txt out/result.txt; Read out/result.txt; continued from 21baf746 by c6d4da28',
    ]);
    // Placed before the branch's first prompt.
    const at = session.items.findIndex((item) => item.type === 'event' && item.name === 'branch');
    const next = session.items[at + 1];
    expect(next?.type === 'message' ? next.text : '').toBe('What is the first line of notes.txt now?');
  });

  test("usage: one per response, with Pi's own cost", async () => {
    const usage = (await load(RUN)).items.flatMap((item) => (item.type === 'usage' ? [item.usage] : []));
    expect(usage).toHaveLength(12);
    const sum = (pick: (u: (typeof usage)[number]) => number | undefined) => usage.reduce((total, u) => total + (pick(u) ?? 0), 0);
    expect([sum((u) => u.inputTokens), sum((u) => u.outputTokens), sum((u) => u.cachedReadTokens)]).toEqual([2320, 240, 480]);
    expect(usage[0]?.cost).toEqual({ amount: 0.000552, currency: 'USD' });
    expect(sum((u) => u.cost?.amount)).toBeCloseTo(0.010704, 9);
  });

  test('its lines are not taken for Claude Code, Codex or Gemini CLI lines, and theirs not for Pi', () => {
    const shapes = (path: string) => new Set(readFileSync(join(FIXTURES, path), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => classify(JSON.parse(line) as JsonObject, line, { line: 1, offset: 0, length: line.length }).shape));
    expect(shapes(RUN)).toEqual(new Set(['pi']));
    expect(shapes('native/gemini-cli-0.61.0_chat-session-B.jsonl')).toEqual(new Set(['gemini-cli']));
    expect(shapes('native/codex-0.137.0_rollout.jsonl')).toEqual(new Set(['codex']));
    expect(shapes('native/claude-code-2.1.83_via-claude-agent-acp.jsonl')).toEqual(new Set(['claude-code']));
  });
});

describe('Pi entries the recording has not (fixtures/pi/, written by hand from 0.73.1 shapes and its session-format.md)', () => {
  const CASE = 'pi/branches-and-other-entries_from-0.73.1-shapes.jsonl';

  test('going back, and back again to the branch first left: each jump an event naming what it leaves', async () => {
    const session = await load(CASE);
    expect(session.counts).toEqual({ lines: 12, events: 12, unknown: 0, bad: 0 });
    expect(events(session)).toEqual([
      'session: /home/ana/app',
      'branch: branch abandoned at a0000001: 2 entries after it left behind, with 1 call: Run Command make; continued from a0000001 by a0000004',
      'branch_summary: Tried make; there is no Makefile.',
      'label: make-attempt',
      'branch: branch abandoned at a0000001: 3 entries after it left behind, with 1 call: Run Command npm run build; continued from a0000003 by a0000007',
      'message/bashExecution: ! ls (exit 0)',
      'compaction (compaction): The user asked to build; make failed.',
      'session_info: Build attempts',
      'custom: my-extension',
      'something_new: ',
    ]);
  });

  test('a command exiting 2 is failed; a call whose response was aborted before it ran is unfinished', async () => {
    const session = await load(CASE);
    expect(calls(session)).toEqual([
      ['call_a', 'Run Command', 'make', 'failed'],
      ['call_b', 'Run Command', 'npm run build', 'unfinished'],
    ]);
    expect(reportedExitCode([...session.calls.values()][0]!)).toBe(2);
  });
});

describe('Pi 0.73.1, the held-out run (recorded with the first, read only once the adapter was written)', () => {
  test('six calls as the run made them: a listing of the working directory names nothing; exit 3 and an edit that did not apply are failed', async () => {
    const session = await load('native/pi-0.73.1_held-out.jsonl');
    expect(session.counts).toEqual({ lines: 16, events: 16, unknown: 0, bad: 0 });
    expect(calls(session)).toEqual([
      ['call_pi_0_0_1', 'List Files', null, 'done'],
      ['call_pi_0_1_2', 'Read', 'src/app.js', 'done'],
      ['call_pi_0_1_3', 'Run Command', 'node src/app.js; exit 3', 'failed'],
      ['call_pi_0_2_4', 'Write', 'src/util.js', 'done'],
      ['call_pi_0_3_5', 'Edit', 'src/app.js', 'failed'],
      ['call_pi_0_4_6', 'Search', 'src', 'done'],
    ]);
    expect([...session.calls.values()].map((call) => reportedExitCode(call) ?? null)).toEqual([null, null, 3, null, null, null]);
    expect(messages(session)).toEqual([
      'user: Add a small util module and check the app.',
      'thought: Check the app before changing it.',
      'agent: Added src/util.js; the app exits 3 and one edit did not apply.',
    ]);
    expect(session.items.filter((item) => item.type === 'usage')).toHaveLength(6);
  });
});
