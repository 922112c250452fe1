// Sessions from the project's generator (scripts/gen-session.mjs), checked against its answer key:
// every call's label, subject and status, and the number of bad lines, in all three formats.
import { describe, expect, test } from 'vitest';
import { FORMATS, generate, generateSession } from '../../scripts/gen-session.mjs';
import { expectMatchesKey } from './testing/answerKey';

describe.each(FORMATS)('generated %s sessions match the answer key', (format) => {
  test.each([1, 7, 42])('seed %i', async (seed) => {
    const { text, key } = generate({ format, calls: 2500, seed, badRate: 0.01 });
    await expectMatchesKey(format, new TextEncoder().encode(text), key);
  });

  test('an intact session (no bad lines) matches too', async () => {
    const { text, key } = generate({ format, calls: 300, seed: 3 });
    expect(key.badLines).toBe(0);
    await expectMatchesKey(format, new TextEncoder().encode(text), key);
  });
});

describe('the generator', () => {
  test('gives the same bytes and key for the same options, and others for another seed', () => {
    const a = generate({ format: 'acp', calls: 50, seed: 9, badRate: 0.05 });
    expect(generate({ format: 'acp', calls: 50, seed: 9, badRate: 0.05 })).toEqual(a);
    expect(generate({ format: 'acp', calls: 50, seed: 10, badRate: 0.05 }).text).not.toBe(a.text);
  });

  test('writes the calls asked for, or about the size asked for, and counts its lines', () => {
    for (const format of FORMATS) {
      const { text, key } = generate({ format, calls: 40, seed: 2 });
      expect(key.calls).toHaveLength(40);
      expect(text.split('\n').length - 1).toBe(key.lines);
    }
    let bytes = 0;
    generateSession({ format: 'grok', mb: 0.5 }, (line) => (bytes += Buffer.byteLength(line) + 1));
    expect(bytes).toBeGreaterThanOrEqual(0.5 * 1024 * 1024);
    expect(bytes).toBeLessThan(0.6 * 1024 * 1024);
  });

  test('refuses an unknown format', () => {
    // @ts-expect-error: not a format
    expect(() => generate({ format: 'yaml' })).toThrow(/unknown --format yaml/);
  });
});
