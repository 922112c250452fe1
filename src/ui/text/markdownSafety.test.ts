import { describe, expect, it } from 'vitest';
import { MARKDOWN_LIMITS, markdownRisk } from './markdownSafety';

const nestedList = (levels: number, indent = '  ') => Array.from({ length: levels }, (_, i) => `${indent.repeat(i)}- level ${i}`).join('\n');

describe('markdownRisk', () => {
  it('lets ordinary agent markdown through', () => {
    const text = [
      '# Plan',
      'I will **edit** `src/a.ts` and run the [tests](https://example.com).',
      '',
      nestedList(4),
      '1. first',
      '   2. second',
      '> a quote',
      '> > nested once',
      '```ts',
      'const x_y = a_b * c_d; // [not] a `link`',
      '```',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
    ].join('\n');
    expect(markdownRisk(text)).toBeNull();
  });

  it('sends deep blockquotes and deep lists to plain text', () => {
    expect(markdownRisk(`${'>'.repeat(3000)} deep`)).toBe('too deeply nested to format');
    expect(markdownRisk(`${'> '.repeat(30)}deep`)).toBe('too deeply nested to format');
    expect(markdownRisk(nestedList(1000))).toBe('too large to format'); // its indentation alone is a megabyte
    expect(markdownRisk(nestedList(200))).toBe('too deeply nested to format');
    expect(markdownRisk(nestedList(40))).toBe('too deeply nested to format');
    expect(markdownRisk(`${'- '.repeat(40)}x`)).toBe('too deeply nested to format');
    expect(markdownRisk(`${'1. '.repeat(40)}x`)).toBe('too deeply nested to format');
    expect(markdownRisk(nestedList(8))).toBeNull();
  });

  it('sends many reference definitions, much inline markup and huge text to plain text', () => {
    const refs = Array.from({ length: 20_000 }, (_, i) => `[r${i}]: https://example.com/${i}`).join('\n');
    expect(markdownRisk(refs)).toBe('too large to format');
    const fewerRefs = Array.from({ length: MARKDOWN_LIMITS.maxReferenceDefinitions + 1 }, (_, i) => `[r${i}]: /${i}`).join('\n');
    expect(markdownRisk(fewerRefs)).toBe('too many link references to format');
    expect(markdownRisk('*a'.repeat(2000))).toBe('too much inline markup to format');
    expect(markdownRisk('x'.repeat(10_000_000))).toBe('too large to format');
  });

  it('does not count markup inside a fenced code block, but does once the fence is closed', () => {
    const code = '_'.repeat(MARKDOWN_LIMITS.maxInlineDelimiters + 10);
    expect(markdownRisk(['```', code, '```'].join('\n'))).toBeNull();
    expect(markdownRisk(['~~~~', code, '~~~~'].join('\n'))).toBeNull();
    // A line of backticks with a backtick in its info string is inline code, not a fence.
    expect(markdownRisk(['``` a`b', code].join('\n'))).toBe('too much inline markup to format');
    expect(markdownRisk(['```', 'x', '```', code].join('\n'))).toBe('too much inline markup to format');
    // A deeply indented list inside a fence is code too.
    expect(markdownRisk(['```', nestedList(100), '```'].join('\n'))).toBeNull();
  });
});
