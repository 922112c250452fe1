// `loupe tee [--out FILE] -- AGENT [ARGS...]`: run an ACP agent and record its stdio traffic
// without the editor noticing. Bytes are forwarded as they arrive, untouched; the capture is
// written beside them, one whole line per message (CONTRACTS §1 capture lines).
import { isUtf8 } from 'node:buffer';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { isJsonBytes } from '../ingest/jsonBytes';
import { captureName, capturesDir, LIVE_SUFFIX, type LiveMarker } from './captures';
import type { CliIo } from './summarize';

const USAGE = 'usage: loupe tee [--out FILE] -- AGENT [ARGS...]';

const HELP = `${USAGE}

Runs AGENT with ARGS and sits on its stdio: what the editor writes goes to the agent, what the
agent writes comes back, byte for byte and as soon as it arrives. Every message in either
direction, and every line the agent writes on stderr, is appended to a capture file that
\`loupe open\` and \`loupe summarize\` read. tee writes nothing of its own on stdout; its exit code
is the agent's.

  --out FILE   append the capture to FILE (default: a new file in ${capturesDir()})

The capture's path is printed on stderr when tee starts. Open it, live, with
\`loupe open --follow PATH\`, or run \`loupe open\` to pick from the recordings.

Zed (settings.json): put tee in front of the agent's own command:
  "agent_servers": {
    "My Agent": { "type": "custom", "command": "npx", "args": ["-y", "agent-loupe", "tee", "--", "my-agent", "--acp"] }
  }`;

export type CaptureDirection = 'client->agent' | 'agent->client' | 'stderr';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_BRACE = 0x7b;
const CLOSE_LINE = Buffer.from('}\n');

function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === NEWLINE || byte === CARRIAGE_RETURN;
}

function firstNonBlank(line: Buffer): number {
  let index = 0;
  while (index < line.length && isJsonWhitespace(line[index]!)) index++;
  return index;
}

/** Checked, never re-serialized: the message's own bytes go into the capture (key order is meaning, CONTRACTS §6). */
function isJsonObjectText(line: Buffer, start: number): boolean {
  // It starts with `{`, so a value that is JSON is an object. Checked on the bytes: several times
  // cheaper than JSON.parse, with the same verdict (src/ingest/jsonBytes.test.ts).
  return line[start] === OPEN_BRACE && isJsonBytes(line, start) && isUtf8(line);
}

/** One capture line for one line of traffic; undefined for a blank line, which says nothing. */
export function captureLine(dir: CaptureDirection, line: Buffer, tMs: number): Buffer | undefined {
  const end = line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
  const body = line.subarray(0, end);
  const start = firstNonBlank(body);
  if (start === body.length) return undefined;
  const head = `{"t_ms":${tMs},"dir":"${dir}",`;
  if (dir !== 'stderr' && isJsonObjectText(body, start)) {
    return Buffer.concat([Buffer.from(`${head}"msg":`), body, CLOSE_LINE]);
  }
  return Buffer.from(`${head}"text":${JSON.stringify(body.toString('utf8'))}}\n`);
}

/**
 * Splits one direction's bytes into lines, wherever the chunks happen to be cut (inside a
 * message, inside a UTF-8 sequence), and turns each complete line into its capture line.
 */
export class LineFramer {
  private pending: Buffer[] = [];

  constructor(readonly dir: CaptureDirection) {}

  /** Appends to `out` the capture lines of every line this chunk completes. */
  push(chunk: Buffer, tMs: number, out: Buffer[]): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      let line = chunk.subarray(start, newline);
      if (this.pending.length > 0) {
        this.pending.push(line);
        line = Buffer.concat(this.pending);
        this.pending = [];
      }
      const framed = captureLine(this.dir, line, tMs);
      if (framed) out.push(framed);
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** A last line without a newline (the stream ended, or the agent died mid-line) is recorded too. */
  flush(tMs: number, out: Buffer[]): void {
    if (this.pending.length === 0) return;
    const framed = captureLine(this.dir, Buffer.concat(this.pending), tMs);
    this.pending = [];
    if (framed) out.push(framed);
  }
}

/** The capture file. A failing write stops the recording, never the agent's traffic. */
class CaptureWriter {
  private failed = false;

  constructor(private readonly fd: number, private readonly io: CliIo) {}

  /** Whole lines in one write each call, so a reader tailing the file never sees half a message as a line. */
  write(lines: Buffer[]): void {
    if (this.failed || lines.length === 0) return;
    const data = lines.length === 1 ? lines[0]! : Buffer.concat(lines);
    try {
      let written = 0;
      while (written < data.length) written += writeSync(this.fd, data, written, data.length - written);
    } catch (error) {
      this.failed = true;
      this.io.err(`loupe tee: stopped recording: ${describeError(error)}`);
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed or failed; the agent's exit code is what matters now.
    }
  }
}

