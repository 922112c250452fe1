// `loupe summarize` on hostile input: no escape sequence from the file reaches the terminal, and
// `loupe summarize … | head` (and `loupe export … | head`) ends quietly when head stops reading.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { build } from 'vite';
import { writeHostileCases } from '../../scripts/hostile.mjs';
import { main } from './summarize';
import { terminalSafe } from '../model/terminalText';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loupe-summarize-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
  return { code, out, err };
}

/** Any character a terminal acts on, other than newline and tab. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('loupe summarize, hostile input', () => {
  const [injection] = writeHostileCases(dir, 'terminal-injection');

  test('text output shows escape sequences in ids, subjects, output and bad lines escaped', async () => {
    const { code, out } = await run(['summarize', injection!.file]);
    expect(code).toBe(0);
    expect(out).not.toMatch(CONTROL);
    // Shown, not dropped: a person sees what the file holds.
    expect(out).toContain('id\\x1b[2J\\x1b]52;c;');
    expect(out).toContain('| ok\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07\n');
    expect(out).toContain('done\\u202e');
    expect(out).toContain('bad lines:');
    // Columns line up as measured on what is printed.
    const rows = out.split('\n').filter((line) => line.includes('  done'));
    expect(new Set(rows.map((line) => line.indexOf('  done'))).size).toBe(1);
  });

  test('--strict names the bad line with its escapes shown', async () => {
    const { code, err } = await run(['summarize', injection!.file, '--strict']);
    expect(code).toBe(1);
    expect(err).toContain('1 bad line');
    expect(err).not.toMatch(CONTROL);
  });

  test('--json is the same data, with C1 and bidi controls as \\u escapes', async () => {
    const { out } = await run(['summarize', injection!.file, '--json']);
    expect(out).not.toMatch(CONTROL);
    const summary = JSON.parse(out) as { calls: { id: string; terminal: { output: string } | null }[] };
    expect(summary.calls[0]?.id).toBe('id\u001b[2J\u001b]52;c;ZWNobyBwd25lZA==\u0007');
    expect(summary.calls[1]?.terminal?.output).toBe('ok\u001b[2J\u001b]52;c;cm0gLXJmIH4=\u0007\r\ndone\u202e');
  });

  test('terminalSafe keeps newlines, tabs and ordinary text', () => {
    expect(terminalSafe('a\tb\nc — ü 日本')).toBe('a\tb\nc — ü 日本');
    expect(terminalSafe('\u001b]0;title\u0007\u009b2J')).toBe('\\x1b]0;title\\x07\\x9b2J');
  });

  test('summarize --json | head and export | head: stop quietly when head has read enough', { timeout: 120_000 }, async () => {
    const outDir = join(dir, 'cli');
    await build({
      root: ROOT,
      configFile: false,
      logLevel: 'silent',
      publicDir: false,
      build: { ssr: true, outDir, emptyOutDir: true, target: 'node20', rollupOptions: { input: { loupe: join(ROOT, 'src/cli/loupe.ts') }, output: { format: 'es', entryFileNames: '[name].js' } } },
      ssr: { noExternal: true },
    });
    // 20,000 calls: far more JSON than a pipe holds, so the write is still going when head exits.
    const [fanOut] = writeHostileCases(dir, 'terminal-fan-out');
    const result = spawnSync('bash', ['-c', 'node "$0" summarize "$1" --json | head -n 3 >/dev/null; echo "loupe exited ${PIPESTATUS[0]}"', join(outDir, 'loupe.js'), fanOut!.file], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('loupe exited 0\n');
    const exported = spawnSync('bash', ['-c', 'node "$0" export "$1" --format jsonl | head -c 100 >/dev/null; echo "loupe exited ${PIPESTATUS[0]}"', join(outDir, 'loupe.js'), fanOut!.file], {
      encoding: 'utf8',
    });
    expect(exported.stderr).toBe('');
    expect(exported.stdout).toBe('loupe exited 0\n');
  });
});
