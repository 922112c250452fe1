// Gemini CLI's own chat files (CONTRACTS §11, ingest/formats/gemini.ts): the real 0.61.0 samples in fixtures/native/ and the
// hand-written cases in fixtures/gemini/, each named after what it guards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { classify } from '../ingest/classify';
import { headOfText } from '../ingest/testing/headOfText';
import { displayStatus, ingest, summarize, type Session } from '../model/index';
import { compareRuns, runSession, stepsOfSession } from './compare';

const FIXTURES = join(import.meta.dirname, '../../fixtures');

async function load(path: string, chunkSize = 4096): Promise<Session> {
  return ingest(readFileSync(join(FIXTURES, path)), { chunkSize });
}

const calls = (session: Session) => [...session.calls.values()].map((call) => [call.id, call.label, call.subject, displayStatus(call, session.ended)]);

const messages = (session: Session) => session.items.flatMap((item) => (item.type === 'message' ? [`${item.role}: ${item.text}`] : []));

const usage = (session: Session) => {
  const items = session.items.flatMap((item) => (item.type === 'usage' ? [item.usage] : []));
  return { items: items.length, input: items.reduce((sum, u) => sum + (u.inputTokens ?? 0), 0), output: items.reduce((sum, u) => sum + (u.outputTokens ?? 0), 0) };
};