/**
 * Turns each direction's chunks into capture lines and writes them. Framing, checking that a
 * message is JSON and writing it cost far more than passing bytes on, so they run on a thread of
 * their own and the agent's traffic never waits for them (unless the recording falls more than
 * MAX_LAG_BYTES behind: then the traffic is held until it catches up, so memory stays bounded).
 */
interface Recorder {
  record(dir: CaptureDirection, chunk: Buffer): void;
  /** True while the recording is too far behind: the caller stops reading until `onCaught`. */
  readonly behind: boolean;
  onCaught(fn: () => void): void;
  /** Records the last line of each direction that had no newline, writes everything, and stops. */
  close(): Promise<void>;
}

const MAX_LAG_BYTES = 128 * 1024 * 1024;
const RESUME_LAG_BYTES = 32 * 1024 * 1024;
const RECORDER_ROLE = 'loupe-tee-recorder';
const DIRECTIONS: CaptureDirection[] = ['client->agent', 'agent->client', 'stderr'];

type ToRecorder = { type: 'chunk'; dir: CaptureDirection; tMs: number; bytes: Uint8Array } | { type: 'end'; tMs: number };
type FromRecorder = { type: 'ready' } | { type: 'recorded'; bytes: number };

/** Frames and writes in the calling thread: the fallback where a worker thread cannot start. */
class InThreadRecorder implements Recorder {
  readonly behind = false;
  private readonly framers = new Map(DIRECTIONS.map((dir) => [dir, new LineFramer(dir)]));

  constructor(private readonly writer: CaptureWriter) {}

  record(dir: CaptureDirection, chunk: Buffer): void {
    const lines: Buffer[] = [];
    this.framers.get(dir)?.push(chunk, Date.now(), lines);
    this.writer.write(lines);
  }

  onCaught(): void {}

  close(): Promise<void> {
    const lines: Buffer[] = [];
    for (const framer of this.framers.values()) framer.flush(Date.now(), lines);
    this.writer.write(lines);
    return Promise.resolve();
  }
}

class ThreadRecorder implements Recorder {
  private lag = 0;
  private waiting: (() => void)[] = [];

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: FromRecorder) => {
      if (message.type !== 'recorded') return;
      this.lag -= message.bytes;
      if (this.lag <= RESUME_LAG_BYTES && this.waiting.length > 0) {
        const waiting = this.waiting;
        this.waiting = [];
        for (const fn of waiting) fn();
      }
    });
  }

  /** The recorder thread runs this very module (see the end of the file); undefined if it cannot start. */
  static async start(fd: number): Promise<ThreadRecorder | undefined> {
    let worker: Worker;
    try {
      worker = new Worker(new URL(import.meta.url), { workerData: { role: RECORDER_ROLE, fd } });
    } catch {
      return undefined;
    }
    const ready = await new Promise<boolean>((done) => {
      worker.once('message', (message: FromRecorder) => done(message.type === 'ready'));
      worker.once('error', () => done(false));
      worker.once('exit', () => done(false));
    });
    if (!ready) {
      void worker.terminate();
      return undefined;
    }
    return new ThreadRecorder(worker);
  }

  get behind(): boolean {
    return this.lag > MAX_LAG_BYTES;
  }

  record(dir: CaptureDirection, chunk: Buffer): void {
    // A copy of its own, handed over without another copy: the stream may reuse the chunk's memory.
    const bytes = new Uint8Array(chunk);
    this.lag += bytes.byteLength;
    const message: ToRecorder = { type: 'chunk', dir, tMs: Date.now(), bytes };
    this.worker.postMessage(message, [bytes.buffer]);
  }

  onCaught(fn: () => void): void {
    if (this.lag <= RESUME_LAG_BYTES) fn();
    else this.waiting.push(fn);
  }

  close(): Promise<void> {
    const exited = new Promise<void>((done) => this.worker.once('exit', () => done()));
    const message: ToRecorder = { type: 'end', tMs: Date.now() };
    this.worker.postMessage(message);
    return exited;
  }
}

/**
 * The recorder thread: frames, checks and writes what the main thread hands it, in order. It
 * yields to the traffic: chunks wait until the traffic pauses for QUIET_MS (or QUIET_MAX_BYTES
 * have piled up), so during a burst the forwarding thread has the machine to itself. Each chunk
 * carries the time it arrived, so waiting changes no timestamp.
 */
