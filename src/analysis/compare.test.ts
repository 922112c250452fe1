import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { compareRuns, runSession, stepsOfRows, stepsOfSession, type Comparison, type RunStep } from './compare';
import { ingest } from '../model';
import type { DisplayStatus } from '../model/types';

let ids = 0;
/** A run from `label:subject[:status]` words; the subject `-` is none. */
function run(...words: string[]): RunStep[] {
  return words.map((word) => {
    const [label = '', subject = '', status = 'done', ms] = word.split(':');
    return { id: `c${ids++}`, label, subject: subject === '-' ? null : subject, status: status as DisplayStatus, durationMs: ms === undefined ? null : Number(ms) };
  });
}

/** The alignment written as rows `a|b change`, by subject: what a person reads in the two columns. */
function rows(a: RunStep[], b: RunStep[], comparison: Comparison): string[] {
  return comparison.pairs.map((pair) => `${pair.a === null ? '·' : a[pair.a]!.subject}|${pair.b === null ? '·' : b[pair.b]!.subject} ${pair.change}`);
}

describe('compareRuns', () => {
  it('finds no divergence between equal runs, every step the same', () => {
    const a = run('Read:x', 'Edit:x', 'Run Command:npm test');
    const b = run('Read:x', 'Edit:x', 'Run Command:npm test');
    const comparison = compareRuns(a, b);
    expect(comparison.firstDivergence).toBeNull();
    expect(comparison.counts).toEqual({ matched: 3, same: 3, status: 0, onlyA: 0, onlyB: 0 });
    expect(rows(a, b, comparison)).toEqual(['x|x same', 'x|x same', 'npm test|npm test same']);
    expect(comparison.alignment).toEqual({ exact: true });
  });

  it('compares empty runs as equal, and an empty run against one with steps as all only-b', () => {
    expect(compareRuns([], [])).toMatchObject({ firstDivergence: null, pairs: [], counts: { matched: 0, onlyA: 0, onlyB: 0 } });
    const b = run('Read:x', 'Read:y');
    const comparison = compareRuns([], b);
    expect(comparison.firstDivergence).toEqual({ index: 0, a: null, b: { id: b[0]!.id, label: 'Read', subject: 'x', status: 'done' } });
    expect(comparison.counts).toEqual({ matched: 0, same: 0, status: 0, onlyA: 0, onlyB: 2 });
  });

  it('reports a step B inserted as only-b, and the first divergence where it is', () => {
    const a = run('Read:x', 'Edit:x', 'Run Command:test');
    const b = run('Read:x', 'Search:todo', 'Edit:x', 'Run Command:test');
    const comparison = compareRuns(a, b);
    expect(comparison.firstDivergence?.index).toBe(1);
    expect(comparison.firstDivergence?.b?.subject).toBe('todo');
    expect(rows(a, b, comparison)).toEqual(['x|x same', '·|todo only-b', 'x|x same', 'test|test same']);
    expect(comparison.counts).toEqual({ matched: 3, same: 3, status: 0, onlyA: 0, onlyB: 1 });
  });

  it('reports a step B dropped as only-a; a run that ended early diverges where it ended', () => {
    const a = run('Read:x', 'Edit:x', 'Run Command:test');
    const b = run('Read:x', 'Edit:x');
    const comparison = compareRuns(a, b);
    expect(comparison.firstDivergence).toMatchObject({ index: 2, a: { subject: 'test' }, b: null });
    expect(rows(a, b, comparison)).toEqual(['x|x same', 'x|x same', 'test|· only-a']);
    expect(comparison.counts).toEqual({ matched: 2, same: 2, status: 0, onlyA: 1, onlyB: 0 });
  });

  it('reads a changed subject as a step only A has and one only B has, A first', () => {
    const a = run('Read:x', 'Edit:src/a.ts', 'Run Command:test');
    const b = run('Read:x', 'Edit:src/b.ts', 'Run Command:test');
    const comparison = compareRuns(a, b);
    expect(comparison.firstDivergence).toMatchObject({ index: 1, a: { subject: 'src/a.ts' }, b: { subject: 'src/b.ts' } });
    expect(rows(a, b, comparison)).toEqual(['x|x same', 'src/a.ts|· only-a', '·|src/b.ts only-b', 'test|test same']);
  });

  it('a subject of none differs from an empty subject and from another label', () => {
    const comparison = compareRuns(run('Think:-', 'Think:-'), run('Think:', 'Plan:-'));
    expect(comparison.counts.matched).toBe(0);
    expect(comparison.firstDivergence?.index).toBe(0);
  });

  it('aligns a changed status as one row marked status, and diverges there', () => {
    const a = run('Read:x', 'Run Command:test:failed', 'Edit:x');
    const b = run('Read:x', 'Run Command:test:done', 'Edit:x');
    const comparison = compareRuns(a, b);
    expect(comparison.firstDivergence).toMatchObject({ index: 1, a: { status: 'failed' }, b: { status: 'done' } });
    expect(rows(a, b, comparison)).toEqual(['x|x same', 'test|test status', 'x|x same']);
    expect(comparison.counts).toEqual({ matched: 3, same: 2, status: 1, onlyA: 0, onlyB: 0 });
  });

  it('keeps matches earliest: a repeated step is matched with its first occurrence, the extra one after', () => {
    const a = run('Run Command:test:failed', 'Run Command:test:failed', 'Run Command:test');
    const b = run('Run Command:test:failed', 'Run Command:test');
    const comparison = compareRuns(a, b);
    expect(comparison.pairs.map((pair) => [pair.a, pair.b, pair.change])).toEqual([
      [0, 0, 'same'],
      [1, 1, 'status'],
      [2, null, 'only-a'],
    ]);
    // Two steps swapped: one of them is kept, the one that lets the match come first in B.
    const swapped = compareRuns(run('Read:x', 'Read:y'), run('Read:y', 'Read:x'));
    expect(swapped.pairs.map((pair) => [pair.a, pair.b, pair.change])).toEqual([
      [0, null, 'only-a'],
      [1, 0, 'same'],
      [null, 1, 'only-b'],
    ]);
  });

  it('tables each label: counts, failures and durations where both runs have times', () => {
    const a = run('Read:x:done:10', 'Run Command:t:failed:100', 'Run Command:t:failed:50', 'Edit:x');
    const b = run('Read:x:done:30', 'Run Command:t:done', 'Search:q');
    const labels = compareRuns(a, b).labels;
    expect(labels).toEqual([
      { label: 'Read', a: { count: 1, failed: 0, durationMs: 10 }, b: { count: 1, failed: 0, durationMs: 30 }, difference: 0, failedDifference: 0, durationDifferenceMs: 20 },
      { label: 'Run Command', a: { count: 2, failed: 2, durationMs: 150 }, b: { count: 1, failed: 0, durationMs: null }, difference: -1, failedDifference: -2, durationDifferenceMs: null },
      { label: 'Edit', a: { count: 1, failed: 0, durationMs: null }, b: { count: 0, failed: 0, durationMs: null }, difference: -1, failedDifference: 0, durationDifferenceMs: null },
      { label: 'Search', a: { count: 0, failed: 0, durationMs: null }, b: { count: 1, failed: 0, durationMs: null }, difference: 1, failedDifference: 0, durationDifferenceMs: null },
    ]);
  });

  it('past the bound on differences, aligns the common start and end and says the middle is unaligned', () => {
    const a = run('Read:start', 'Edit:1', 'Edit:2', 'Edit:3', 'Read:end');
    const b = run('Read:start', 'Edit:3', 'Edit:2', 'Edit:1', 'Read:end');
    expect(compareRuns(a, b).alignment).toEqual({ exact: true });
    const bounded = compareRuns(a, b, { maxEdits: 2 });
    expect(bounded.alignment).toEqual({ exact: false, maxEdits: 2, unalignedA: 3, unalignedB: 3 });
    expect(rows(a, b, bounded)).toEqual(['start|start same', '1|· only-a', '2|· only-a', '3|· only-a', '·|3 only-b', '·|2 only-b', '·|1 only-b', 'end|end same']);
    expect(bounded.counts).toEqual({ matched: 2, same: 2, status: 0, onlyA: 3, onlyB: 3 });
  });

  it('is a longest common subsequence of the keys, each step of each run listed once in order', () => {
    const step = fc.tuple(fc.constantFrom('Read', 'Edit'), fc.constantFrom('x', 'y', 'z'), fc.constantFrom<DisplayStatus>('done', 'failed'));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.array(step, { maxLength: 12 }), (wordsA, wordsB) => {
        const a = run(...wordsA.map((w) => w.join(':')));
        const b = run(...wordsB.map((w) => w.join(':')));
        const comparison = compareRuns(a, b);
        expect(comparison.pairs.flatMap((pair) => (pair.a === null ? [] : [pair.a]))).toEqual(a.map((_, i) => i));
        expect(comparison.pairs.flatMap((pair) => (pair.b === null ? [] : [pair.b]))).toEqual(b.map((_, i) => i));
        for (const pair of comparison.pairs) {
          if (pair.a !== null && pair.b !== null) expect([a[pair.a]!.label, a[pair.a]!.subject]).toEqual([b[pair.b]!.label, b[pair.b]!.subject]);
        }
        expect(comparison.counts.matched).toBe(lcsLength(a, b));
        expect(comparison.firstDivergence === null).toBe(wordsA.join() === wordsB.join());
      }),
    );
  });
});

