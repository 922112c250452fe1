// The index reads a Claude Code log for its rows alone (model/claudeCodeRead.ts) and gives up on
// what it does not cover. Where it reads a file, its rows are those of the viewer's read (`ingest`,
// events kept): on every fixture, and on generated logs of every entry kind the adapter knows
// (ids and entries repeated, usage written again, results before and without their calls, plans,
// slash commands, times missing). A rule read one way in one and another in the other shows here.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingest, readClaudeCodeForRows, summarize, type Session } from '../model';
import { fleetRows } from './fleet';

const FIXTURES = join(import.meta.dirname, '../../fixtures');

const facts = { file: 'log.jsonl', bytes: 1, modifiedMs: 0, headFormat: 'claude-code', project: null, startedMs: null, sessionId: null, title: null };

async function expectSameRowsAsIngest(bytes: Uint8Array, lean: Session): Promise<void> {
  const viewer = await ingest(bytes, { detail: 'light' });
  // No other format passes for one.
  expect(viewer.format).toBe('claude-code');
  expect(fleetRows(lean, facts)).toEqual(fleetRows(viewer, facts));
  expect(summarize(lean)).toEqual(summarize(viewer));
}

describe('a Claude Code log read for its rows alone', () => {
  it('gives the rows of the viewer\'s read on every fixture it reads, and reads the Claude Code ones', async () => {
    const files = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl')).sort();
    const read: string[] = [];
    for (const name of files) {
      const bytes = readFileSync(join(FIXTURES, name));
      const lean = readClaudeCodeForRows(bytes);
      if (lean === null) continue;
      read.push(name);
      await expectSameRowsAsIngest(bytes, lean);
    }
    // The recorded Claude Code logs are read this way, a sub-agent's own file too (its entries are
    // its session); a log whose `progress` entries copy its sub-agents' messages is left to ingest.
    const recorded = 'subagent/claude-code-2.1.83_three-subagents/869c696e-f778-4f73-81d7-92fbc13f60b4';
    expect(read).toEqual(expect.arrayContaining([
      'native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'native/claude-code-2.1.44_via-claude-code-acp.jsonl', `${recorded}/subagents/agent-aab1cfe8219976e47.jsonl`,
    ]));
    expect(read).not.toContain(`${recorded}.jsonl`);

  });

  it('gives up on a line it does not read (not JSON, another shape, a sub-agent\'s message copied into progress)', () => {
    const good = readFileSync(join(FIXTURES, 'native/claude-code-2.1.83_via-claude-agent-acp.jsonl'), 'utf8');
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(readClaudeCodeForRows(encode(good))).not.toBeNull();
    expect(readClaudeCodeForRows(encode(`${good}{"type":"user",\n`))).toBeNull();
    expect(readClaudeCodeForRows(encode(`${good}{"jsonrpc":"2.0","method":"session/update","params":{}}\n`))).toBeNull();
    expect(readClaudeCodeForRows(encode(`${good}{"type":"progress","sessionId":"s","uuid":"u","parentToolUseID":"toolu_1","data":{"agentId":"a","message":{}}}\n`))).toBeNull();
    expect(readClaudeCodeForRows(encode('\n\n'))).toBeNull();
  });

  it('gives the rows of the viewer\'s read on generated logs', async () => {
    const id = (prefix: string, count: number) => fc.nat({ max: count - 1 }).map((n) => `${prefix}${n}`);
    const time = fc.option(fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 2) }).map((ms) => new Date(ms).toISOString()), { nil: undefined });
    // Sub-agents' entries among them: inline (`isSidechain`, with or without its `agentId`), and results that name one.
    const envelope = fc.record({
      uuid: fc.option(id('u', 30), { nil: undefined }), sessionId: fc.option(id('session-', 2), { nil: undefined }), timestamp: time,
      isSidechain: fc.option(fc.boolean(), { nil: undefined }), agentId: fc.option(id('agent-', 2), { nil: undefined }),
    }, { requiredKeys: ['uuid', 'sessionId', 'timestamp'] });
    const text = fc.constantFrom('hello', 'Exit code 2', '<command-name>/model</command-name>', '<local-command-stdout>ok</local-command-stdout>', '', 'fix the bug');
    const input = fc.oneof(
      fc.record({ command: fc.constantFrom('ls', 'npm test') }),
      fc.record({ file_path: fc.constantFrom('/a.ts', '/b.ts') }),
      fc.record({ todos: fc.constant([{ content: 'x', status: 'pending' }]) }),
      fc.constant('not an object'),
    );
    const toolUse = fc.record({ type: fc.constant('tool_use'), id: id('toolu_', 6), name: fc.constantFrom('Bash', 'Read', 'Edit', 'TodoWrite', 'mcp__x__y', 'Grep'), input });
    const toolResult = fc.record({
      type: fc.constant('tool_result'), tool_use_id: id('toolu_', 6),
      content: fc.oneof(text, fc.constant([{ type: 'text', text: 'Exit code 1\nfailed' }])),
      is_error: fc.option(fc.boolean(), { nil: undefined }),
    }, { requiredKeys: ['type', 'tool_use_id'] });
    const usage = fc.option(fc.record({ input_tokens: fc.nat(1000), output_tokens: fc.nat(1000) }), { nil: undefined });
    const entry = fc.oneof(
      fc.record({ type: fc.constant('user'), message: fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(fc.oneof(toolResult, fc.record({ type: fc.constant('text'), text })), { maxLength: 2 })) }), isMeta: fc.option(fc.boolean(), { nil: undefined }), toolUseResult: fc.option(fc.oneof(fc.constant('Error: no'), fc.record({ stdout: text, interrupted: fc.boolean() }), fc.record({ agentId: id('agent-', 2), status: fc.constant('completed') })), { nil: undefined }) }, { requiredKeys: ['type', 'message'] }),
      fc.record({ type: fc.constant('assistant'), message: fc.record({ id: fc.option(id('msg_', 4), { nil: undefined }), content: fc.oneof(text, fc.array(fc.oneof(toolUse, fc.record({ type: fc.constantFrom('text', 'thinking'), text, thinking: text })), { maxLength: 3 })), usage }, { requiredKeys: ['content'] }) }),
      fc.record({ type: fc.constantFrom('progress', 'queue-operation', 'last-prompt', 'system', 'summary'), subtype: fc.option(fc.constant('compact_boundary'), { nil: undefined }), data: fc.constant({ type: 'hook_progress' }) }),
    );
    const log = fc.array(fc.tuple(envelope, entry).map(([head, body]) => JSON.stringify({ ...body, ...head })), { minLength: 1, maxLength: 30 });
    let read = 0;
    await fc.assert(
      fc.asyncProperty(log, async (lines) => {
        const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
        const lean = readClaudeCodeForRows(bytes);
        if (lean === null) return;
        read++;
        await expectSameRowsAsIngest(bytes, lean);
      }),
      { numRuns: 600 },
    );
    // Most generated logs are Claude Code entries only (about 5 in 6: a line with neither a session
    // id nor a uuid is none, and the read gives up): the comparison ran on them.
    expect(read).toBeGreaterThan(400);
  });
});

describe('a read for rows alone: no events, no call history, no agent text (what loupe index reads every format with)', () => {
  it('gives the rows of the viewer\'s read, on every fixture', async () => {
    const files = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(jsonl|json|log)$/.test(name) && !name.startsWith('__snapshots__')).sort();
    expect(files.length).toBeGreaterThan(40);
    let histories = 0;
    for (const name of files) {
      const bytes = readFileSync(join(FIXTURES, name));
      const [kept, rowsOnly] = await Promise.all([ingest(bytes, { detail: 'light' }), ingest(bytes, { detail: 'light', keepEvents: false, keep: 'rows' })]);
      expect(fleetRows(rowsOnly, facts), name).toEqual(fleetRows(kept, facts));
      for (const call of kept.calls.values()) histories += call.history.length;
      expect([...rowsOnly.calls.values()].every((call) => call.history.length === 0), name).toBe(true);
    }
    // The viewer's read kept what the rows read left out.
    expect(histories).toBeGreaterThan(500);
  });
});
