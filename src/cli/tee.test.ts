// `loupe tee` between a real SDK client (this test) and a real SDK agent (testing/scriptedAgent.ts),
// both over real pipes: the two sides must see exactly each other's bytes, and the capture must
// hold every message, as its own bytes, ready for `loupe summarize`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as summarizeMain } from './summarize';
import { LineFramer, main as teeMain } from './tee';
import { buildTee, type BuiltTee } from './testing/buildTee';

let built: BuiltTee;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loupe-tee-test-'));
  built = await buildTee(join(work, 'built'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const HUGE = 5 * 1024 * 1024;
const CLIENT_NOT_JSON = 'a client line that is not JSON: ünïcödé ✓';

interface Frame {
  dir: string;
  /** The message's bytes as written in the capture, or the text of a non-JSON line. */
  msg?: string;
  text?: string;
}

/** The capture read back line by line; `msg` is the raw text spliced in, not a re-serialization. */
function readCapture(path: string): Frame[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const parsed = JSON.parse(line) as { dir: string; t_ms: number; text?: string; msg?: unknown };
      expect(typeof parsed.t_ms).toBe('number');
      if (parsed.msg === undefined) return { dir: parsed.dir, text: parsed.text };
      const head = `{"t_ms":${parsed.t_ms},"dir":"${parsed.dir}","msg":`;
      expect(line.startsWith(head)).toBe(true);
      return { dir: parsed.dir, msg: line.slice(head.length, -1) };
    });
}

/** What a recorder ought to have made of one side's bytes, worked out independently of tee. */
function expectedFrames(dir: string, bytes: Buffer): Frame[] {
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        const value: unknown = JSON.parse(line);
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { dir, msg: line };
      } catch {
        // A text frame.
      }
      return { dir, text: line };
    });
}

function readTap(dir: string, name: string): Buffer {
  const path = join(dir, `agent.${name}`);
  return existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
}

interface Run {
  code: number | null;
  capture: string;
  clientSent: Buffer;
  clientReceived: Buffer;
  teeStderr: string;
  tap: string;
  liveWhileRunning: unknown;
  prompt: PromiseSettledResult<acp.PromptResponse>;
}

/** One session: an SDK client drives the scripted agent through tee, as an editor would. */
async function runSession(promptText: string): Promise<Run> {
  const tap = mkdtempSync(join(work, 'run-'));
  const capture = join(tap, 'capture.jsonl');
  const tee = spawn(process.execPath, [built.tee, '--out', capture, '--', process.execPath, built.agent], {
    env: { ...process.env, LOUPE_AGENT_TAP: tap, LOUPE_AGENT_STEP_MS: '5' },
    stdio: 'pipe',
  });
  const closed = new Promise<number | null>((done) => tee.once('close', (code) => done(code)));
  const sent: Buffer[] = [];
  const received: Buffer[] = [];
  let teeStderr = '';
  tee.stderr.on('data', (chunk: Buffer) => (teeStderr += chunk.toString()));
  tee.stdin.on('error', () => {
    // The agent crashed and tee closed its end: what the client still sends goes nowhere, as it would without tee.
  });

  const writeRaw = (bytes: Uint8Array) =>
    new Promise<void>((done) => {
      sent.push(Buffer.from(bytes));
      tee.stdin.write(bytes, () => done());
    });
  const output = new WritableStream<Uint8Array>({ write: writeRaw });
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      tee.stdout.on('data', (chunk: Buffer) => {
        received.push(chunk);
        controller.enqueue(new Uint8Array(chunk));
      });
      tee.stdout.once('end', () => controller.close());
    },
  });

  let liveWhileRunning: unknown;
  const files = new Map([['/ws/hello.py', "print('helo')\n"]]);
  const connection = acp
    .client({ name: 'loupe tee test client' })
    .onRequest('session/request_permission', () => {
      liveWhileRunning = JSON.parse(readFileSync(`${capture}.live`, 'utf8'));
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => ({ content: files.get(params.path) ?? '' }))
    .onRequest('fs/write_text_file', ({ params }) => {
      files.set(params.path, params.content);
      return {};
    })
    .onRequest('terminal/create', () => ({ terminalId: 'term-1' }))
    .onRequest('terminal/wait_for_exit', () => ({ exitCode: 0, signal: null }))
    .onRequest('terminal/output', () => ({ output: 'hello\n', truncated: false, exitStatus: { exitCode: 0, signal: null } }))
    .onRequest('terminal/release', () => ({}))
    .onNotification('session/update', () => {})
    .connect(acp.ndJsonStream(output, input));

  await connection.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
  // Straight onto the wire, between two messages: the agent must get it as it was written.
  await writeRaw(Buffer.from(`${CLIENT_NOT_JSON}\n`));
  const { sessionId } = await connection.agent.request('session/new', { cwd: '/ws', mcpServers: [] });
  const [prompt] = await Promise.allSettled([connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: promptText }] })]);
  tee.stdin.end();
  const code = await closed;
  connection.close();
  return { code, capture, clientSent: Buffer.concat(sent), clientReceived: Buffer.concat(received), teeStderr, tap, liveWhileRunning, prompt: prompt };
}

