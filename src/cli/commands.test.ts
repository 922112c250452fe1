// What every command does with `--help`, `-h` and an option it does not know, through each
// command's own entry (src/cli/dispatch.ts hands each the arguments after its name).
import { describe, expect, test } from 'vitest';
import type { CliIo } from './summarize';
import { main as summarize } from './summarize';
import { main as exportMain } from './export';
import { main as open } from './open';
import { main as tee } from './tee';
import { main as ls } from './ls';
import { main as diff } from './diff';
import { main as index } from './indexCommand';
import { run as loupe } from './dispatch';
import { readFileSync } from 'node:fs';

const SESSION = 'fixtures/grok/esc-interrupt.updates.jsonl';

type Main = (argv: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: [string, Main, string[]][] = [
  // summarize's entry takes its own name first.
  ['summarize', (argv, io) => summarize(['summarize', ...argv], io), [SESSION]],
  ['export', exportMain, [SESSION, '--format', 'md']],
  // open would serve and wait for Ctrl-C: every case below ends before it listens.
  ['open', (argv, io) => open(argv, io, { openBrowser: () => undefined }), [SESSION, '--no-browser']],
  ['tee', tee, ['--', process.execPath, '-e', '']],
  ['ls', ls, ['--json', 'fixtures/no-such-folder']],
  ['diff', diff, [SESSION, SESSION]],
  // Every case below ends before it writes: --out is never made.
  ['index', index, ['--json', 'fixtures/no-such-folder', '--out', 'fixtures/no-such-folder/index']],
];

async function run(main: Main, argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
  return { code, out, err };
}

describe.each(COMMANDS)('loupe %s', (name, main, valid) => {
  test.each(['--help', '-h'])('%s prints the help on stdout and exits 0', async (flag) => {
    // Alone, and among valid arguments (before tee's `--`: after it, the words are the agent's).
    const at = valid.includes('--') ? valid.indexOf('--') : valid.length;
    for (const argv of [[flag], [...valid.slice(0, at), flag, ...valid.slice(at)]]) {
      const { code, out, err } = await run(main, argv);
      expect({ argv, code, err }).toEqual({ argv, code: 0, err: '' });
      expect(out).toMatch(new RegExp(`^usage: loupe ${name} `));
      // The help says more than the usage line.
      expect(out.trim().split('\n').length).toBeGreaterThan(3);
    }
  });

  test('an option it does not know is an error naming it, exit 2', async () => {
    const { code, out, err } = await run(main, ['--no-such-flag', ...valid]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/unknown option --no-such-flag\b/);
    expect(err).toMatch(new RegExp(`usage: loupe ${name} `));
  });
});

describe('loupe summarize', () => {
  test('a misspelt flag is not ignored: the summary is not printed', async () => {
    const { code, out, err } = await run(summarize, ['summarize', SESSION, '--jsn']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^loupe summarize: unknown option --jsn\n/);
  });

  test('-h is not read as a file name, and a file called -h can still be given after --', async () => {
    expect((await run(summarize, ['summarize', '-h'])).err).not.toMatch(/no such file/);
    const dashed = await run(summarize, ['summarize', '--', '-h']);
    expect(dashed.code).toBe(1);
    expect(dashed.err).toBe('loupe summarize: no such file: -h\n');
  });

  test('no FILE, or two, is a usage error', async () => {
    const none = await run(summarize, ['summarize']);
    expect([none.code, none.out]).toEqual([2, '']);
    expect(none.err).toMatch(/no FILE given/);
    const two = await run(summarize, ['summarize', SESSION, SESSION]);
    expect([two.code, two.out]).toEqual([2, '']);
    expect(two.err).toMatch(/one FILE at a time/);
  });
});

describe('loupe export', () => {
  test('says which argument is wrong', async () => {
    expect((await run(exportMain, [SESSION])).err).toMatch(/^loupe export: --format is needed\n/);
    expect((await run(exportMain, [SESSION, '--format', 'pdf'])).err).toMatch(/^loupe export: --format is jsonl, html or md, not pdf\n/);
    expect((await run(exportMain, [SESSION, '--format'])).err).toMatch(/^loupe export: --format needs a value\n/);
  });
});

describe('loupe', () => {
  test('--version, -V and version print the package.json version on stdout, exit 0', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', 'version']) {
      expect(await run(loupe, [flag])).toEqual({ code: 0, out: `loupe ${version}\n`, err: '' });
    }
    expect((await run(loupe, ['--help'])).out).toMatch(/loupe --version/);
  });

  test('--help says where Claude Code, Codex and Gemini CLI keep their own sessions, and how to open them', async () => {
    const { out } = await run(loupe, ['--help']);
    for (const place of ['~/.claude/projects/', '~/.codex/sessions/', '~/.gemini/tmp/<project>/chats/', '`loupe open PATH`']) expect(out).toContain(place);
    expect(out.split('\n')[0]).toMatch(/agents' own logs/);
  });
});

describe('one error style', () => {
  test.each([
    ['summarize', (argv: string[], io: CliIo) => summarize(['summarize', ...argv], io), ['no/such/file.jsonl']],
    ['summarize', (argv: string[], io: CliIo) => summarize(['summarize', ...argv], io), ['--strict', 'fixtures/README.md']],
    ['export', exportMain, ['no/such/file.jsonl', '--format', 'md']],
    ['open', (argv: string[], io: CliIo) => open(argv, io, { openBrowser: () => undefined }), ['no/such/file.jsonl', '--no-browser']],
    ['diff', diff, ['no/such/file.jsonl', SESSION]],
    ['ls', ls, ['no/such/folder']],
    ['index', index, ['no/such/folder']],
  ] as [string, Main, string[]][])('loupe %s: its error is headed by the command, as every command\'s are', async (name, main, argv) => {
    const { code, err } = await run(main, argv);
    expect(code).not.toBe(0);
    expect(err).toMatch(new RegExp(`^loupe ${name}: `));
  });
});
