import { appendFileSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadSqlJs } from '../ingest/sqlite/sqljs';
import { main } from './open';
import { startServer, type RunningServer, type SessionInput } from './openServer';

const LINE_1 = '{"t_ms":1,"dir":"client->agent","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}\n';
const LINE_2 = '{"t_ms":2,"dir":"agent->client","msg":{"jsonrpc":"2.0","id":0,"result":{}}}\n';
const LINE_3 = '{"t_ms":3,"dir":"client->agent","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}}\n';
const SECRET = 'not for the browser';

let dir: string;
let appDir: string;
let captures: string;
let sessionPath: string;
const servers: RunningServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-open-test-'));
  appDir = join(dir, 'app');
  captures = join(dir, 'captures');
  mkdirSync(join(appDir, 'assets'), { recursive: true });
  mkdirSync(captures);
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Loupe</title>');
  writeFileSync(join(appDir, 'assets', 'index.js'), 'export {};');
  writeFileSync(join(appDir, 'assets', 'hash.wasm'), Buffer.from([0, 97, 115, 109]));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  sessionPath = join(dir, 'my run+1.jsonl');
  writeFileSync(sessionPath, LINE_1);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(session?: SessionInput, compareWith?: string): Promise<RunningServer> {
  // A short poll: the file watcher usually wakes the reader first; this bounds the wait when it does not.
  const server = await startServer({ appDir, capturesDir: captures, port: 0, pollMs: 50, ...(session ? { session } : {}), ...(compareWith !== undefined ? { compareWith } : {}) });
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A raw request: the path is sent exactly as written (no normalising of `..`), headers as given. */
function open(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

async function get(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await open(server, path, headers);
  let body = '';
  res.setEncoding('utf8');
  for await (const chunk of res) body += chunk as string;
  return { status: res.statusCode ?? 0, headers: res.headers, body };
}

/** Reads an open response until `predicate` holds for what arrived so far. */
function readUntil(res: IncomingMessage, predicate: (text: string) => boolean): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: string) => {
      text += chunk;
      if (predicate(text)) {
        res.off('data', onData);
        res.pause();
        resolve(text);
      }
    };
    res.on('data', onData);
    res.resume();
    res.on('error', reject);
    res.on('end', () => (predicate(text) ? resolve(text) : reject(new Error(`response ended with ${JSON.stringify(text)}`))));
  });
}

function ended(res: IncomingMessage): Promise<string> {
  let rest = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (rest += chunk));
  res.resume();
  return new Promise((resolve, reject) => {
    res.on('end', () => resolve(rest));
    res.on('error', reject);
  });
}

describe('loupe open server: what it serves', () => {
  test("a SQLite database (OpenCode's) is sent whole with the committed frames of its -wal applied: the page gets no -wal of its own", async () => {
    const fixtures = join(import.meta.dirname, '../../fixtures/sqlite');
    const db = join(dir, 'opencode.db');
    copyFileSync(join(fixtures, 'wal-with-uncommitted-tail.db'), db);
    copyFileSync(join(fixtures, 'wal-with-uncommitted-tail.db-wal'), `${db}-wal`);
    const server = await serve({ kind: 'file', path: db, follow: true });
    const res = await open(server, `/${server.token}/session`);
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const body = new Uint8Array(Buffer.concat(chunks));
    expect(Number(res.headers['content-length'])).toBe(body.length);
    const SQL = await loadSqlJs();
    const served = new SQL.Database(body);
    expect(served.exec('SELECT count(*) FROM t')[0]?.values).toEqual([[3]]);
    served.close();
  });

  test('the page, its assets and the session are served under the token, with safe headers', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    // Named after the file: the viewer calls the session what the address's last segment says.
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/${server.token}/?src=session/${encodeURIComponent(basename(sessionPath))}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);

    const page = await get(server, `/${server.token}/?src=session`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Loupe</title>');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const script = await get(server, `/${server.token}/assets/index.js`);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await get(server, `/${server.token}/assets/hash.wasm`)).headers['content-type']).toBe('application/wasm');

    expect((await get(server, `/${server.token}/session`)).body).toBe(LINE_1);
    const session = await get(server, `/${server.token}/session/${encodeURIComponent(basename(sessionPath))}`);
    expect(session.status).toBe(200);
    expect(session.body).toBe(LINE_1);
    // The viewer refuses HTML; a session is never labelled as a page.
    expect(session.headers['content-type']).toBe('application/x-ndjson');
    expect(session.headers['content-length']).toBe(String(Buffer.byteLength(LINE_1)));
  });

  test('the token without its slash redirects to the page, keeping the query', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    const res = await get(server, `/${server.token}?src=session`);
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`/${server.token}/?src=session`);
  });

  test('a localhost Host and a same-server Origin are accepted', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    const res = await get(server, `/${server.token}/session`, { host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` });
    expect(res.status).toBe(200);
    expect(res.body).toBe(LINE_1);
  });
});

describe('loupe open server: what it refuses', () => {
  test('a request without the token, or with a wrong one, is refused and reads nothing', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    const wrong = server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A');
    for (const path of ['/', '/session', '/index.html', `/${wrong}/session`, `/${server.token.slice(1)}/session`, `/x${server.token}/session`]) {
      const res = await get(server, path);
      expect(res.status, path).toBe(403);
      expect(res.body).not.toContain('initialize');
    }
  });

  test('a Host other than this server (DNS rebinding) is refused', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    for (const host of [`evil.example:${server.port}`, '127.0.0.1', `127.0.0.1:${server.port + 1}`, `localhost.evil.example:${server.port}`]) {
      const res = await get(server, `/${server.token}/session`, { host });
      expect(res.status, host).toBe(403);
      expect(res.body).not.toContain('initialize');
    }
  });

  test('a request from a page of another origin is refused', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${server.port + 1}`, `https://127.0.0.1:${server.port}`]) {
      const res = await get(server, `/${server.token}/session`, { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body).not.toContain('initialize');
    }
  });

  test('paths that climb out of the viewer folder are refused, plain or encoded', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    const t = server.token;
    for (const path of [
      `/${t}/../secret.txt`,
      `/${t}/../../etc/passwd`,
      `/${t}/%2e%2e/secret.txt`,
      `/${t}/%2E%2E/%2e%2e/etc/passwd`,
      `/${t}/..%2fsecret.txt`,
      `/${t}/assets/..%2f..%2fsecret.txt`,
      `/${t}/..%5csecret.txt`,
      `/${t}/recordings/..%2fsecret.txt`,
      `/${t}/recordings/%2e%2e`,
      `/${t}/%00`,
    ]) {
      const res = await get(server, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body, path).not.toContain(SECRET);
    }
  });

  test('only GET and HEAD are answered', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: `/${server.token}/session` }, resolve);
      req.on('error', reject);
      req.end('x');
    });
    expect(res.statusCode).toBe(405);
    res.resume();
  });
});

