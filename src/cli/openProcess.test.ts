// `loupe open` as the real process it is: signals end it and clean up behind it, and nothing in the
// file system (a FIFO where a marker should be) can stop its event loop.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildTee, type BuiltTee } from './testing/buildTee';

const LINE_1 = '{"t_ms":1,"dir":"client->agent","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}\n';

let work: string;
let built: BuiltTee;
let appDir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loupe-open-process-'));
  built = await buildTee(join(work, 'built'));
  appDir = join(work, 'app');
  mkdirSync(appDir);
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Loupe</title>');
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  closed: Promise<number | null>;
}

async function startOpen(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [built.open, '--no-browser', ...args], { env: { ...process.env, LOUPE_TEST_APP_DIR: appDir, ...env }, stdio: 'pipe' });
  children.push(child);
  const closed = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) done(out.split('\n')[0]!);
    });
    void closed.then((code) => fail(new Error(`loupe open exited with ${code} before printing its address`)));
  });
  return { child, url, closed };
}

/** Reads a response's body until it holds `text`, then leaves it open. */
async function readUntil(body: ReadableStream<Uint8Array>, text: string): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return seen;
}

describe('a FIFO where a live marker should be', () => {
  test('following a capture: the session is served, the server keeps answering, and SIGTERM stops it', async () => {
    const folder = mkdtempSync(join(work, 'fifo-'));
    const capture = join(folder, 'capture.jsonl');
    writeFileSync(capture, LINE_1);
    // Reading a FIFO waits for a writer that never comes.
    execFileSync('mkfifo', [`${capture}.live`]);
    const { child, url, closed } = await startOpen(['--follow', capture]);
    const reading = new AbortController();
    const session = await fetch(url.replace('?src=session', 'session'), { signal: reading.signal });
    expect(session.status).toBe(200);
    expect(await readUntil(session.body!, LINE_1)).toBe(LINE_1);
    expect((await fetch(url)).status).toBe(200);
    reading.abort();
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
  });

  test('listing the recordings: the capture is listed, not live, and the server keeps answering', async () => {
    const folder = mkdtempSync(join(work, 'fifo-list-'));
    writeFileSync(join(folder, 'capture.jsonl'), LINE_1);
    execFileSync('mkfifo', [join(folder, 'capture.jsonl.live')]);
    // A scratch home: without a path, loupe open indexes every folder where agents keep sessions.
    const home = mkdtempSync(join(work, 'home-'));
    const { child, url, closed } = await startOpen([], { LOUPE_TEST_CAPTURES: folder, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local/state') });
    const listing = (await (await fetch(url.replace('?library', 'recordings'))).json()) as { recordings: { name: string; live: boolean }[] };
    expect(listing.recordings.map((r) => [r.name, r.live])).toEqual([['capture.jsonl', false]]);
    expect(await (await fetch(url.replace('?library', 'recordings/capture.jsonl'))).text()).toBe(LINE_1);
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
  });
});

describe('cmd | loupe open -', () => {
  test.each(['SIGHUP', 'SIGINT', 'SIGTERM'] as const)('%s: the stdin spool is removed', async (signal) => {
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const { child, url, closed } = await startOpen(['-'], { TMPDIR: tmp });
    child.stdin.write(LINE_1);
    const reading = new AbortController();
    const session = await fetch(url.replace('?src=session', 'session'), { signal: reading.signal });
    expect(await readUntil(session.body!, LINE_1)).toBe(LINE_1);
    reading.abort();
    // The spool is there while it runs (so the check below can fail)...
    expect(readdirSync(tmp).filter((name) => name.startsWith('loupe-open-'))).toHaveLength(1);
    child.kill(signal);
    await closed;
    // ...and gone once it has stopped, whichever signal stopped it (a closed terminal sends SIGHUP).
    expect(readdirSync(tmp)).toEqual([]);
  });
});
