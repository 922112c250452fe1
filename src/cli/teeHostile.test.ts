// `loupe tee` against what could turn it: a line too long to record, links planted where the
// capture and its marker go, a capture cut mid-line by a killed tee, and a client that stops reading.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildTee, type BuiltTee } from './testing/buildTee';

let work: string;
let built: BuiltTee;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loupe-tee-hostile-'));
  built = await buildTee(join(work, 'built'));
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Tee {
  child: ChildProcessWithoutNullStreams;
  closed: Promise<[number | null, NodeJS.Signals | null]>;
  stdout: () => Buffer;
  stderr: () => string;
}

/** tee around `node -e SCRIPT`, recording to `capture`. */
function startTee(capture: string, script: string, env: Record<string, string> = {}, readStdout = true): Tee {
  const child = spawn(process.execPath, [built.tee, '--out', capture, '--', process.execPath, '-e', script], { env: { ...process.env, ...env }, stdio: 'pipe' });
  children.push(child);
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('close', (code, signal) => done([code, signal])));
  const out: Buffer[] = [];
  let err = '';
  if (readStdout) child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { child, closed, stdout: () => Buffer.concat(out), stderr: () => err };
}

interface CaptureRecord {
  dir: string;
  msg?: unknown;
  text?: string;
  too_long?: { bytes: number; offset: number };
}

function records(path: string): CaptureRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as CaptureRecord);
}

