// A session file its user may not read (mode 000): every command says so in one line and exits 1,
// as for a missing file; none prints a stack trace, and `open` serves nothing.
//
// Run as the built CLI in a child process, as a person runs it. Root reads a file of any mode, so
// when these tests run as root the child runs as `nobody` (uid/gid 65534), for whom mode 000 means
// what it means for everyone else; the first test checks that the file really is unreadable to it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childUser, reachableTemp } from './testing/asUser';
import { buildCli } from './testing/buildCli';

const ROOT = join(import.meta.dirname, '../..');
const user = childUser;

let work: string;
let cli: string;
let file: string;

beforeAll(async () => {
  work = mkdtempSync(join(reachableTemp(), 'loupe-unreadable-'));
  // The folder and the CLI are readable by the child's user; only the session is not.
  chmodSync(work, 0o755);
  cli = await buildCli(join(work, 'cli'));
  file = join(work, 'session.jsonl');
  copyFileSync(join(ROOT, 'fixtures/grok/esc-interrupt.updates.jsonl'), file);
  chmodSync(file, 0o000);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `loupe ARGS`; a command that starts serving (prints its address) is stopped and reported as such. */
function loupe(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { ...user, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // `open` printed its address: it is serving the file. Stop it; the assertions say the rest.
      if (args[0] === 'open' && out.includes('\n')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('a session file that cannot be read (mode 000)', () => {
  test('is unreadable to the user the commands run as', () => {
    const read = spawnSync(process.execPath, ['-e', 'require("fs").readFileSync(process.argv[1])', file], { ...user, encoding: 'utf8' });
    expect(read.status).not.toBe(0);
    expect(read.stderr).toContain('EACCES');
  });

  test.each([
    ['summarize', [], 'loupe summarize'],
    ['summarize', ['--json', '--strict'], 'loupe summarize'],
    ['export', ['--format', 'md'], 'loupe export'],
    ['export', ['--format', 'jsonl', '--redact'], 'loupe export'],
    ['open', ['--no-browser', '--port', '0'], 'loupe open'],
  ])('loupe %s %j says so in one line and exits 1', async (command, options, prefix) => {
    const { code, out, err } = await loupe([command, file, ...options]);
    expect({ code, out, err }).toEqual({ code: 1, out: '', err: `${prefix}: no permission to read ${file}\n` });
  });
});