async function summarize(...argv: string[]): Promise<string> {
  let out = '';
  const code = await summarizeMain(['summarize', ...argv], { out: (text) => (out += `${text}\n`), err: () => {} });
  expect(code).toBe(0);
  return out;
}

describe('loupe tee between an SDK client and an SDK agent', () => {
  let run: Run;
  beforeAll(async () => {
    run = await runSession('fix the greeting');
  });

  test('each side receives exactly the bytes the other sent, a 5 MB message and non-JSON lines included', () => {
    expect(run.prompt).toMatchObject({ status: 'fulfilled', value: { stopReason: 'end_turn' } });
    expect(run.code).toBe(0);
    const agentReceived = readTap(run.tap, 'stdin');
    const agentSent = readTap(run.tap, 'stdout');
    expect(agentReceived.equals(run.clientSent)).toBe(true);
    expect(run.clientReceived.equals(agentSent)).toBe(true);
    expect(agentSent.length).toBeGreaterThan(HUGE);
    expect(agentSent.toString()).toContain('\ndebug: this line is not JSON\n');
    expect(run.clientSent.toString()).toContain(`\n${CLIENT_NOT_JSON}\n`);
    // stderr passes through too; tee adds only its one line saying where the capture goes.
    expect(run.teeStderr).toBe(`loupe tee: recording to ${run.capture}\n${readTap(run.tap, 'stderr').toString()}`);
  });

  test('the capture holds every message in both directions as its own bytes, and stderr lines', () => {
    const frames = readCapture(run.capture);
    const byDir = (dir: string) => frames.filter((frame) => frame.dir === dir);
    expect(byDir('client->agent')).toEqual(expectedFrames('client->agent', run.clientSent));
    expect(byDir('agent->client')).toEqual(expectedFrames('agent->client', readTap(run.tap, 'stdout')));
    const stderrLines = readTap(run.tap, 'stderr').toString().split('\n').filter((line) => line !== '');
    expect(byDir('stderr')).toEqual(stderrLines.map((text) => ({ dir: 'stderr', text })));
    expect(stderrLines).toContain('scripted agent: turn started');
    expect(frames).toContainEqual({ dir: 'client->agent', text: CLIENT_NOT_JSON });
    expect(frames).toContainEqual({ dir: 'agent->client', text: 'debug: this line is not JSON' });
    expect(frames.some((frame) => (frame.msg?.length ?? 0) > HUGE)).toBe(true);
  });

  test('while tee runs the capture is marked live with its pid; the mark is gone once it exits', () => {
    expect(run.liveWhileRunning).toMatchObject({ pid: expect.any(Number) as number, agent: process.execPath, startedMs: expect.any(Number) as number });
    expect(existsSync(`${run.capture}.live`)).toBe(false);
  });

  test('loupe summarize lists every call with label, subject, status, permission outcome and terminal output', async () => {
    const summary = JSON.parse(await summarize(run.capture, '--json')) as { format: string; counts: { lines: number; events: number; unknown: number; bad: number }; calls: unknown[] };
    expect(summary.format).toBe('acp-capture');
    expect(summary.counts.bad).toBe(0);
    expect(summary.counts.events + summary.counts.unknown).toBe(summary.counts.lines);
    // Statuses as the viewer says them; capture times give every call a duration.
    const common = { session: 'scripted-session', direction: 'agent->client', note: null, durationMs: expect.any(Number) as unknown, parent: null };
    expect(summary.calls).toEqual([
      { ...common, id: 'call-edit', label: 'Edit', subject: '/ws/hello.py', status: 'done', permission: 'allow_once', terminal: null, exitCode: null },
      { ...common, id: 'call-run', label: 'Run Command', subject: 'python3 hello.py', status: 'done', permission: null, terminal: { output: 'hello\n', exitCode: 0 }, exitCode: 0 },
      { ...common, id: 'call-fetch', label: 'Web Fetch', subject: 'https://docs.invalid/python', status: 'failed', permission: null, terminal: null, exitCode: null },
    ]);
    const text = await summarize(run.capture);
    expect(text).toMatch(/call-edit +Edit +\/ws\/hello\.py +done +allow_once/);
    expect(text).toMatch(/call-run +Run Command +python3 hello\.py +done *\n {4}terminal \(exit 0\):\n {4}\| hello\n/);
    expect(text).toMatch(/call-fetch +Web Fetch +https:\/\/docs\.invalid\/python +failed/);
  });
});

