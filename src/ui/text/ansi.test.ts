import { describe, expect, it } from 'vitest';
import { ansiLines, parseAnsi, stripAnsi, terminalTail } from './ansi';

describe('parseAnsi', () => {
  it('reads colours and text styles into spans', () => {
    const spans = parseAnsi('plain \x1b[1;31mbold red\x1b[0m \x1b[38;5;208morange\x1b[39;48;2;1;2;3m on rgb\x1b[m end');
    expect(spans.map((s) => s.text)).toEqual(['plain ', 'bold red', ' ', 'orange', ' on rgb', ' end']);
    expect(spans[1]?.style).toMatchObject({ bold: true, fg: '187, 0, 0' });
    expect(spans[3]?.style.fg).toBe('255, 135, 0');
    expect(spans[4]?.style).toMatchObject({ fg: null, bg: '1, 2, 3' });
    expect(spans[5]?.style).toMatchObject({ fg: null, bg: null, bold: false });
  });

  it('merges text of one style: `\\e[1mx` 100,000 times is one bold span', () => {
    const spans = parseAnsi('\x1b[1mx'.repeat(100_000));
    expect(spans).toHaveLength(1);
    expect(spans[0]?.text).toBe('x'.repeat(100_000));
    expect(spans[0]?.style.bold).toBe(true);
  });

  it('drops titles, clipboard writes, screen clears and unterminated escapes, keeping the text', () => {
    expect(stripAnsi('a\x1b]0;title\x07b\x1b]52;c;ZXZpbA==\x1b\\c\x1b[2Jd\x1b[?25le')).toBe('abcde');
    expect(stripAnsi('x\x1b[1;2;3')).toBe('x');
    expect(stripAnsi('\x1b[\x1b[\x1b[\nok')).toBe('\nok');
    // An OSC that never ends does not swallow the output after it.
    expect(stripAnsi(`\x1b]0;${'t'.repeat(5000)}\nrest`)).toContain('rest');
  });

  it('stops styling past a number of spans, showing the rest as plain text', () => {
    const spans = parseAnsi('\x1b[1ma\x1b[0mb'.repeat(10_000), 100);
    expect(spans.length).toBeLessThanOrEqual(102);
    expect(spans.map((s) => s.text).join('')).toBe('ab'.repeat(10_000));
    expect(spans.at(-1)?.text.length).toBeGreaterThan(19_000);
  });
});

describe('terminalTail', () => {
  it('keeps the end of a long output, cut at a line start', () => {
    const text = `${'old line\n'.repeat(1000)}${'new line\n'.repeat(1000)}`;
    const tail = terminalTail(text, 9000 + 4);
    expect(tail.text.startsWith('new line')).toBe(true);
    expect(tail.omitted + tail.text.length).toBe(text.length);
    expect(terminalTail('short').omitted).toBe(0);
  });
});

describe('ansiLines', () => {
  it('cuts styled spans at line ends, keeping each piece its style and empty lines as lines', () => {
    const lines = ansiLines(parseAnsi('plain \x1b[31mred\nstill red\x1b[0m\n\nlast\n'));
    expect(lines.map((line) => line.map((span) => span.text))).toEqual([['plain ', 'red'], ['still red'], [], ['last']]);
    expect(lines[1]?.[0]?.style.fg).toBe(lines[0]?.[1]?.style.fg);
    expect(lines[0]?.[0]?.style.fg ?? null).toBeNull();
    expect(lines[0]?.[1]?.style.fg).toBe('187, 0, 0');
  });
});