describe('loupe open --vs: a session compared with another run', () => {
  test('the page shows the other run as A beside the followed session as B; each is served under its own name', async () => {
    const other = join(dir, 'old run.jsonl');
    writeFileSync(other, LINE_1 + LINE_2);
    const server = await serve({ kind: 'file', path: sessionPath, follow: true }, other);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/${server.token}/?src=compare/${encodeURIComponent('old run.jsonl')}&vs=session/${encodeURIComponent(basename(sessionPath))}`);
    const compared = await get(server, `/${server.token}/compare/${encodeURIComponent('old run.jsonl')}`);
    expect(compared).toMatchObject({ status: 200, body: LINE_1 + LINE_2 });
    expect(compared.headers['content-length']).toBe(String(Buffer.byteLength(LINE_1 + LINE_2)));
    // The followed session still grows.
    const res = await open(server, `/${server.token}/session`);
    expect(await readUntil(res, (text) => text === LINE_1)).toBe(LINE_1);
    appendFileSync(sessionPath, LINE_3);
    expect(await readUntil(res, (text) => text === LINE_3)).toBe(LINE_3);
    res.destroy();
  });

  test('without --vs there is nothing at compare/', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    expect((await get(server, `/${server.token}/compare/x.jsonl`)).status).toBe(404);
  });
});

describe('loupe open server: following', () => {
  test('--follow keeps the response open and sends each appended line as it is written', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: true });
    const res = await open(server, `/${server.token}/session`);
    expect(res.headers['content-length']).toBeUndefined();
    expect(await readUntil(res, (text) => text === LINE_1)).toBe(LINE_1);
    appendFileSync(sessionPath, LINE_2);
    expect(await readUntil(res, (text) => text === LINE_2)).toBe(LINE_2);
    appendFileSync(sessionPath, LINE_3);
    expect(await readUntil(res, (text) => text === LINE_3)).toBe(LINE_3);
    res.destroy();
  });

  test('a followed file that is truncated ends the response', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: true });
    const res = await open(server, `/${server.token}/session`);
    await readUntil(res, (text) => text === LINE_1);
    const rest = ended(res);
    writeFileSync(sessionPath, '');
    expect(await rest).toBe('');
  });

  test('a tee capture is followed until its live marker goes, and its last bytes are sent first', async () => {
    const capture = join(captures, '2026-01-01T00-00-00-000Z_agent_1.jsonl');
    writeFileSync(capture, LINE_1);
    writeFileSync(`${capture}.live`, JSON.stringify({ pid: process.pid, agent: 'agent', startedMs: 1 }));
    const server = await serve({ kind: 'file', path: capture, follow: true });
    const res = await open(server, `/${server.token}/session`);
    await readUntil(res, (text) => text === LINE_1);
    const rest = ended(res);
    // tee's last write, then its marker goes: the reader must still get the line.
    appendFileSync(capture, LINE_2);
    rmSync(`${capture}.live`);
    expect(await rest).toBe(LINE_2);
  });

  test('- reads the stream as it arrives; every request (a reload) gets it all, and ends when it ends', async () => {
    const stdin = new PassThrough();
    const server = await serve({ kind: 'stream', stream: stdin });
    stdin.write(LINE_1);
    const first = await open(server, `/${server.token}/session`);
    expect(await readUntil(first, (text) => text === LINE_1)).toBe(LINE_1);
    stdin.write(LINE_2);
    expect(await readUntil(first, (text) => text === LINE_2)).toBe(LINE_2);

    const reload = await open(server, `/${server.token}/session`);
    expect(await readUntil(reload, (text) => text === LINE_1 + LINE_2)).toBe(LINE_1 + LINE_2);
    const firstRest = ended(first);
    const reloadRest = ended(reload);
    stdin.end(LINE_3);
    expect(await firstRest).toBe(LINE_3);
    expect(await reloadRest).toBe(LINE_3);

    const after = await get(server, `/${server.token}/session`);
    expect(after.body).toBe(LINE_1 + LINE_2 + LINE_3);
  });

  test('--follow sends a session with its sub-agents\' files, one that appears later too, and never runs two files\' lines together', async () => {
    const session = join(dir, 's1.jsonl');
    const subagents = join(dir, 's1', 'subagents');
    const line = (text: string) => `{"type":"user","text":"${text}"}\n`;
    writeFileSync(session, line('main 1'));
    const server = await serve({ kind: 'file', path: session, follow: true });
    const res = await open(server, `/${server.token}/session`);
    expect(res.headers['content-length']).toBeUndefined();
    let sent = await readUntil(res, (text) => text === line('main 1'));
    mkdirSync(subagents, { recursive: true });
    writeFileSync(join(subagents, 'agent-a1.jsonl'), line('agent 1'));
    writeFileSync(join(subagents, 'agent-a1.meta.json'), '{"agentType":"general-purpose"}');
    sent += await readUntil(res, (text) => text === line('agent 1'));
    // Half a line of the session, then a sub-agent's line: the sub-agent's goes out first, whole.
    const half = line('main 2');
    appendFileSync(session, half.slice(0, 10));
    appendFileSync(join(subagents, 'agent-a1.jsonl'), line('agent 2'));
    sent += await readUntil(res, (text) => text === line('agent 2'));
    appendFileSync(session, half.slice(10));
    sent += await readUntil(res, (text) => text === half);
    expect(sent).toBe(line('main 1') + line('agent 1') + line('agent 2') + half);
    res.destroy();
  });

  test('a session with sub-agents\' files is sent with them when not followed, each part ending in a newline', async () => {
    const session = join(dir, 's2.jsonl');
    mkdirSync(join(dir, 's2', 'subagents'), { recursive: true });
    writeFileSync(session, '{"a":1}');
    writeFileSync(join(dir, 's2', 'subagents', 'agent-b.jsonl'), '{"b":2}\n');
    writeFileSync(join(dir, 's2', 'subagents', 'agent-a.jsonl'), '{"c":3}');
    const server = await serve({ kind: 'file', path: session, follow: false });
    const reply = await get(server, `/${server.token}/session`);
    expect(reply.body).toBe('{"a":1}\n{"c":3}\n{"b":2}\n');
  });

  test('a Codex rollout is sent with the rollouts beside it of the threads it spawned, not with others', async () => {
    const recorded = join(import.meta.dirname, '../../fixtures/subagent/codex-0.137.0_two-subagents');
    const rollouts = readdirSync(recorded).filter((name) => name.startsWith('rollout-')).sort();
    for (const name of rollouts) copyFileSync(join(recorded, name), join(dir, name));
    // Another session's rollout, written later in the same folder.
    const other = 'rollout-2026-12-02T07-00-00-01a23590-0000-7000-8000-000000000000.jsonl';
    writeFileSync(join(dir, other), '{"timestamp":"2026-12-02T07:00:00Z","type":"session_meta","payload":{"id":"01a23590-0000-7000-8000-000000000000"}}\n');
    const server = await serve({ kind: 'file', path: join(dir, rollouts[0]!), follow: false });
    const reply = await get(server, `/${server.token}/session`);
    expect(reply.body).toBe(rollouts.map((name) => readFileSync(join(recorded, name), 'utf8')).join(''));
  });

  test('closing the server ends open follows', async () => {
    const server = await serve({ kind: 'file', path: sessionPath, follow: true });
    const res = await open(server, `/${server.token}/session`);
    await readUntil(res, (text) => text === LINE_1);
    const closed = new Promise<void>((resolve) => res.on('close', resolve));
    res.resume();
    await server.close();
    await closed;
  });
});

describe('loupe open server: recordings', () => {
  function record(name: string, text: string, mtimeSec: number, livePid?: number) {
    const path = join(captures, name);
    writeFileSync(path, text);
    utimesSync(path, mtimeSec, mtimeSec);
    if (livePid !== undefined) writeFileSync(`${path}.live`, JSON.stringify({ pid: livePid, agent: 'gemini --acp', startedMs: mtimeSec * 1000 }));
    return path;
  }

  test('lists captures newest first, the ones being written marked live, markers and hidden files left out', async () => {
    record('2026-01-01T10-00-00-000Z_codex-acp_11.jsonl', LINE_1, 1_000);
    const live = record('2026-01-01T12-00-00-000Z_gemini_22.jsonl', LINE_1 + LINE_2, 3_000, process.pid);
    record('2026-01-01T11-00-00-000Z_claude_33.jsonl', LINE_1, 2_000);
    // A marker left by a tee that crashed: its process is gone, so the capture is not live.
    writeFileSync(join(captures, '2026-01-01T11-00-00-000Z_claude_33.jsonl.live'), JSON.stringify({ pid: 2 ** 22 + 17, agent: 'claude', startedMs: 0 }));
    writeFileSync(join(captures, '.hidden'), 'x');
    const server = await serve();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/${server.token}/?recordings`);

    const res = await get(server, `/${server.token}/recordings`);
    expect(res.headers['content-type']).toBe('application/json');
    const listing = JSON.parse(res.body) as { folder: string; recordings: { name: string; live: boolean; agent?: string; bytes: number; mtimeMs: number }[] };
    expect(listing.folder).toBe(captures);
    expect(listing.recordings.map((r) => [r.name, r.live, r.agent])).toEqual([
      ['2026-01-01T12-00-00-000Z_gemini_22.jsonl', true, 'gemini --acp'],
      ['2026-01-01T11-00-00-000Z_claude_33.jsonl', false, 'claude'],
      ['2026-01-01T10-00-00-000Z_codex-acp_11.jsonl', false, 'codex-acp'],
    ]);
    expect(listing.recordings[0]).toMatchObject({ bytes: Buffer.byteLength(LINE_1 + LINE_2), mtimeMs: 3_000_000 });

    // The live one is followed until tee exits; a finished one is sent whole.
    const finished = await get(server, `/${server.token}/recordings/2026-01-01T10-00-00-000Z_codex-acp_11.jsonl`);
    expect(finished.body).toBe(LINE_1);
    const following = await open(server, `/${server.token}/recordings/${encodeURIComponent('2026-01-01T12-00-00-000Z_gemini_22.jsonl')}`);
    await readUntil(following, (text) => text === LINE_1 + LINE_2);
    const rest = ended(following);
    appendFileSync(live, LINE_3);
    rmSync(`${live}.live`);
    expect(await rest).toBe(LINE_3);
  });

  test('a missing folder is an empty list; unknown names and markers are not served', async () => {
    rmSync(captures, { recursive: true });
    const server = await serve();
    expect(JSON.parse((await get(server, `/${server.token}/recordings`)).body)).toEqual({ folder: captures, recordings: [] });
    mkdirSync(captures);
    writeFileSync(join(captures, 'a.jsonl'), LINE_1);
    writeFileSync(join(captures, 'a.jsonl.live'), '{}');
    expect((await get(server, `/${server.token}/recordings/nope.jsonl`)).status).toBe(404);
    expect((await get(server, `/${server.token}/recordings/a.jsonl.live`)).status).toBe(404);
    expect((await get(server, `/${server.token}/session`)).status).toBe(404);
  });
});