const QUIET_MS = 3;
const QUIET_MAX_BYTES = 64 * 1024 * 1024;

function runRecorderThread(port: NonNullable<typeof parentPort>, fd: number): void {
  const writer = new CaptureWriter(fd, { out: () => undefined, err: (text) => process.stderr.write(`${text}\n`) });
  const framers = new Map(DIRECTIONS.map((dir) => [dir, new LineFramer(dir)]));
  let queue: Extract<ToRecorder, { type: 'chunk' }>[] = [];
  let queuedBytes = 0;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const drain = () => {
    clearTimeout(quiet);
    quiet = undefined;
    const lines: Buffer[] = [];
    for (const message of queue) {
      const chunk = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
      framers.get(message.dir)?.push(chunk, message.tMs, lines);
    }
    writer.write(lines);
    const done: FromRecorder = { type: 'recorded', bytes: queuedBytes };
    queue = [];
    queuedBytes = 0;
    port.postMessage(done);
  };
  port.on('message', (message: ToRecorder) => {
    if (message.type === 'chunk') {
      queue.push(message);
      queuedBytes += message.bytes.byteLength;
      if (queuedBytes >= QUIET_MAX_BYTES) drain();
      else {
        clearTimeout(quiet);
        quiet = setTimeout(drain, QUIET_MS);
      }
      return;
    }
    drain();
    const lines: Buffer[] = [];
    for (const framer of framers.values()) framer.flush(message.tMs, lines);
    writer.write(lines);
    port.close();
  });
  const ready: FromRecorder = { type: 'ready' };
  port.postMessage(ready);
}

type ParsedArgs = { help: true } | { error: string } | { out?: string; agent: string; args: string[] };

function parseArgs(argv: readonly string[]): ParsedArgs {
  const dashes = argv.indexOf('--');
  const options = dashes === -1 ? argv : argv.slice(0, dashes);
  let out: string | undefined;
  for (let index = 0; index < options.length; index++) {
    const option = options[index]!;
    if (option === '--help' || option === '-h') return { help: true };
    if (option === '--out') {
      const value = options[index + 1];
      if (value === undefined || value === '') return { error: '--out needs a FILE' };
      out = value;
      index++;
    } else if (option.startsWith('--out=')) {
      out = option.slice('--out='.length);
      if (out === '') return { error: '--out needs a FILE' };
    } else if (option.startsWith('-')) {
      return { error: `unknown option ${option} (${USAGE})` };
    } else {
      return { error: `put -- before the agent's command (${USAGE})` };
    }
  }
  if (dashes === -1) return { error: `no agent to run: put -- and the agent's command after the options (${USAGE})` };
  const [agent, ...args] = argv.slice(dashes + 1);
  if (agent === undefined || agent === '') return { error: `no agent to run after -- (${USAGE})` };
  return { out, agent, args };
}

function describeError(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return err.message ?? String(error);
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number | undefined>)[signal] ?? 0;
}

/** Resolves once the child has started, or with why it could not. */
function started(child: ChildProcess): Promise<Error | undefined> {
  return new Promise((resolveStart) => {
    child.once('spawn', () => resolveStart(undefined));
    child.once('error', (error) => resolveStart(error));
  });
}

/**
 * Copies `from` to `to` chunk by chunk, as each arrives, pausing `from` while `to` is full.
 * `onChunk` sees every chunk even once `to` has gone away (the editor closed its end): what the
 * other side says is still recorded.
 */
function forward(from: Readable, to: Writable, onChunk: (chunk: Buffer) => void, recorder: Recorder): Promise<void> {
  let full = false;
  const resumeIfFree = () => {
    if (!full && !recorder.behind) from.resume();
  };
  to.on('drain', () => {
    full = false;
    resumeIfFree();
  });
  to.on('close', () => {
    full = false;
    resumeIfFree();
  });
  to.on('error', () => {
    // EPIPE and the like: the reader went away. Keep reading, so the writer is never blocked.
  });
  return new Promise((done) => {
    from.on('data', (chunk: Buffer) => {
      // Pipes take 64 KB at a time and a stream's default mark is 16 KB: pausing at that mark
      // would stop and start the reader on nearly every chunk. Up to FORWARD_BUFFER_BYTES may wait.
      if (!to.destroyed && !to.writableEnded) {
        to.write(chunk);
        if (to.writableLength > FORWARD_BUFFER_BYTES) {
          full = true;
          from.pause();
        }
      }
      onChunk(chunk);
      if (recorder.behind) {
        from.pause();
        recorder.onCaught(resumeIfFree);
      }
    });
    from.once('end', () => done());
    from.once('close', () => done());
    from.on('error', () => done());
  });
}

