// A real Claude Code log changed at random (lines dropped, repeated, cut, inserted, ids renamed):
// what the index's reads are held to one another on (cli/indexFile.test.ts, cli/claudeCodeScanRead.test.ts).
import fc from 'fast-check';

export type ClaudeLogEdit =
  | { type: 'drop'; at: number }
  | { type: 'repeat'; at: number }
  | { type: 'cut'; at: number; keep: number }
  | { type: 'insert'; at: number; line: string }
  | { type: 'rename'; at: number; to: string };

/** One edit; `inserted`: lines an edit may put in (none: no insertions). */
export function claudeLogEdit(inserted: readonly string[] = []): fc.Arbitrary<ClaudeLogEdit> {
  const edits: fc.Arbitrary<ClaudeLogEdit>[] = [
    fc.record({ type: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ type: fc.constant('repeat' as const), at: fc.nat() }),
    fc.record({ type: fc.constant('cut' as const), at: fc.nat(), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({ type: fc.constant('rename' as const), at: fc.nat(), to: fc.constantFrom('toolu_x', 'msg_x', 'other-session') }),
  ];
  if (inserted.length > 0) edits.push(fc.record({ type: fc.constant('insert' as const), at: fc.nat(), line: fc.constantFrom(...inserted) }));
  return fc.oneof(...edits);
}

/** `sample`'s lines with `edits` made, joined (with a last newline or not). */
export function editedClaudeLog(sample: readonly string[], edits: readonly ClaudeLogEdit[], lastNewline: boolean): string {
  const lines = [...sample];
  for (const change of edits) {
    const at = change.at % lines.length;
    const line = lines[at]!;
    if (change.type === 'drop' && lines.length > 1) lines.splice(at, 1);
    else if (change.type === 'repeat') lines.splice(at, 0, line);
    else if (change.type === 'cut') lines[at] = line.slice(0, Math.floor(line.length * change.keep));
    else if (change.type === 'insert') lines.splice(at, 0, change.line);
    else if (change.type === 'rename') lines[at] = line.replace(/toolu_[a-z0-9_]+|msg_[a-z0-9_]+|"sessionId":"[^"]+"/, (id) => (id.startsWith('"sessionId"') ? `"sessionId":"${change.to}"` : change.to));
  }
  return lines.join('\n') + (lastNewline ? '\n' : '');
}