describe('loupe open command', () => {
  async function run(argv: string[], stop?: AbortSignal) {
    let out = '';
    let err = '';
    const io = { out: (text: string) => (out += `${text}\n`), err: (text: string) => (err += `${text}\n`) };
    const code = await main(argv, io, { appDir, capturesDir: captures, openBrowser: () => undefined, ...(stop ? { stop } : {}) });
    return { code, out, err };
  }

  test('--help says what it does', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/usage: loupe open/);
    expect(out).toMatch(/--follow/);
  });

  test('bad arguments give one line on stderr and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [[join(dir, 'missing.jsonl')], /no such file: .*missing\.jsonl/],
      [['--bogus', sessionPath], /unknown option --bogus/],
      [['--port', 'eighty', sessionPath], /--port must be a whole number/],
      [[sessionPath, sessionPath], /one session at a time/],
      [[sessionPath, '--vs', join(dir, 'missing.jsonl')], /--vs: no such file: .*missing\.jsonl/],
      [['--vs', sessionPath], /--vs compares with PATH: give PATH too/],
    ];
    for (const [argv, message] of cases) {
      const { code, out, err } = await run(argv);
      expect(code, argv.join(' ')).not.toBe(0);
      expect(out).toBe('');
      expect(err).toMatch(message);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  test('a port in use says so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, err } = await run(['--port', String(port), '--no-browser', sessionPath]);
      expect(code).toBe(1);
      expect(err.trim()).toBe(`loupe open: port ${port} is in use`);
    } finally {
      blocker.close();
    }
  });

  test('a viewer that is not built says to build it', async () => {
    rmSync(join(appDir, 'index.html'));
    const { code, err } = await run([sessionPath, '--no-browser']);
    expect(code).toBe(1);
    expect(err).toMatch(/run npm run build/);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  test('a folder opens as a library: indexed first, then its tables and only the files they hold are served', async () => {
    const folder = join(dir, 'fleet');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'a.jsonl'), LINE_1);
    writeFileSync(join(folder, 'sub', 'b.jsonl'), LINE_1 + LINE_2);
    writeFileSync(join(folder, 'notes.json'), '{"not": "a session"}\n');
    // Written an hour ago, as finished sessions are.
    for (const file of ['a.jsonl', 'sub/b.jsonl']) utimesSync(join(folder, file), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const index = join(dir, 'index');
    const stop = new AbortController();
    let printed = '';
    let said = '';
    const running = main([folder, '--no-browser'], { out: (text) => (printed += text), err: (text) => (said += text) }, { appDir, capturesDir: captures, stop: stop.signal, indexDirOf: () => index });
    await expect.poll(() => printed, { timeout: 30_000 }).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/\?library$/);
    expect(said).toMatch(/2 sessions in .*fleet \(2 read, 0 unchanged/);
    expect(readdirSync(index).sort()).toEqual(['calls.parquet', 'manifest.json', 'sessions.parquet']);
    const at = (route: string) => fetch(new URL(route, printed));
    expect(await (await at('library')).json()).toEqual({ folder, unreadable: [] });
    const table = await at('library/sessions.parquet');
    expect(table.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(Buffer.from(await table.arrayBuffer()).subarray(0, 4).toString()).toBe('PAR1');
    expect(await (await at('library/file/sub/b.jsonl')).text()).toBe(LINE_1 + LINE_2);
    // Not a session (not in the index), not under the folder, not the recordings.
    expect((await at('library/file/notes.json')).status).toBe(404);
    expect((await at('library/file/sub/..%2F..%2Fsession.jsonl')).status).toBe(403);
    expect((await at('recordings')).status).toBe(404);
    // A link put in place of an indexed file is not followed.
    rmSync(join(folder, 'a.jsonl'));
    symlinkSync(join(folder, 'sub', 'b.jsonl'), join(folder, 'a.jsonl'));
    expect((await at('library/file/a.jsonl')).status).toBe(404);
    stop.abort();
    expect(await running).toBe(0);
  });

  test('a folder as a library reads and serves only what lies inside it: links and hard links out are left out, and said', async () => {
    const folder = join(dir, 'shared-runs');
    const outside = join(dir, 'private');
    mkdirSync(folder, { recursive: true });
    mkdirSync(outside, { recursive: true });
    const old = new Date(Date.now() - 3_600_000);
    writeFileSync(join(folder, 'mine.jsonl'), LINE_1);
    // A backslash is a character of a file name here, not a separator.
    writeFileSync(join(folder, 'run\\2.jsonl'), LINE_2);
    utimesSync(join(folder, 'run\\2.jsonl'), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    writeFileSync(join(outside, 'secret.jsonl'), LINE_1 + LINE_2);
    for (const file of [join(folder, 'mine.jsonl'), join(outside, 'secret.jsonl')]) utimesSync(file, old, old);
    symlinkSync(outside, join(folder, 'linked-folder'));
    symlinkSync(join(outside, 'secret.jsonl'), join(folder, 'linked.jsonl'));
    linkSync(join(outside, 'secret.jsonl'), join(folder, 'hard.jsonl'));
    const stop = new AbortController();
    let printed = '';
    let said = '';
    const running = main([folder, '--no-browser'], { out: (text) => (printed += text), err: (text) => (said += `${text}\n`) }, { appDir, capturesDir: captures, stop: stop.signal, indexDirOf: () => join(dir, 'index-inside') });
    await expect.poll(() => printed, { timeout: 30_000 }).toMatch(/\?library$/);
    expect(said).toMatch(/2 sessions in .*shared-runs/);
    expect(said).toMatch(/left out .*linked-folder: it is a link to .*private, outside/);
    expect(said).toMatch(/left out .*linked\.jsonl: it is a link to .*secret\.jsonl, outside/);
    expect(said).toMatch(/left out .*hard\.jsonl: it has other names \(a hard link\)/);
    const at = (route: string) => fetch(new URL(route, printed));
    for (const route of ['library/file/linked-folder/secret.jsonl', 'library/file/linked.jsonl', 'library/file/hard.jsonl']) expect((await at(route)).status, route).toBe(404);
    expect(await (await at('library/file/mine.jsonl')).text()).toBe(LINE_1);
    expect(await (await at(`library/file/${encodeURIComponent('run\\2.jsonl')}`)).text()).toBe(LINE_2);
    stop.abort();
    expect(await running).toBe(0);
  });

  test('without a path: the library of every folder where agents keep sessions, the recordings list still served beside it', async () => {
    const home = join(dir, 'home');
    const claudeLog = join(home, '.claude/projects/-work-app/s1.jsonl');
    const capture = join(home, '.local/state/loupe/captures/2026-01-01T10-00-00-000Z_agent_1.jsonl');
    mkdirSync(join(claudeLog, '..'), { recursive: true });
    mkdirSync(join(capture, '..'), { recursive: true });
    const old = new Date(Date.now() - 3_600_000);
    writeFileSync(claudeLog, `${JSON.stringify({ type: 'user', sessionId: 's1', uuid: 'u1', cwd: '/work/app', timestamp: '2026-01-01T10:00:00Z', message: { role: 'user', content: 'Rename the config loader' } })}\n`);
    writeFileSync(capture, LINE_1);
    for (const file of [claudeLog, capture]) utimesSync(file, old, old);
    const stop = new AbortController();
    let printed = '';
    let said = '';
    const folders = [join(home, '.local/state/loupe/captures'), join(home, '.claude/projects'), join(home, '.codex/sessions')];
    const running = main(['--no-browser'], { out: (text) => (printed += text), err: (text) => (said += `${text}\n`) }, {
      appDir, capturesDir: join(home, '.local/state/loupe/captures'), stop: stop.signal, machineFolders: folders, machineIndexDir: join(dir, 'machine-index'), agentLogDirs: [],
    });
    await expect.poll(() => printed, { timeout: 30_000 }).toMatch(/\?library$/);
    expect(said).toMatch(/2 sessions in the folders where agents keep their sessions/);
    const at = (route: string) => fetch(new URL(route, printed));
    // The rows are named inside the folder that holds every harness's folder.
    expect(await (await at('library')).json()).toMatchObject({ folder: home, unreadable: [] });
    expect((await (await at('library/file/.claude/projects/-work-app/s1.jsonl')).text())).toContain('Rename the config loader');
    const recordings = (await (await at('recordings')).json()) as { recordings: { name: string; title: string | null }[] };
    expect(recordings.recordings.map((r) => r.name)).toEqual(['2026-01-01T10-00-00-000Z_agent_1.jsonl']);
    stop.abort();
    expect(await running).toBe(0);
  });

  test('prints the address, serves until stopped, then exits 0', async () => {
    const stop = new AbortController();
    let printed = '';
    const running = main([sessionPath, '--no-browser'], { out: (text) => (printed += text), err: () => undefined }, { appDir, capturesDir: captures, stop: stop.signal });
    await expect.poll(() => printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/\?src=session\/my%20run%2B1\.jsonl$/);
    const page = await fetch(new URL(new URL(printed).searchParams.get('src')!, printed));
    expect(await page.text()).toBe(LINE_1);
    stop.abort();
    expect(await running).toBe(0);
  });
});

test("a Claude Code session's sub-agent files are read with it, from a joined copy removed on exit", async () => {
  const claude = join(dir, 's1.jsonl');
  const main1 = JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's1', message: { content: 'go' } });
  const agent = JSON.stringify({ type: 'user', uuid: 'u2', sessionId: 's1', isSidechain: true, agentId: 'a7', message: { content: 'look' } });
  writeFileSync(claude, main1); // no newline at the end: the joined copy still keeps the lines apart
  mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
  writeFileSync(join(dir, 's1', 'subagents', 'agent-a7.jsonl'), `${agent}\n`);
  const joinedCopies = () => readdirSync(tmpdir()).filter((name) => name.startsWith('loupe-open-') && existsSync(join(tmpdir(), name, 's1.jsonl')));
  const before = joinedCopies();
  const stop = new AbortController();
  let printed = '';
  let said = '';
  const running = main([claude, '--no-browser'], { out: (text) => (printed += text), err: (text) => (said += text) }, { appDir, capturesDir: captures, stop: stop.signal });
  try {
    // Named after the session's own file, not the joined copy's folder.
    await expect.poll(() => printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/\?src=session\/s1\.jsonl$/);
    expect(said).toContain('reading 1 sub-agent file with the session');
    expect(joinedCopies().length).toBe(before.length + 1);
    const body = await (await fetch(printed.replace('?src=', ''))).text();
    expect(body.split('\n').filter((l) => l !== '')).toEqual([main1, agent]);
  } finally {
    stop.abort();
    expect(await running).toBe(0);
  }
  expect(joinedCopies()).toEqual(before);
});

