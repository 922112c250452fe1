// `loupe tee [--out FILE] -- AGENT [ARGS...]`: run an ACP agent and record its stdio traffic
// without the editor noticing. Bytes are forwarded as they arrive, untouched; the capture is
// written beside them, one whole line per message (CONTRACTS §1 capture lines).
import { isUtf8 } from 'node:buffer';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, mkdirSync, openSync, readSync, statSync, unlinkSync, writeSync, writevSync, type Stats } from 'node:fs';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { isJsonBytes } from '../ingest/jsonBytes';
import { fail, ok, type Result } from '../ingest/result';
import { captureName, capturesDir, isCaptureLive, LIVE_SUFFIX, readLiveMarker, type LiveMarker } from './captures';
import type { CliIo } from './summarize';
import { startThread } from './threads';

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

/**
 * The longest line recorded whole: a message (spliced as its bytes) up to this; a line that is not
 * a JSON message (escaped as text, which can make it six times longer) up to an eighth of it.
 * Longer lines are recorded as what they are (tooLongLine). LOUPE_TEE_MAX_LINE_BYTES changes it.
 */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How much of a line too long to record is kept, so a reader can tell what it was. */
const TOO_LONG_PREFIX_BYTES = 1024;

/** Text is escaped into the capture, which can make it six times longer. */
const textLimitOf = (maxLineBytes: number) => Math.floor(maxLineBytes / 8);

export function maxLineBytesOf(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.LOUPE_TEE_MAX_LINE_BYTES);
  return Number.isSafeInteger(value) && value >= 1024 ? value : DEFAULT_MAX_LINE_BYTES;
}

/** A line that was not recorded whole: its length, where it starts in its direction's bytes, the limit it passed. */
export interface TooLong {
  dir: CaptureDirection;
  bytes: number;
  offset: number;
  limit: number;
  /** Under the limit for a message, but not one: the limit for text applied. */
  text: boolean;
}

/** One capture line, as the buffers to write one after the other. */
type Framed = Buffer[];

