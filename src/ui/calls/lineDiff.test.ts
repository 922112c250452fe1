import { describe, expect, it } from 'vitest';
import { diffRows, isSmallDiff } from './LargeDiff';
import { computeLineDiff, replacedBlockDiff, splitLines } from './lineDiff';

const numbered = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

describe('computeLineDiff', () => {
  it('aligns lines exactly within the bound', () => {
    const d = computeLineDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    expect(d.exact).toBe(true);
    expect(d.runs).toEqual([
      { kind: 'same', count: 1 },
      { kind: 'del', count: 1 },
      { kind: 'add', count: 1 },
      { kind: 'same', count: 2 },
      { kind: 'add', count: 1 },
    ]);
  });

  it('past the bound, keeps common first and last lines and shows the middle replaced', () => {
    const oldText = `head\n${numbered(2000, 'old')}tail\n`;
    const newText = `head\n${numbered(2000, 'new')}tail\n`;
    const d = computeLineDiff(oldText, newText, { maxEditLength: 100, timeoutMs: 10_000 });
    expect(d.exact).toBe(false);
    expect(d.runs).toEqual([
      { kind: 'same', count: 1 },
      { kind: 'del', count: 2000 },
      { kind: 'add', count: 2000 },
      { kind: 'same', count: 1 },
    ]);
  });

  it('counts as many lines as the texts have, with or without a final newline', () => {
    for (const [a, b] of [
      ['x\ny', 'x\ny\n'],
      ['', 'new\n'],
      ['one\ntwo\n', ''],
    ] as const) {
      for (const d of [computeLineDiff(a, b), replacedBlockDiff(a, b)]) {
        const sum = (k: string) => d.runs.filter((r) => r.kind === k || r.kind === 'same').reduce((n, r) => n + r.count, 0);
        expect(sum('del')).toBe(splitLines(a).length);
        expect(sum('add')).toBe(splitLines(b).length);
      }
    }
  });
});

describe('diffRows', () => {
  it('folds long unchanged stretches, keeping three lines around each change', () => {
    const oldText = numbered(100, 'x');
    const newText = oldText.replace('x line 50\n', 'changed\n');
    const rows = diffRows(oldText, newText, computeLineDiff(oldText, newText));
    expect(rows.map((r) => (r.kind === 'fold' ? `fold ${r.count}` : `${r.kind} ${r.oldNo ?? '-'} ${r.newNo ?? '-'}`))).toEqual([
      'fold 47',
      'same 48 48',
      'same 49 49',
      'same 50 50',
      'del 51 -',
      'add - 51',
      'same 52 52',
      'same 53 53',
      'same 54 54',
      'fold 46',
    ]);
  });
});

describe('isSmallDiff', () => {
  it('keeps ordinary edits on the small path and sends big ones to the worker', () => {
    expect(isSmallDiff('a\nb\n', 'a\nc\n')).toBe(true);
    expect(isSmallDiff(numbered(150, 'a'), numbered(150, 'b'))).toBe(false);
    expect(isSmallDiff('x'.repeat(25_000), '')).toBe(false);
  });
});
