import { describe, expect, it } from 'vitest';
import { compareRuns, type RunStep } from '../analysis/compare';
import { compareMarkdown, runTitle } from './compareMarkdown';

const step = (id: string, subject: string, status: RunStep['status'] = 'done'): RunStep => ({ id, label: 'Run Command', subject, status, durationMs: null });

describe('compareMarkdown', () => {
  const a = [step('a1', 'ls'), step('a2', 'echo ‹aws-access-key›')];
  const b = [step('b1', 'ls'), step('b2', 'echo ‹aws-access-key›', 'failed')];

  it('says the runs were read redacted, and how many secrets of each kind were replaced', () => {
    const report = compareMarkdown(compareRuns(a, b), a, b, { titleA: 'a.jsonl', titleB: 'b.jsonl', redacted: new Map([['aws-access-key', 2]]) });
    expect(report).toContain('\nRedacted: 2 secrets (2 aws-access-key), each shown as ‹kind›.\n');
    expect(report).toContain('**First divergence at step 2**');
  });

  it('says nothing of redaction for runs read as they are', () => {
    expect(compareMarkdown(compareRuns(a, b), a, b, { titleA: 'a.jsonl', titleB: 'b.jsonl' })).not.toContain('Redacted');
  });

  it('titles a run by its file name, from a path or a URL, as loupe diff does', () => {
    expect(runTitle('/home/dev/runs/old run.jsonl')).toBe('old run.jsonl');
    expect(runTitle('session/new.jsonl')).toBe('new.jsonl');
    expect(runTitle('C:\\runs\\b.jsonl')).toBe('b.jsonl');
    expect(runTitle('plain.jsonl')).toBe('plain.jsonl');
  });
});