/** One capture line for one line of traffic; undefined for a blank line, which says nothing. */
export function captureLine(dir: CaptureDirection, line: Buffer, tMs: number, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Framed | 'too-long' | undefined {
  const end = line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
  const body = line.subarray(0, end);
  const start = firstNonBlank(body);
  if (start === body.length) return undefined;
  const head = `{"t_ms":${tMs},"dir":"${dir}",`;
  if (dir !== 'stderr' && isJsonObjectText(body, start)) {
    // Not copied into one buffer: the message may be tens of megabytes.
    return [Buffer.from(`${head}"msg":`), body, CLOSE_LINE];
  }
  if (body.length > textLimitOf(maxLineBytes)) return 'too-long';
  return [Buffer.from(`${head}"text":${JSON.stringify(body.toString('utf8'))}}\n`)];
}

/** The record of a line too long to record: a text line saying so, its first bytes, and `too_long` with its length and offset. */
function tooLongLine(dir: CaptureDirection, prefix: Buffer, bytes: number, offset: number, tMs: number): Buffer {
  const text = `[loupe tee: a line of ${bytes.toLocaleString('en')} bytes, too long to record; its first bytes:] ${prefix.toString('utf8')}`;
  return Buffer.from(`{"t_ms":${tMs},"dir":"${dir}","text":${JSON.stringify(text)},"too_long":{"bytes":${bytes},"offset":${offset}}}\n`);
}

/**
 * Splits one direction's bytes into lines, wherever the chunks happen to be cut (inside a
 * message, inside a UTF-8 sequence), and turns each complete line into its capture line. A line
 * is held only up to the limit: past it, only its first bytes and its length are kept, so the
 * memory a line costs is bounded however long it is.
 */
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Where the current line starts in this direction's bytes. */
  private lineStart = 0;
  /** Bytes of this direction seen before the current chunk. */
  private seen = 0;
  /** The current line is past the limit: its first bytes, and how long it is so far. */
  private overflow: { prefix: Buffer; bytes: number } | null = null;

  constructor(
    readonly dir: CaptureDirection,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
    private readonly onTooLong: (line: TooLong) => void = () => {},
  ) {}

  /** Appends to `out` the capture lines of every line this chunk completes. */
  push(chunk: Buffer, tMs: number, out: Buffer[]): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      this.add(chunk.subarray(start, newline));
      this.endLine(tMs, out);
      this.lineStart = this.seen + newline + 1;
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
    this.seen += chunk.length;
  }

  /** A last line without a newline (the stream ended, or the agent died mid-line) is recorded too. */
  flush(tMs: number, out: Buffer[]): void {
    if (this.pending.length > 0 || this.overflow) this.endLine(tMs, out);
    this.lineStart = this.seen;
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.overflow) {
      this.overflow.bytes += piece.length;
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    if (this.pendingBytes > this.maxLineBytes) {
      // Only the first bytes are kept (copied: the chunks they are in are let go).
      const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, Math.min(this.pendingBytes, TOO_LONG_PREFIX_BYTES + piece.length));
      this.overflow = { prefix: Buffer.from(all.subarray(0, TOO_LONG_PREFIX_BYTES)), bytes: this.pendingBytes };
      this.pending = [];
      this.pendingBytes = 0;
    }
  }

  private endLine(tMs: number, out: Buffer[]): void {
    if (this.overflow) {
      const { prefix, bytes } = this.overflow;
      this.overflow = null;
      this.tooLong(prefix, bytes, tMs, out, false);
      return;
    }
    if (this.pending.length === 0) return;
    const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let framed: ReturnType<typeof captureLine>;
    try {
      framed = captureLine(this.dir, line, tMs, this.maxLineBytes);
    } catch {
      // A string too long for the engine: recorded as too long, never the end of the recording.
      framed = 'too-long';
    }
    if (framed === 'too-long') this.tooLong(line.subarray(0, TOO_LONG_PREFIX_BYTES), line.length, tMs, out, true);
    else if (framed) out.push(...framed);
  }

  private tooLong(prefix: Buffer, bytes: number, tMs: number, out: Buffer[], text: boolean): void {
    out.push(tooLongLine(this.dir, prefix, bytes, this.lineStart, tMs));
    this.onTooLong({ dir: this.dir, bytes, offset: this.lineStart, limit: text ? textLimitOf(this.maxLineBytes) : this.maxLineBytes, text });
  }
}

/** The capture file. A failing write stops the recording, never the agent's traffic. */
class CaptureWriter {
  private failed = false;

  constructor(private readonly fd: number, private readonly io: CliIo) {}

