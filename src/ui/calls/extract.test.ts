import { describe, expect, it } from 'vitest';
import { unfenced } from './extract';

describe('unfenced', () => {
  it('takes the fences off a text that is one fenced block (claude-agent-acp 0.23.1)', () => {
    expect(unfenced('```console\ntotal 20\n-rw-r--r-- 1 root root 7 README.md\n```')).toBe('total 20\n-rw-r--r-- 1 root root 7 README.md');
    expect(unfenced('```\nExit code 1\ncat: missing-file.txt: No such file or directory\n```')).toBe('Exit code 1\ncat: missing-file.txt: No such file or directory');
    expect(unfenced('```console\nhi\n```\n')).toBe('hi');
    // A longer fence around text that holds a shorter one.
    expect(unfenced('````md\na\n```\nb\n```\n````')).toBe('a\n```\nb\n```');
    expect(unfenced('```\n\n```')).toBe('');
  });

  it('leaves any other text as it is', () => {
    for (const text of ['plain output', 'before\n```\ncode\n```', '```\na\n```\nafter', '```\na\n```\nb\n```', '``\nx\n``', '```console hi```']) {
      expect(unfenced(text)).toBe(text);
    }
  });
});