test("--vs OTHER: the other run's sub-agent files are read with it too, from a joined copy removed on exit", async () => {
  const other = join(dir, 's2.jsonl');
  const main2 = JSON.stringify({ type: 'user', uuid: 'v1', sessionId: 's2', message: { content: 'go' } });
  const agent = JSON.stringify({ type: 'user', uuid: 'v2', sessionId: 's2', isSidechain: true, agentId: 'a8', message: { content: 'look' } });
  writeFileSync(other, `${main2}\n`);
  mkdirSync(join(dir, 's2', 'subagents'), { recursive: true });
  writeFileSync(join(dir, 's2', 'subagents', 'agent-a8.jsonl'), `${agent}\n`);
  writeFileSync(join(dir, 's2', 'subagents', 'agent-a8.meta.json'), '{"agentType":"Explore"}');
  const joinedCopies = () => readdirSync(tmpdir()).filter((name) => name.startsWith('loupe-open-') && existsSync(join(tmpdir(), name, 's2.jsonl')));
  const before = joinedCopies();
  const stop = new AbortController();
  let printed = '';
  let said = '';
  const running = main([sessionPath, '--vs', other, '--no-browser'], { out: (text) => (printed += text), err: (text) => (said += text) }, { appDir, capturesDir: captures, stop: stop.signal });
  try {
    await expect.poll(() => printed).toMatch(/src=compare%2Fs2\.jsonl|src=compare\/s2\.jsonl/);
    expect(said).toContain('--vs: reading 1 sub-agent file with');
    const url = new URL(printed);
    const body = await (await fetch(new URL(url.searchParams.get('src')!, printed))).text();
    expect(body.split('\n').filter((l) => l !== '')).toEqual([main2, agent]);
  } finally {
    stop.abort();
    expect(await running).toBe(0);
  }
  expect(joinedCopies()).toEqual(before);
});