describe('Gemini CLI 0.61.0 chat file (real sample)', () => {
  const B = 'native/gemini-cli-0.61.0_chat-session-B.jsonl';

  test('is read as a Gemini CLI chat: every line an event, one session', async () => {
    const session = await load(B);
    expect(session.format).toBe('gemini-cli');
    expect(session.counts).toEqual({ lines: 33, events: 33, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual(['76039580-ee98-42e7-8628-a5e0eb1b4858']);
  });

  test('five calls, although the record holding them is written four times; ls exiting 2 is failed', async () => {
    const session = await load(B);
    expect(calls(session)).toEqual([
      ['read_file__gem_t1_s0_1', 'Read', '/home/dev/run2/work/gemini-cli/notes.txt', 'done'],
      // Gemini marks it `success` (the tool ran); its output says `Exit Code: 2` (§11).
      ['run_shell_command__gem_t1_s1_2', 'Run Command', 'ls missing-dir', 'failed'],
      ['write_file__gem_t1_s2_3', 'Write', '/home/dev/run2/work/gemini-cli/docs/gemini.md', 'failed'],
      ['replace__gem_t2_s0_4', 'Edit', '/home/dev/run2/work/gemini-cli/src/config.js', 'done'],
      ['glob__gem_t2_s0_5', 'List Files', 'src/**/*.js', 'done'],
    ]);
    const shell = [...session.calls.values()][1]!;
    const output = shell.content?.[0];
    expect(output?.type === 'content' && output.content.type === 'text' ? output.content.text : '').toContain('Exit Code: 2');
    // One tool_call and one result, not one per time the record was written.
    expect(shell.history.map((entry) => entry.source)).toEqual(['tool_call', 'tool_call_update']);
    // A call's own time, not its record's (the glob was added to a record started two seconds before).
    expect([...session.calls.values()].map((call) => call.startMs)).toEqual(
      ['14:23:44.442', '14:23:44.615', '14:23:44.642', '14:23:46.117', '14:23:46.126'].map((t) => Date.parse(`2026-12-01T${t}Z`)),
    );
  });

  test('the messages in order: prompts and answers, not Gemini CLI own context or the tool results sent back', async () => {
    expect(messages(await load(B))).toEqual([
      'user: TURN-1: Read notes.txt, check missing-dir, and write docs/gemini.md.',
      'agent: Reading the notes.',
      'agent: Turn one done: read notes.txt, `ls missing-dir` failed with exit 2, wrote docs/gemini.md.',
      'user: TURN-2: Raise retries in src/config.js to 5 and list the JS sources.',
      'agent: Editing the config and listing the sources.',
      'agent: Turn two done: retries is now 5, and src holds three JS files.',
    ]);
  });

  test('usage: one per gemini record with tokens', async () => {
    expect(usage(await load(B))).toEqual({ items: 6, input: 600, output: 120 });
  });

  test('the never-prompted session A: a header and its context, no calls, no messages', async () => {
    const session = await load('native/gemini-cli-0.61.0_chat-session-A.jsonl');
    expect(session.format).toBe('gemini-cli');
    expect(session.counts).toEqual({ lines: 2, events: 2, unknown: 0, bad: 0 });
    expect([session.calls.size, messages(session)]).toEqual([0, []]);
  });

  test('the chat file and the ACP capture of the same run: the same calls where the ACP adapter says the same', async () => {
    const chat = await load(B);
    const acp = await load('native/gemini-cli-0.61.0.acp.jsonl');
    const steps = (session: Session) => stepsOfSession(session, runSession(session.sessionIds, [...session.calls.values()].map((call) => call.sessionId)));
    const comparison = compareRuns(steps(acp), steps(chat));
    // Same five calls, same labels, in the same order.
    expect(comparison.labels.map((row) => [row.label, row.a.count, row.b.count])).toEqual(
      comparison.labels.map((row) => [row.label, row.b.count, row.b.count]),
    );
    expect(calls(acp).map(([id, label]) => [id, label])).toEqual(calls(chat).map(([id, label]) => [id, label]));
    // Where they legitimately differ (§10: "where the harness's ACP adapter reports the same
    // thing"): gemini-cli's ACP adapter sends no rawInput and no locations for the shell command
    // and the glob, so over ACP they name nothing; and it reports `ls missing-dir` (exit 2) as
    // completed, where §11 reads the chat file's `Exit Code: 2` as failed. `loupe diff` of the two
    // exits 1 for exactly these.
    expect(calls(acp).map(([, , subject, status]) => [subject, status])).toEqual([
      ['/home/dev/run2/work/gemini-cli/notes.txt', 'done'],
      [null, 'done'],
      ['/home/dev/run2/work/gemini-cli/docs/gemini.md', 'failed'],
      ['/home/dev/run2/work/gemini-cli/src/config.js', 'done'],
      [null, 'done'],
    ]);
    expect(comparison.firstDivergence?.index).toBe(1);
  });

  test('its head: session, project hash, start and the first prompt as the title', async () => {
    const lines = readFileSync(join(FIXTURES, B), 'utf8').split('\n').filter((line) => line !== '');
    expect(await headOfText(lines.join('\n'))).toEqual({
      format: 'gemini-cli',
      sessionId: '76039580-ee98-42e7-8628-a5e0eb1b4858',
      // From the workspace Gemini CLI describes in its first user record.
      cwd: '/home/dev/run2/work/gemini-cli',
      startMs: Date.parse('2026-12-01T14:23:43.867Z'),
      title: 'TURN-1: Read notes.txt, check missing-dir, and write docs/gemini.md.',
      titleIsCommand: false,
    });
  });
});

describe('hand-written cases (fixtures/gemini/)', () => {
  test('a record replaced by id: its calls once, its usage once (the last version), thoughts, a plan, an info record', async () => {
    const session = await load('gemini/record-replaced-by-id_from-contract.jsonl', 64);
    expect(session.counts).toEqual({ lines: 7, events: 7, unknown: 0, bad: 0 });
    expect(calls(session)).toEqual([
      ['read_file-1', 'Read', '/w/a.txt', 'done'],
      ['run_shell_command-2', 'Run Command', 'false', 'failed'],
    ]);
    // write_todos is the plan it sets, not a call (§10, §11).
    expect(session.items.flatMap((item) => (item.type === 'plan' ? [item.entries] : []))).toEqual([[{ content: 'read a.txt', status: 'completed' }]]);
    expect(messages(session)).toEqual(['user: Read a.txt then run false', 'thought: Plan\nread the file first', 'agent: Reading.', 'agent: Done.']);
    // g1 was written three times (output 10, 10, 40): counted once, from its last version.
    expect(usage(session)).toEqual({ items: 2, input: 300, output: 60 });
    expect(session.items.some((item) => item.type === 'event' && item.name === 'info' && item.summary === 'Request cancelled.')).toBe(true);
  });

  test('$rewindTo: the records from the target on leave the history; a record written after it is new, even under an old id', async () => {
    const session = await load('gemini/rewind-to_from-contract.jsonl', 64);
    expect(session.counts).toEqual({ lines: 9, events: 9, unknown: 0, bad: 0 });
    // What was read stays shown: the call ran.
    expect(calls(session)).toEqual([['replace-1', 'Edit', '/w/a.txt', 'done']]);
    expect(messages(session)).toEqual([
      'user: first prompt', 'user: second prompt', 'agent: second answer',
      'user: second prompt, asked again', 'agent: a new answer under an old id',
    ]);
    const rewinds = session.items.flatMap((item) => (item.type === 'event' && item.name === '$rewindTo' ? [item.summary] : []));
    expect(rewinds).toEqual([
      'rewind to u2: 2 records removed from the history (shown above as read)',
      // Gemini CLI's reader: an id it does not know removes every record.
      'rewind to no-such-record, a record not in the history: all 4 records removed from the history',
    ]);
  });

  test('$set of messages and the header twice: the history written again replaces records, nothing is doubled', async () => {
    const session = await load('gemini/set-messages_header-twice_from-contract.jsonl', 64);
    expect(session.counts).toEqual({ lines: 9, events: 9, unknown: 0, bad: 0 });
    expect(session.sessionIds).toEqual(['s-1']);
    expect(calls(session)).toEqual([
      ['list_directory-1', 'List Files', '/w', 'done'],
      ['google_web_search-2', 'Web Search', 'gemini cli', 'failed'],
      ['web_fetch-3', 'Web Fetch', 'summarize https://example.com', 'failed'],
    ]);
    // g1's text changed in the history written again: its message is replaced where it was, not added.
    expect(messages(session)).toEqual(['user: list the files', 'agent: Listing the files.', 'user: The conversation so far: the user asked to list the files.']);
    expect(usage(session)).toEqual({ items: 1, input: 10, output: 5 });
    const sets = session.items.flatMap((item) => (item.type === 'event' && item.name === '$set' ? [item.summary] : []));
    expect(sets).toEqual([
      'messages, lastUpdated: the history written again (1 record)',
      'messages, lastUpdated: the history written again (1 record)',
      'messages, lastUpdated: the history written again (2 records, 2 removed)',
    ]);
  });

  test('an unknown record type is a named event; a bad line is reported with its line and the rest is read', async () => {
    const session = await load('gemini/unknown-type_bad-line_from-contract.jsonl', 64);
    expect(session.counts).toEqual({ lines: 7, events: 5, unknown: 1, bad: 1 });
    expect(session.diagnostics.bad.map((bad) => bad.line)).toEqual([3]);
    const events = session.items.flatMap((item) => (item.type === 'event' ? [[item.name, item.summary]] : []));
    expect(events).toEqual([
      ['session', 's-1'],
      ['compression', 'a record type this reader does not know'],
      ['error', '[API Error: quota exceeded]'],
      ['warning', 'Loop detected'],
    ]);
    expect(calls(session)).toEqual([['glob-1', 'List Files', '**/*.ts', 'done']]);
  });

  test("an older release's pretty-printed session-*.json: its head, then each message a record with its line", async () => {
    for (const chunkSize of [7, 4096]) {
      const session = await load('gemini/old-json-object_from-contract.json', chunkSize);
      expect(session.format).toBe('gemini-cli');
      // The head, three messages, and the `summary` written after them.
      expect(session.counts).toEqual({ lines: 5, events: 5, unknown: 0, bad: 0 });
      expect(session.sessionIds).toEqual(['old-1']);
      expect(calls(session)).toEqual([
        ['read_file-1754038802000', 'Read', '/w/notes.txt', 'done'],
        ['run_shell_command-1754038803000', 'Run Command', 'ls nope', 'failed'],
      ]);
      expect(messages(session)).toEqual(['user: what is in notes.txt?', 'agent: Let me read it.', 'agent: It holds a shopping list.']);
      expect(usage(session)).toEqual({ items: 2, input: 110, output: 15 });
      expect([...session.calls.values()][0]!.firstLine).toBe(13);
    }
  });

  test('the same object on one line reads the same', async () => {
    const text = JSON.stringify(JSON.parse(readFileSync(join(FIXTURES, 'gemini/old-json-object_from-contract.json'), 'utf8')));
    const session = await ingest(new TextEncoder().encode(`${text}\n`));
    expect(session.counts).toEqual({ lines: 1, events: 1, unknown: 0, bad: 0 });
    expect(calls(session).map(([, label, subject, status]) => [label, subject, status])).toEqual([['Read', '/w/notes.txt', 'done'], ['Run Command', 'ls nope', 'failed']]);
  });

  test('a first line `{` that opens no Gemini session is a bad line as before, and the lines after it are read', async () => {
    const session = await ingest(new TextEncoder().encode('{\n{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}\n'));
    expect(session.counts).toEqual({ lines: 2, events: 1, unknown: 0, bad: 1 });
    expect(session.diagnostics.bad.map((bad) => bad.line)).toEqual([1]);
  });
});

describe('recognising Gemini lines steals no other shape', () => {
  const loc = { line: 1, offset: 0, length: 0 };
  test.each([
    ['a Claude Code entry (uuid)', { id: 'x', type: 'user', timestamp: '2026-01-01T00:00:00Z', uuid: 'u', sessionId: 's' }, 'claude-code'],
    ['a Codex line (payload)', { id: 'x', type: 'response_item', timestamp: '2026-01-01T00:00:00Z', payload: { type: 'message' } }, 'codex'],
    ['an ACP update', { sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } }, 'acp-updates'],
    ['a Gemini header', { sessionId: 's', projectHash: 'h', startTime: '2026-01-01T00:00:00Z' }, 'gemini-cli'],
    ['a Gemini record', { id: 'r', timestamp: '2026-01-01T00:00:00Z', type: 'gemini', content: 'hi' }, 'gemini-cli'],
    ['a Gemini $set', { $set: { lastUpdated: '2026-01-01T00:00:00Z' } }, 'gemini-cli'],
    ['a Gemini $rewindTo', { $rewindTo: 'r' }, 'gemini-cli'],
  ])('%s', (_name, value, shape) => {
    expect(classify(value, JSON.stringify(value), loc).shape).toBe(shape);
  });

  test('an object with an id and a type but no timestamp stays unknown', () => {
    expect(classify({ id: 'x', type: 'thing' }, '', loc).body.kind).toBe('unknown');
  });
});

test('summarize lists Gemini calls like any other', async () => {
  const summary = summarize(await load('native/gemini-cli-0.61.0_chat-session-B.jsonl'));
  expect(summary.calls.filter((call) => call.status === 'failed').map((call) => call.label)).toEqual(['Run Command', 'Write']);
});

describe('exit codes (CONTRACTS §11)', () => {
  test("a command's `Exit Code: N` is kept as its exit code; a command that wrote none has none", async () => {
    const { calls: summary } = summarize(await load('native/gemini-cli-0.61.0_chat-session-B.jsonl'));
    expect(summary.map((call) => [call.label, call.exitCode])).toEqual([['Read', null], ['Run Command', 2], ['Write', null], ['Edit', null], ['List Files', null]]);
  });
});
