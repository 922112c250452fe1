import { describe, expect, it } from 'vitest';
import { commandOf, editsOf, fetchOf, firstLineOf, outputText, planEntriesOf, reportedExitCode, searchOf } from './inputs';
import type { ToolCall } from './types';

function call(over: Partial<ToolCall>): ToolCall {
  return { key: 's\u0000c', id: 'c', sessionId: 's', ordinal: 0, firstLine: 1, meta: {}, invalidEnvelopes: 0, label: 'Tool', subject: null, history: [], detail: 'full', ...over };
}

describe('what a call says it did', () => {
  it('edits come from diff blocks first, then an old/new pair, a list of edits, or a Write’s content', () => {
    expect(editsOf(call({ content: [{ type: 'diff', path: '/a.ts', oldText: 'x', newText: 'y' }], rawInput: { old_string: 'no' } }))).toEqual([{ path: '/a.ts', oldText: 'x', newText: 'y' }]);
    expect(editsOf(call({ rawInput: { file_path: '/b.ts', old_string: 'p', new_string: 'q' } }))).toEqual([{ path: '/b.ts', oldText: 'p', newText: 'q' }]);
    expect(editsOf(call({ rawInput: { path: '/c.ts', edits: [{ old: '1', new: '2' }, { old_string: '3', new_string: '4' }, 'junk'] } }))).toEqual([
      { path: '/c.ts', oldText: '1', newText: '2' },
      { path: '/c.ts', oldText: '3', newText: '4' },
    ]);
    expect(editsOf(call({ label: 'Write', rawInput: { file_path: '/d.md', content: '# hi' } }))).toEqual([{ path: '/d.md', oldText: '', newText: '# hi' }]);
    expect(editsOf(call({ label: 'Edit', rawInput: { file_path: '/d.md', content: '# hi' } }))).toEqual([]);
  });

  it('the envelope’s input wins over rawInput, which wins over ledger args', () => {
    const envelope = { version: 1 as const, label: 'Run Command', name: 'bash', input: { command: 'from envelope' } };
    expect(commandOf(call({ tool: envelope, rawInput: { command: 'from rawInput' } })).command).toBe('from envelope');
    expect(commandOf(call({ rawInput: { command: 'from rawInput' }, ledger: { name: 'bash', args: { command: 'from ledger' } } })).command).toBe('from rawInput');
  });

  it('a command given as an argument list is joined; the directory is read when given', () => {
    expect(commandOf(call({ rawInput: { command: ['git', 'status', 3, '--short'], cwd: '/repo' } }))).toEqual({ command: 'git status --short', cwd: '/repo' });
    expect(commandOf(call({ ledger: { name: 'exec', args: ['ls', '-la'] } }))).toEqual({ command: 'ls -la' });
    expect(commandOf(call({ subject: null, title: 'Terminal' }))).toEqual({ command: 'Terminal' });
  });

  it('reads only the input’s own keys: a prototype-named key is a key, not a way in', () => {
    const hostile = JSON.parse('{"__proto__":{"command":"rm -rf /","url":"http://evil"},"constructor":"x"}') as Record<string, unknown>;
    expect(commandOf(call({ rawInput: hostile, subject: 'safe' })).command).toBe('safe');
    expect(fetchOf(call({ rawInput: hostile })).url).toBe('');
    expect(outputText(JSON.parse('{"__proto__":{"stdout":"leak"}}'))).toBeUndefined();
  });

  it('reads where a Read started, what was searched, a plan’s entries, output text and exit codes', () => {
    expect(firstLineOf(call({ rawInput: { offset: 40 } }))).toBe(40);
    expect(firstLineOf(call({ rawInput: { line: 'nope' }, locations: [{ path: '/x', line: 9 }] }))).toBe(1);
    expect(firstLineOf(call({ locations: [{ path: '/x', line: 9 }] }))).toBe(9);
    expect(searchOf(call({ rawInput: { query: 'TODO', dir_path: 'src' } }))).toEqual({ pattern: 'TODO', where: 'src' });
    expect(planEntriesOf(call({ rawInput: { todos: [{ content: 'a', status: 'completed' }, { step: 'b' }] } }))).toEqual([
      { content: 'a', status: 'completed' },
      { content: 'b', status: 'pending' },
    ]);
    expect(planEntriesOf(call({ rawInput: { todos: 'not a list' } }))).toBeNull();
    expect(outputText({ stdout: 'out', stderr: 'err', code: 1 })).toBe('out\nerr');
    // Codex (codex-acp 0.16.0): one text in stdout, aggregated_output and formatted_output is shown once.
    const same = 'hello there\nTODO: water the plants\n';
    expect(outputText({ stdout: same, stderr: '', aggregated_output: same, exit_code: 0, formatted_output: same })).toBe(same);
    // stdout and stderr are parts of the combined output; a different formatted text still shows.
    expect(outputText({ stdout: 'a', stderr: 'b', aggregated_output: 'a\nb\n' })).toBe('a\nb\n');
    expect(outputText({ aggregated_output: 'a\nb', formatted_output: 'Total output lines: 2\na\nb' })).toBe('a\nb\nTotal output lines: 2\na\nb');
    expect(outputText({ output: 'x', result: 'x\n' })).toBe('x');
    expect(reportedExitCode(call({ rawOutput: { exit_code: 2 } }))).toBe(2);
    expect(reportedExitCode(call({ ledger: { name: 'x', result: { exitCode: 0 } } }))).toBe(0);
  });
});