describe('loupe open: only what was asked for', () => {
  test('opened on a file, the server serves that session and not the recordings folder', async () => {
    writeFileSync(join(captures, '2026-01-01T10-00-00-000Z_codex-acp_11.jsonl'), LINE_2);
    const server = await serve({ kind: 'file', path: sessionPath, follow: false });
    expect((await get(server, `/${server.token}/session`)).body).toBe(LINE_1);
    const listing = await get(server, `/${server.token}/recordings`);
    expect(listing.status).toBe(404);
    expect(listing.body).not.toContain('codex-acp');
    const one = await get(server, `/${server.token}/recordings/2026-01-01T10-00-00-000Z_codex-acp_11.jsonl`);
    expect(one.status).toBe(404);
    expect(one.body).not.toContain('"result"');
  });

  test('opened on stdin, neither', async () => {
    writeFileSync(join(captures, 'a.jsonl'), LINE_2);
    const stdin = new PassThrough();
    const server = await serve({ kind: 'stream', stream: stdin });
    expect((await get(server, `/${server.token}/recordings`)).status).toBe(404);
    expect((await get(server, `/${server.token}/recordings/a.jsonl`)).status).toBe(404);
    stdin.end();
  });

  test('a hard link in the captures folder is neither listed nor served (as a symbolic link is not)', async () => {
    writeFileSync(join(captures, 'real.jsonl'), LINE_1);
    linkSync(join(dir, 'secret.txt'), join(captures, 'linked.jsonl'));
    symlinkSync(join(dir, 'secret.txt'), join(captures, 'symlinked.jsonl'));
    const server = await serve();
    const listing = JSON.parse((await get(server, `/${server.token}/recordings`)).body) as { recordings: { name: string }[] };
    expect(listing.recordings.map((r) => r.name)).toEqual(['real.jsonl']);
    for (const name of ['linked.jsonl', 'symlinked.jsonl']) {
      const res = await get(server, `/${server.token}/recordings/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body, name).not.toContain(SECRET);
    }
  });
});

describe('loupe open: the address handed to the browser', () => {
  test('holds no token: it is good for one visit, which lands on the tokened page', async () => {
    const stop = new AbortController();
    let printed = '';
    let handed = '';
    const running = main([sessionPath], { out: (text) => (printed += text), err: () => undefined }, { appDir, capturesDir: captures, stop: stop.signal, openBrowser: (url) => void (handed = url) });
    try {
      await expect.poll(() => handed).not.toBe('');
      const token = /^http:\/\/127\.0\.0\.1:\d+\/([\w-]+)\//.exec(printed)?.[1] ?? '';
      expect(token.length).toBeGreaterThanOrEqual(32);
      // Anyone can read a process's arguments (ps): the browser's command line must not hold the secret.
      expect(handed).not.toContain(token);
      const first = await fetch(handed, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const landing = new URL(first.headers.get('location') ?? '', handed).href;
      expect(landing).toBe(printed);
      expect((await fetch(landing)).status).toBe(200);
      // Used once, the address is spent: someone who read it from ps afterwards gets nothing.
      const again = await fetch(handed, { redirect: 'manual' });
      expect(again.status).toBe(410);
      expect(again.headers.get('location')).toBeNull();
      expect(await again.text()).not.toContain(token);
    } finally {
      stop.abort();
      expect(await running).toBe(0);
    }
  });
});

describe('loupe open without PATH: the sessions agents logged themselves', () => {
  const claudeLine = JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's-claude', cwd: '/home/dev/app', timestamp: '2026-11-30T10:00:00.000Z', message: { role: 'user', content: 'go' } });
  const codexLine = JSON.stringify({ timestamp: '2026-11-30T09:00:00.000Z', type: 'session_meta', payload: { id: 's-codex', cwd: '/home/dev/api' } });

  test('are listed with their format and project beside the recordings, and each opens by the id listed', async () => {
    const claude = join(dir, 'claude', 'projects', '-home-dev-app');
    const codex = join(dir, 'codex', 'sessions', '2026', '11', '30');
    mkdirSync(claude, { recursive: true });
    mkdirSync(codex, { recursive: true });
    writeFileSync(join(claude, 's-claude.jsonl'), `${claudeLine}\n`);
    writeFileSync(join(codex, 'rollout-s-codex.jsonl'), `${codexLine}\n`);
    // Written an hour ago: not live, so served whole (a live one is followed while the page reads it).
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(claude, 's-claude.jsonl'), hourAgo, hourAgo);
    utimesSync(join(codex, 'rollout-s-codex.jsonl'), hourAgo, hourAgo);
    const server = await startServer({ appDir, capturesDir: captures, agentLogDirs: [join(dir, 'claude', 'projects'), join(dir, 'codex', 'sessions')], port: 0 });
    servers.push(server);
    const listing = JSON.parse((await get(server, `/${server.token}/sessions`)).body) as { sessions: { id: string; name: string; format: string; project: string | null; live: boolean }[] };
    const rows = listing.sessions.map(({ name, format, project, live }) => [name, format, project, live]).sort();
    expect(rows).toEqual([['rollout-s-codex.jsonl', 'codex', '/home/dev/api', false], ['s-claude.jsonl', 'claude-code', '/home/dev/app', false]]);
    const claudeEntry = listing.sessions.find((s) => s.format === 'claude-code')!;
    expect((await get(server, `/${server.token}/sessions/${claudeEntry.id}/${claudeEntry.name}`)).body).toBe(`${claudeLine}\n`);
    // An id the listing did not give names nothing; nor does a path.
    expect((await get(server, `/${server.token}/sessions/not-an-id/x.jsonl`)).status).toBe(404);
    const byPath = await get(server, `/${server.token}/sessions/${encodeURIComponent(join(claude, 's-claude.jsonl'))}`);
    expect([403, 404]).toContain(byPath.status);
    expect(byPath.body).not.toContain('s-claude');
  });

  test('a file put in place of a listed one after the listing is not served', async () => {
    const claude = join(dir, 'claude', 'projects', '-home-dev-app');
    mkdirSync(claude, { recursive: true });
    const path = join(claude, 's-claude.jsonl');
    writeFileSync(path, `${claudeLine}\n`);
    const server = await startServer({ appDir, capturesDir: captures, agentLogDirs: [join(dir, 'claude', 'projects')], port: 0 });
    servers.push(server);
    const [entry] = (JSON.parse((await get(server, `/${server.token}/sessions`)).body) as { sessions: { id: string; name: string }[] }).sessions;
    rmSync(path);
    symlinkSync(join(dir, 'secret.txt'), path);
    const res = await get(server, `/${server.token}/sessions/${entry!.id}/${entry!.name}`);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain(SECRET);
  });

  test('opened on one session, the agents\' sessions are neither listed nor served', async () => {
    const claude = join(dir, 'claude', 'projects', '-home-dev-app');
    mkdirSync(claude, { recursive: true });
    writeFileSync(join(claude, 's-claude.jsonl'), `${claudeLine}\n`);
    const server = await startServer({ appDir, capturesDir: captures, agentLogDirs: [join(dir, 'claude', 'projects')], port: 0, session: { kind: 'file', path: sessionPath, follow: false } });
    servers.push(server);
    expect((await get(server, `/${server.token}/sessions`)).status).toBe(404);
  });
});