/** The textbook dynamic programme, as the reference the Myers alignment must equal in length. */
function lcsLength(a: RunStep[], b: RunStep[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1]!.label === b[j - 1]!.label && a[i - 1]!.subject === b[j - 1]!.subject;
      table[i]![j] = same ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table[a.length]![b.length]!;
}

describe('a run read from the viewer rows and from summarize', () => {
  it.each(['fixtures/native/claude-agent-acp.acp.jsonl', 'fixtures/native/codex-0.137.0_rollout.jsonl', 'fixtures/grok/esc-interrupt.updates.jsonl'])('%s: the same steps in the same order', async (file) => {
    const session = await ingest(readFileSync(file), { detail: 'light' });
    const fromRows = stepsOfRows(session.items, session.calls, session.ended).map(({ id, label, subject, status, durationMs }) => ({ id, label, subject, status, durationMs }));
    expect(fromRows.length).toBeGreaterThan(0);
    expect(fromRows).toEqual(stepsOfSession(session));
  });
});

describe('the session a file of several is compared by', () => {
  it('is the one asked for, else the first named that has calls, else every call of a file of one', () => {
    expect(runSession(['s1', 's2'], ['s2', 's2'], 's1')).toBe('s1');
    // s0 only started (a session/new, a message): its run is no step of the task's.
    expect(runSession(['s0', 's1', 's2'], ['s2', 's1', null])).toBe('s1');
    expect(runSession(['s1'], ['s1', null])).toBeUndefined();
    expect(runSession([], [null])).toBeUndefined();
  });
});