/** The two directions between editor and agent, passed on and handed to the recorder. */
interface Relays {
  /** Everything the agent wrote (stdout and stderr) has been passed on and recorded. */
  agentDone: Promise<void>;
  /** The agent is gone: stop relaying the editor's side, once what it sent is recorded. */
  stop(): Promise<void>;
}

/**
 * Passes each chunk on as it arrives, then hands a copy to the recorder. (Relaying through the
 * system's `tee` with FIFOs for the copies was tried and measured no faster here: reading the
 * copies costs what passing them on did.)
 */
function nodeRelays(child: ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable }, recorder: Recorder): Relays {
  const stdin = process.stdin;
  const agentStdin = child.stdin;
  void forward(stdin, agentStdin, (chunk) => recorder.record('client->agent', chunk), recorder).then(() => agentStdin.end());
  const stdoutDone = forward(child.stdout, process.stdout, (chunk) => recorder.record('agent->client', chunk), recorder);
  const stderrDone = forward(child.stderr, process.stderr, (chunk) => recorder.record('stderr', chunk), recorder);
  return {
    agentDone: Promise.all([stdoutDone, stderrDone]).then(() => undefined),
    stop: () => {
      // Stop waiting for the editor, so tee can exit.
      stdin.pause();
      stdin.destroy();
      return Promise.resolve();
    },
  };
}

const FORWARD_BUFFER_BYTES = 1024 * 1024;

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv);
  if ('help' in parsed) {
    io.out(HELP);
    return 0;
  }
  if ('error' in parsed) {
    io.err(`loupe tee: ${parsed.error}`);
    return 2;
  }
  const { agent, args } = parsed;
  const startedMs = Date.now();

  let capturePath: string;
  try {
    if (parsed.out !== undefined) {
      capturePath = resolve(parsed.out);
    } else {
      const dir = capturesDir();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      capturePath = resolve(dir, captureName(agent, startedMs, process.pid));
    }
  } catch (error) {
    io.err(`loupe tee: cannot create the capture folder ${capturesDir()}: ${describeError(error)}`);
    return 1;
  }
  const existed = existsSync(capturePath);
  let fd: number;
  try {
    // Appending: a fixed --out that an editor reuses on every restart keeps each run, one after the other.
    fd = openSync(capturePath, 'a', 0o600);
  } catch (error) {
    io.err(`loupe tee: cannot write the capture ${capturePath}: ${describeError(error)}`);
    return 1;
  }
  const markerPath = capturePath + LIVE_SUFFIX;
  const marker: LiveMarker = { pid: process.pid, agent, startedMs };
  let markerWritten = false;
  const removeMarker = () => {
    if (!markerWritten) return;
    markerWritten = false;
    try {
      unlinkSync(markerPath);
    } catch {
      // Gone already.
    }
  };
  try {
    writeFileSync(markerPath, JSON.stringify(marker));
    markerWritten = true;
  } catch {
    // Without a marker the capture is still written; `loupe open` just will not call it live.
  }
  // A tee that dies of an exception still says it is no longer live.
  process.once('exit', removeMarker);

  const writer = new CaptureWriter(fd, io);
  const recorder: Recorder = (await ThreadRecorder.start(fd)) ?? new InThreadRecorder(writer);
  const child = spawn(agent, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const startError = await started(child);
  if (startError) {
    removeMarker();
    await recorder.close();
    writer.close();
    if (!existed && statSafeSize(capturePath) === 0) unlinkSafe(capturePath);
    io.err(`loupe tee: cannot start ${agent}: ${describeError(startError)}`);
    return (startError as NodeJS.ErrnoException).code === 'ENOENT' ? 127 : 126;
  }
  io.err(`loupe tee: recording to ${capturePath}`);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('close', (code, signal) => done({ code, signal }));
  });
  const forwardSignal = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forwardSignal);

  const relays = nodeRelays(child, recorder);

  const { code, signal } = await exited;
  await relays.agentDone;
  // Last lines without a newline are recorded too: what the editor sent that the agent never got
  // to read is still what the editor said, and a crash can cut the agent off mid-line.
  await relays.stop();
  await recorder.close();
  for (const signalName of FORWARDED_SIGNALS) process.off(signalName, forwardSignal);
  writer.close();
  removeMarker();
  process.off('exit', removeMarker);
  if (code !== null) return code;
  return 128 + (signal ? signalNumber(signal) : 0);
}

function statSafeSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Nothing to clean up.
  }
}

if (!isMainThread && parentPort && (workerData as { role?: unknown } | null)?.role === RECORDER_ROLE) {
  runRecorderThread(parentPort, (workerData as { fd: number }).fd);
}