test('when the agent crashes mid-turn, the capture keeps all it sent, its half line included, and tee exits with its code', async () => {
  const run = await runSession('crash, please');
  expect(run.code).toBe(3);
  expect(run.prompt.status).toBe('rejected');
  const agentSent = readTap(run.tap, 'stdout');
  expect(run.clientReceived.equals(agentSent)).toBe(true);
  const frames = readCapture(run.capture);
  const fromAgent = frames.filter((frame) => frame.dir === 'agent->client');
  expect(fromAgent).toEqual(expectedFrames('agent->client', agentSent));
  expect(fromAgent.at(-1)?.text).toMatch(/^\{"jsonrpc":"2.0","method":"session\/update","params":\{"sessionId":"$/);
  expect(frames.filter((frame) => frame.dir === 'stderr').map((frame) => frame.text)).toEqual(readTap(run.tap, 'stderr').toString().trimEnd().split('\n'));
  expect(frames.filter((frame) => frame.dir === 'stderr').at(-1)?.text).toBe('scripted agent: about to crash');
  expect(existsSync(`${run.capture}.live`)).toBe(false);
  const summary = JSON.parse(await summarize(run.capture, '--json')) as { calls: { id: string; status: string }[] };
  // The input ended with the call open: unfinished, as the viewer says.
  expect(summary.calls.map(({ id, status }) => [id, status])).toEqual([['call-crash', 'unfinished']]);
});

test('a signal sent to tee reaches the agent; tee exits with 128 + its number', async () => {
  const capture = join(work, 'signal.jsonl');
  const tee = spawn(process.execPath, [built.tee, '--out', capture, '--', process.execPath, '-e', 'process.stdin.resume(); console.error("ready")'], { stdio: 'pipe' });
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((done) => tee.once('close', (code, signal) => done([code, signal])));
  await new Promise<void>((ready) => tee.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && ready()));
  tee.kill('SIGTERM');
  expect(await closed).toEqual([143, null]);
  expect(existsSync(`${capture}.live`)).toBe(false);
});

describe('recording lines whatever the chunks', () => {
  const frame = (chunks: Buffer[], dir: 'client->agent' | 'stderr' = 'client->agent') => {
    const framer = new LineFramer(dir);
    const out: Buffer[] = [];
    for (const chunk of chunks) framer.push(chunk, 7, out);
    framer.flush(7, out);
    return Buffer.concat(out).toString('utf8');
  };

  const cutAt = (bytes: Buffer, cuts: number[]) => {
    const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
    return [0, ...points].map((start, index) => bytes.subarray(start, points[index] ?? bytes.length));
  };

  test('cut anywhere, even inside a UTF-8 sequence, the capture is the same', () => {
    const input = Buffer.from('{"jsonrpc":"2.0","method":"x","params":{"10":"é✓𝄞","2":"b"}}\r\nnot JSON — ✓\n\n[1,2]\n{"half":\n{"last":"no newline"}');
    const whole = frame([input]);
    expect(whole).toBe(
      '{"t_ms":7,"dir":"client->agent","msg":{"jsonrpc":"2.0","method":"x","params":{"10":"é✓𝄞","2":"b"}}}\n' +
        '{"t_ms":7,"dir":"client->agent","text":"not JSON — ✓"}\n' +
        '{"t_ms":7,"dir":"client->agent","text":"[1,2]"}\n' +
        '{"t_ms":7,"dir":"client->agent","text":"{\\"half\\":"}\n' +
        '{"t_ms":7,"dir":"client->agent","msg":{"last":"no newline"}}\n',
    );
    fc.assert(fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => frame(cutAt(input, cuts)) === whole));
  });

  test('a 5 MB message split into many chunks is one capture line holding its bytes', () => {
    const message = Buffer.from(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"${'é'.repeat(HUGE / 2)}"}}\n`);
    const chunks = cutAt(message, Array.from({ length: 80 }, (_, index) => index * 65_537 + 1));
    const lines = frame(chunks).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`{"t_ms":7,"dir":"client->agent","msg":${message.toString().trimEnd()}}`);
  });

  test('stderr lines are text even when they look like JSON', () => {
    expect(frame([Buffer.from('{"level":"info"}\n')], 'stderr')).toBe('{"t_ms":7,"dir":"stderr","text":"{\\"level\\":\\"info\\"}"}\n');
  });
});

describe('bad arguments: one clear line and a non-zero exit', () => {
  async function tee(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await teeMain(argv, { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
    return { code, out, err };
  }

  test('--help says what it does, with the Zed example', async () => {
    const { code, out } = await tee('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: loupe tee \[--out FILE\] -- AGENT/);
    expect(out).toContain('"agent_servers"');
  });

  test.each([
    [['my-agent', '--acp'], /^loupe tee: put -- before the agent's command/],
    [['--out', 'x.jsonl'], /^loupe tee: no agent to run/],
    [['--'], /^loupe tee: no agent to run after --/],
    [['--verbose', '--', 'my-agent'], /^loupe tee: unknown option --verbose/],
  ])('%j', async (argv, message) => {
    const { code, err } = await tee(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  test('an agent that cannot be started, and leaves no empty capture behind', async () => {
    const capture = join(work, 'never.jsonl');
    const missing = await tee('--out', capture, '--', join(work, 'no-such-agent'));
    expect(missing.code).toBe(127);
    expect(missing.err).toBe(`loupe tee: cannot start ${join(work, 'no-such-agent')}: no such file or directory\n`);
    expect(existsSync(capture)).toBe(false);
    const notExecutable = join(work, 'not-executable');
    writeFileSync(notExecutable, '#!/bin/sh\n');
    const denied = await tee('--out', capture, '--', notExecutable);
    expect(denied.code).toBe(126);
    expect(denied.err).toBe(`loupe tee: cannot start ${notExecutable}: permission denied\n`);
  });

  test('--out in a folder that does not exist', async () => {
    const { code, err } = await tee('--out', join(work, 'missing', 'capture.jsonl'), '--', 'true');
    expect(code).toBe(1);
    expect(err).toBe(`loupe tee: cannot write the capture ${join(work, 'missing', 'capture.jsonl')}: no such file or directory\n`);
  });
});
