// What `loupe ls DIR` and `loupe index DIR` say of a folder that is not there, and what a command
// says of a negative number given to an option that wants a count: one line naming what is wrong.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { main as ls } from './ls';
import { main as index } from './indexCommand';
import { parseOpenArgs } from './open';
import type { CliIo } from './summarize';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'loupe-list-args-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function run(main: (argv: readonly string[], io: CliIo) => Promise<number>, argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => void (out += `${text}\n`), err: (text) => void (err += `${text}\n`) });
  return { code, out, err };
}

test('loupe ls of a folder that is not there: exit 1, one line naming it, nothing listed', async () => {
  const missing = join(home, 'no-such-folder');
  for (const argv of [[missing], ['--json', missing], [home, missing]]) {
    expect(await run(ls, argv)).toEqual({ code: 1, out: '', err: `loupe ls: no such folder: ${missing}\n` });
  }
  // A folder with nothing in it is not an error.
  expect(await run(ls, [home])).toMatchObject({ code: 0, err: '' });
});

test('loupe index of a folder that is not there: exit 1, one line, and no tables written', async () => {
  const missing = join(home, 'no-such-folder');
  const out = join(home, 'index');
  expect(await run(index, [missing, '--out', out])).toEqual({ code: 1, out: '', err: `loupe index: no such folder: ${missing}\n` });
  expect(existsSync(out)).toBe(false);
});

test('a negative number for a count says what is wrong with it, not that the option needs a value', async () => {
  const out = join(home, 'index');
  const jobs = await run(index, [home, '--out', out, '--jobs', '-1']);
  expect(jobs.code).toBe(2);
  expect(jobs.err).toMatch(/^loupe index: --jobs must be a whole number of threads, 0 or more \(0 reads without threads\), not -1\n/);
  expect((await run(index, [home, '--out', out, '--row-group', '-5'])).err).toMatch(/^loupe index: --row-group must be a whole number of rows, 1 or more, not -5\n/);
  expect((await run(index, [home, '--out', out, '--jobs', 'many'])).err).toMatch(/--jobs must be a whole number of threads, 0 or more \(0 reads without threads\), not many/);
  expect(parseOpenArgs(['x.jsonl', '--port', '-1'])).toEqual({ error: '--port must be a whole number from 0 to 65535, not -1' });
  expect(existsSync(out)).toBe(false);
  // A value still missing is still said so.
  expect((await run(index, [home, '--jobs'])).err).toMatch(/^loupe index: --jobs needs a value\n/);
});