describe('a line too long to record', () => {
  const LIMIT = 64 * 1024;
  const LONG = 1024 * 1024;
  // The agent writes a message, a line of LONG zero bytes, and a message; the same on stderr; and
  // says how many bytes it read from the client.
  const AGENT = `
    const long = Buffer.alloc(${LONG}, 0);
    process.stdout.write('{"jsonrpc":"2.0","method":"before","params":{}}\\n');
    process.stdout.write(long);
    process.stdout.write('\\n{"jsonrpc":"2.0","method":"after","params":{}}\\n');
    process.stderr.write(Buffer.concat([long, Buffer.from('\\nstderr after\\n')]));
    let read = 0;
    process.stdin.on('data', (chunk) => (read += chunk.length));
    process.stdin.on('end', () => process.stderr.write('read ' + read + '\\n'));
  `;

  test('is recorded as what it is (length, where it starts, its first bytes); the rest of the session is recorded and the traffic passes whole', async () => {
    const capture = join(work, 'long.jsonl');
    const tee = startTee(capture, AGENT, { LOUPE_TEE_MAX_LINE_BYTES: String(LIMIT) });
    const fromClient = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"big","params":{"text":"${'y'.repeat(LONG)}"}}\n{"jsonrpc":"2.0","id":2,"method":"small","params":{}}\n`);
    tee.child.stdin.end(fromClient);
    expect(await tee.closed).toEqual([0, null]);

    // The traffic, untouched.
    const firstLine = '{"jsonrpc":"2.0","method":"before","params":{}}\n';
    expect(tee.stdout().equals(Buffer.concat([Buffer.from(firstLine), Buffer.alloc(LONG, 0), Buffer.from('\n{"jsonrpc":"2.0","method":"after","params":{}}\n')]))).toBe(true);
    expect(tee.stderr()).toContain(`read ${fromClient.length}\n`);

    const byDir = (dir: string) => records(capture).filter((r) => r.dir === dir);
    const [before, long, after] = byDir('agent->client');
    expect(before?.msg).toEqual({ jsonrpc: '2.0', method: 'before', params: {} });
    expect(long?.too_long).toMatchObject({ bytes: LONG, offset: firstLine.length });
    // eslint-disable-next-line no-control-regex -- the line was zero bytes
    expect(long?.text).toMatch(/^\[loupe tee: a line of 1,048,576 bytes, too long to record; its first bytes:\] \u0000+$/);
    expect(Buffer.byteLength(long!.text!)).toBeLessThan(LIMIT);
    expect(after?.msg).toEqual({ jsonrpc: '2.0', method: 'after', params: {} });
    expect(byDir('agent->client')).toHaveLength(3);

    const [big, small] = byDir('client->agent');
    expect(big?.too_long).toMatchObject({ bytes: fromClient.indexOf('\n'), offset: 0 });
    expect(big?.text).toContain('{"jsonrpc":"2.0","id":1,"method":"big","params":{"text":"yyy');
    expect(small?.msg).toEqual({ jsonrpc: '2.0', id: 2, method: 'small', params: {} });

    const stderrLines = byDir('stderr');
    expect(stderrLines[0]?.too_long).toMatchObject({ bytes: LONG, offset: 0 });
    expect(stderrLines.slice(1).map((r) => r.text)).toEqual(['stderr after', `read ${fromClient.length}`]);

    // And tee says so, once per line, where the editor shows the agent's log.
    expect(tee.stderr()).toContain(`loupe tee: a line of 1,048,576 bytes (agent->client, from byte ${firstLine.length}) is too long to record (the limit is 65,536 bytes): the capture keeps its length and first bytes\n`);
    expect(tee.stderr()).toContain('loupe tee: a line of 1,048,576 bytes (stderr, from byte 0) is too long to record');
  });

  test('a line that is not a JSON message is held to an eighth of the limit (escaping can make it six times longer)', async () => {
    const capture = join(work, 'long-text.jsonl');
    const text = 'é'.repeat(5000);
    const tee = startTee(capture, `process.stdout.write(${JSON.stringify(`${text}
{"jsonrpc":"2.0","method":"after","params":{}}
`)})`, { LOUPE_TEE_MAX_LINE_BYTES: String(LIMIT) });
    tee.child.stdin.end();
    expect(await tee.closed).toEqual([0, null]);
    const [long, after] = records(capture);
    expect(long?.too_long).toMatchObject({ bytes: Buffer.byteLength(text), offset: 0 });
    expect(long?.text).toContain('éééé');
    expect(after?.msg).toEqual({ jsonrpc: '2.0', method: 'after', params: {} });
    expect(tee.stderr()).toContain('loupe tee: a line of 10,000 bytes (agent->client, from byte 0) is too long to record (the limit is 8,192 bytes for a line that is not a JSON message)');
  });
});

describe('--out FILE in a folder others can write to', () => {
  test('a symbolic link at FILE is refused: its target is not written and no agent is started', async () => {
    const folder = mkdtempSync(join(work, 'link-'));
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const capture = join(folder, 'capture.jsonl');
    symlinkSync(victim, capture);
    const tee = startTee(capture, 'console.log("started")');
    tee.child.stdin.end();
    const [code] = await tee.closed;
    expect(code).toBe(1);
    expect(tee.stderr()).toBe(`loupe tee: cannot write the capture ${capture}: it is a symbolic link, not a regular file\n`);
    expect(tee.stdout().toString()).toBe('');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(existsSync(`${capture}.live`)).toBe(false);
  });

  test('a symbolic link at FILE.live is left alone: its target is not overwritten, and the capture is still recorded', async () => {
    const folder = mkdtempSync(join(work, 'live-link-'));
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const capture = join(folder, 'capture.jsonl');
    symlinkSync(victim, `${capture}.live`);
    const tee = startTee(capture, 'console.log(JSON.stringify({ jsonrpc: "2.0", method: "hello", params: {} }))');
    tee.child.stdin.end();
    expect(await tee.closed).toEqual([0, null]);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(`${capture}.live`).isSymbolicLink()).toBe(true);
    expect(readlinkSync(`${capture}.live`)).toBe(victim);
    expect(records(capture).map((r) => r.msg)).toEqual([{ jsonrpc: '2.0', method: 'hello', params: {} }]);
    expect(statSync(capture).mode & 0o777).toBe(0o600);
    expect(tee.stderr()).toContain(`loupe tee: not marking the capture live: ${capture}.live is not a marker tee wrote`);
  });

  test('a FIFO at FILE is refused without waiting for a reader', async () => {
    const folder = mkdtempSync(join(work, 'fifo-'));
    const capture = join(folder, 'capture.jsonl');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [capture]);
    const tee = startTee(capture, 'console.log("started")');
    tee.child.stdin.end();
    const [code] = await tee.closed;
    expect(code).toBe(1);
    expect(tee.stderr()).toBe(`loupe tee: cannot write the capture ${capture}: it is not a regular file\n`);
  });
});

test('appending to a capture that a killed tee left mid-line starts on a line of its own', async () => {
  const capture = join(work, 'half.jsonl');
  const half = '{"t_ms":1,"dir":"agent->client","msg":{"jsonrpc":"2.0","method":"session/upd';
  writeFileSync(capture, half, { mode: 0o600 });
  const tee = startTee(capture, 'console.log(JSON.stringify({ jsonrpc: "2.0", method: "next", params: {} }))');
  tee.child.stdin.end();
  expect(await tee.closed).toEqual([0, null]);
  const lines = readFileSync(capture, 'utf8').split('\n');
  expect(lines[0]).toBe(half);
  expect(JSON.parse(lines[1]!)).toMatchObject({ dir: 'agent->client', msg: { method: 'next' } });
});

test('SIGTERM while the client reads nothing: the agent gets it, and tee exits', async () => {
  const capture = join(work, 'unread.jsonl');
  // Floods stdout until killed.
  const flood = `
    const line = Buffer.from('{"jsonrpc":"2.0","method":"fill","params":{"x":"${'a'.repeat(200)}"}}\\n'.repeat(300));
    const more = () => { while (process.stdout.write(line)); process.stdout.once('drain', more); };
    more();
  `;
  const tee = startTee(capture, flood, {}, false);
  // The client's pipe and tee's buffer are full once tee has recorded a few megabytes and reads no more.
  await expect.poll(() => (existsSync(capture) ? statSync(capture).size : 0), { timeout: 30_000 }).toBeGreaterThan(1024 * 1024);
  tee.child.kill('SIGTERM');
  expect(await tee.closed).toEqual([143, null]);
  expect(existsSync(`${capture}.live`)).toBe(false);
});