  /** Whole lines in one write each call, so a reader tailing the file never sees half a message as a line. */
  write(lines: Buffer[]): void {
    if (this.failed || lines.length === 0) return;
    try {
      writeAll(this.fd, coalesce(lines));
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

/** Runs of small buffers joined into one; large ones (a long message's bytes) left as they are, not copied. */
function coalesce(buffers: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const endRun = () => {
    if (run.length) out.push(run.length === 1 ? run[0]! : Buffer.concat(run));
    run = [];
  };
  for (const buffer of buffers) {
    if (buffer.length >= COPY_BELOW_BYTES) {
      endRun();
      out.push(buffer);
    } else run.push(buffer);
  }
  endRun();
  return out;
}

const COPY_BELOW_BYTES = 64 * 1024;
/** Buffers per writev (IOV_MAX is 1024 on Linux). */
const WRITEV_MAX = 1024;

function writeAll(fd: number, buffers: Buffer[]): void {
  let list = buffers;
  while (list.length > 0) {
    const batch = list.length > WRITEV_MAX ? list.slice(0, WRITEV_MAX) : list;
    let written = batch.length === 1 ? writeSync(fd, batch[0]!) : writevSync(fd, batch);
    let done = 0;
    while (done < batch.length && written >= batch[done]!.length) written -= batch[done++]!.length;
    list = list.slice(done);
    if (written > 0) list[0] = list[0]!.subarray(written);
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
type FromRecorder = { type: 'ready' } | { type: 'recorded'; bytes: number } | { type: 'note'; text: string };

interface RecorderData {
  role: typeof RECORDER_ROLE;
  fd: number;
  maxLineBytes: number;
}

/** What tee says on stderr about a line it could not record whole. */
export function tooLongNote({ dir, bytes, offset, limit, text }: TooLong): string {
  const en = (n: number) => n.toLocaleString('en');
  const which = text ? ' for a line that is not a JSON message' : '';
  return `loupe tee: a line of ${en(bytes)} bytes (${dir}, from byte ${en(offset)}) is too long to record (the limit is ${en(limit)} bytes${which}): the capture keeps its length and first bytes`;
}

function framersOf(maxLineBytes: number, note: (text: string) => void): Map<CaptureDirection, LineFramer> {
  return new Map(DIRECTIONS.map((dir) => [dir, new LineFramer(dir, maxLineBytes, (line) => note(tooLongNote(line)))]));
}

/** Frames and writes in the calling thread: the fallback where a worker thread cannot start. */
class InThreadRecorder implements Recorder {
  readonly behind = false;
  private readonly framers: Map<CaptureDirection, LineFramer>;

  constructor(
    private readonly writer: CaptureWriter,
    maxLineBytes: number,
    io: CliIo,
  ) {
    this.framers = framersOf(maxLineBytes, (text) => io.err(text));
  }

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
  /** The thread is gone before it was told to end: nothing more is recorded, and nothing waits for it. */
  private failed = false;
  private endSent = false;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    io: CliIo,
  ) {
    worker.on('message', (message: FromRecorder) => {
      if (message.type === 'note') io.err(message.text);
      if (message.type !== 'recorded') return;
      this.lag -= message.bytes;
      if (this.lag <= RESUME_LAG_BYTES) this.release();
    });
    const failed = (why: string) => {
      if (this.endSent || this.failed) return;
      this.failed = true;
      this.lag = 0;
      this.release();
      io.err(`loupe tee: stopped recording (${why}); the agent's traffic still passes`);
    };
    worker.on('error', (error) => failed(error.message));
    this.exited = new Promise((done) =>
      worker.once('exit', (code) => {
        failed(`the recorder thread ended with code ${code}`);
        done();
      }),
    );
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) fn();
  }

  /** The recorder thread runs this very module (see the end of the file); undefined if it cannot start. */
  static async start(fd: number, maxLineBytes: number, io: CliIo): Promise<ThreadRecorder | undefined> {
    const data: RecorderData = { role: RECORDER_ROLE, fd, maxLineBytes };
    const worker = await startThread(new URL(import.meta.url), data);
    return worker ? new ThreadRecorder(worker, io) : undefined;
  }

  get behind(): boolean {
    return !this.failed && this.lag > MAX_LAG_BYTES;
  }

  record(dir: CaptureDirection, chunk: Buffer): void {
    if (this.failed) return;
    // A copy of its own, handed over without another copy: the stream may reuse the chunk's memory.
    const bytes = new Uint8Array(chunk);
    this.lag += bytes.byteLength;
    const message: ToRecorder = { type: 'chunk', dir, tMs: Date.now(), bytes };
    this.worker.postMessage(message, [bytes.buffer]);
  }

  onCaught(fn: () => void): void {
    if (this.failed || this.lag <= RESUME_LAG_BYTES) fn();
    else this.waiting.push(fn);
  }

  close(): Promise<void> {
    if (!this.failed) {
      this.endSent = true;
      const message: ToRecorder = { type: 'end', tMs: Date.now() };
      this.worker.postMessage(message);
    }
    return this.exited;
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

function runRecorderThread(port: NonNullable<typeof parentPort>, { fd, maxLineBytes }: RecorderData): void {
  const note = (text: string) => {
    const message: FromRecorder = { type: 'note', text };
    port.postMessage(message);
  };
  const writer = new CaptureWriter(fd, { out: () => undefined, err: note });
  const framers = framersOf(maxLineBytes, note);
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

/** One direction being passed on; `abandon` stops passing it on (the reader is not reading) but keeps recording it. */
interface Forward {
  done: Promise<void>;
  abandon(): void;
}

/**
 * Copies `from` to `to` chunk by chunk, as each arrives, pausing `from` while `to` is full.
 * `onChunk` sees every chunk even once `to` has gone away (the editor closed its end): what the
 * other side says is still recorded.
 */
function forward(from: Readable, to: Writable, onChunk: (chunk: Buffer) => void, recorder: Recorder): Forward {
  let full = false;
  let abandoned = false;
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
  const done = new Promise<void>((resolveDone) => {
    from.on('data', (chunk: Buffer) => {
      // Pipes take 64 KB at a time and a stream's default mark is 16 KB: pausing at that mark
      // would stop and start the reader on nearly every chunk. Up to FORWARD_BUFFER_BYTES may wait.
      if (!abandoned && !to.destroyed && !to.writableEnded) {
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
    from.once('end', () => resolveDone());
    from.once('close', () => resolveDone());
    from.on('error', () => resolveDone());
  });
  return {
    done,
    abandon: () => {
      abandoned = true;
      full = false;
      resumeIfFree();
    },
  };
}

/** The two directions between editor and agent, passed on and handed to the recorder. */
interface Relays {
  /** Everything the agent wrote (stdout and stderr) has been passed on and recorded. */
  agentDone: Promise<void>;
  /** The agent is gone: stop relaying the editor's side, once what it sent is recorded. */
  stop(): Promise<void>;
  /**
   * tee was told to stop and the agent is gone, but the editor is not reading: what the agent
   * still has in its pipes is recorded, not passed on, so tee can exit.
   */
  abandonEditor(): void;
  /** Whether the editor has bytes of the agent's that it never read. */
  readonly editorBehind: boolean;
}

/**
 * Passes each chunk on as it arrives, then hands a copy to the recorder. (Relaying through the
 * system's `tee` with FIFOs for the copies was tried and measured no faster here: reading the
 * copies costs what passing them on did.)
 */
function nodeRelays(child: ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable }, recorder: Recorder): Relays {
  const stdin = process.stdin;
  const agentStdin = child.stdin;
  void forward(stdin, agentStdin, (chunk) => recorder.record('client->agent', chunk), recorder).done.then(() => agentStdin.end());
  const stdout = forward(child.stdout, process.stdout, (chunk) => recorder.record('agent->client', chunk), recorder);
  const stderr = forward(child.stderr, process.stderr, (chunk) => recorder.record('stderr', chunk), recorder);
  return {
    agentDone: Promise.all([stdout.done, stderr.done]).then(() => undefined),
    stop: () => {
      // Stop waiting for the editor, so tee can exit.
      stdin.pause();
      stdin.destroy();
      return Promise.resolve();
    },
    abandonEditor: () => {
      stdout.abandon();
      stderr.abandon();
    },
    get editorBehind() {
      return process.stdout.writableLength > 0 || process.stderr.writableLength > 0;
    },
  };
}

const FORWARD_BUFFER_BYTES = 1024 * 1024;

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const { O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fsConstants;

/**
 * Opens the capture to append to, never through a link and never waiting (a FIFO put there):
 * a new file is created 0600 and only if nothing is at the path; an existing one is used only if it
 * is a regular file of this user's with no other name. Throws with why not.
 */
function openCapture(path: string, mustBeNew: boolean): { fd: number; created: boolean } {
  let fd: number;
  let created = true;
  try {
    fd = openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || mustBeNew) throw error;
    created = false;
    try {
      fd = openSync(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK);
    } catch (again) {
      const code = (again as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new CaptureRefused('it is a symbolic link, not a regular file');
      if (code === 'ENXIO') throw new CaptureRefused('it is not a regular file');
      throw again;
    }
  }
  const info = fstatSync(fd);
  const why = !info.isFile()
    ? 'it is not a regular file'
    : process.getuid && info.uid !== process.getuid()
      ? 'it belongs to another user'
      : info.nlink !== 1
        ? 'it has other names (hard links)'
        : null;
  if (why) {
    closeSync(fd);
    throw new CaptureRefused(why);
  }
  // A tee killed mid-write leaves half a line: what is appended now starts on a line of its own.
  if (!created && info.size > 0) {
    const last = Buffer.alloc(1);
    readSyncAt(path, last, info.size - 1);
    if (last[0] !== NEWLINE) writeSync(fd, '\n');
  }
  return { fd, created };
}

class CaptureRefused extends Error {}

/** Reads one byte at `position` through a read-only descriptor of its own (the capture's is write-only). */
function readSyncAt(path: string, into: Buffer, position: number): void {
  const fd = openSync(path, fsConstants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    readSync(fd, into, 0, into.length, position);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the live marker, created afresh (never through a link, never over a file it did not
 * write): a marker left by a tee that is gone is replaced. Returns the marker's identity (its inode),
 * or why there is none.
 */
async function writeMarker(path: string, marker: LiveMarker): Promise<Result<number>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600);
      try {
        writeSync(fd, JSON.stringify(marker));
        return ok(fstatSync(fd).ino);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return fail(describeError(error));
    }
    const info = lstatSafe(path);
    const ours = info?.isFile() && (!process.getuid || info.uid === process.getuid());
    if (!ours) return fail(`${path} is not a marker tee wrote`);
    const old = await readLiveMarker(path.slice(0, -LIVE_SUFFIX.length));
    if (old && (await isCaptureLive(path.slice(0, -LIVE_SUFFIX.length)))) return fail(`another tee (pid ${String(old.pid)}) is writing this capture`);
    unlinkSafe(path);
  }
  return fail(`${path} keeps coming back`);
}

function lstatSafe(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

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
  let fd: number;
  let created: boolean;
  try {
    // Appending: a fixed --out that an editor reuses on every restart keeps each run, one after the other.
    ({ fd, created } = openCapture(capturePath, parsed.out === undefined));
  } catch (error) {
    io.err(`loupe tee: cannot write the capture ${capturePath}: ${error instanceof CaptureRefused ? error.message : describeError(error)}`);
    return 1;
  }
  const markerPath = capturePath + LIVE_SUFFIX;
  const marker: LiveMarker = { pid: process.pid, agent, startedMs };
  const written = await writeMarker(markerPath, marker);
  // Without a marker the capture is still written; `loupe open` just will not call it live.
  if (!written.ok) io.err(`loupe tee: not marking the capture live: ${written.error}`);
  let markerIno = written.ok ? written.value : null;
  const removeMarker = () => {
    if (markerIno === null) return;
    // Only the marker this tee wrote: never a file put in its place since.
    if (lstatSafe(markerPath)?.ino === markerIno) unlinkSafe(markerPath);
    markerIno = null;
  };
  // A tee that dies of an exception still says it is no longer live.
  process.once('exit', removeMarker);

  const maxLineBytes = maxLineBytesOf();
  const writer = new CaptureWriter(fd, io);
  const recorder: Recorder = (await ThreadRecorder.start(fd, maxLineBytes, io)) ?? new InThreadRecorder(writer, maxLineBytes, io);
  const child = spawn(agent, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const startError = await started(child);
  if (startError) {
    removeMarker();
    await recorder.close();
    writer.close();
    if (created && statSafeSize(capturePath) === 0) unlinkSafe(capturePath);
    io.err(`loupe tee: cannot start ${agent}: ${describeError(startError)}`);
    return (startError as NodeJS.ErrnoException).code === 'ENOENT' ? 127 : 126;
  }
  io.err(`loupe tee: recording to ${capturePath}`);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('close', (code, signal) => done({ code, signal }));
  });
  const relays = nodeRelays(child, recorder);
  // Told to stop, tee passes the signal on and exits once the agent has: an editor that has
  // stopped reading cannot keep it waiting for bytes no one will read.
  let signalled = false;
  const agentGone = () => child.exitCode !== null || child.signalCode !== null;
  const forwardSignal = (signal: NodeJS.Signals) => {
    signalled = true;
    if (agentGone()) relays.abandonEditor();
    else child.kill(signal);
  };
  child.once('exit', () => {
    if (signalled) relays.abandonEditor();
  });
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forwardSignal);

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
  const exitCode = code ?? 128 + (signal ? signalNumber(signal) : 0);
  if (signalled && relays.editorBehind) {
    // Bytes queued for an editor that stopped reading keep a write pending, and with it the
    // process: exit (with the agent's code) once the caller has had it.
    setImmediate(() => process.exit(exitCode));
  }
  return exitCode;
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
  runRecorderThread(parentPort, workerData as RecorderData);
}
