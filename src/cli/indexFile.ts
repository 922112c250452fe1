// One file of `loupe index`: a Claude Code log read for its rows alone (model/claudeCodeRead.ts),
// any other with the viewer's ingest, light (as `loupe summarize` reads), and turned into rows (analysis/fileRows.ts, which "Open folder…" uses too). Runs in an
// index worker thread, or in the calling thread.
import { closeSync, openSync, read, readSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { rowsOfFile, type FileRows } from '../analysis/fileRows';
import { fail } from '../ingest/result';
import { isSqlite } from '../ingest/sqlite/wal';
import { ingest, readClaudeCodeForRows } from '../model';
import { indexScanner, type IndexScanExports } from '../ingest/wasm/indexScanner';
import { bufferLines } from './bufferLines';
import { fileChunks } from './fileChunks';
import { readClaudeCodeForRowsFromScan, readClaudeCodeForRowsInWindows } from './claudeCodeScanRead';
import { binaryReason, TEXT_PROBE_BYTES, walBeside, whyUnreadable } from './files';
import { readFailure } from './listable';
import { headOfFileBytes, readHead } from './sessions';
import { withSubagentBytes } from './subagentFiles';

/**
 * Files up to this size are read in one call and checked, headed and parsed from memory (a
 * session log is most often well under it): one open and read instead of four, which is most of a
 * small file's time apart from its parse. Larger files stream, so memory stays bounded.
 */
export const WHOLE_READ_BYTES = 8 * 1024 * 1024;

/** `subagents`: the session's sub-agents' own files (CONTRACTS §10), read with it as one input so their calls have parents. */
export async function indexFile(path: string, subagents: readonly string[] = []): Promise<FileRows> {
  return indexLoaded(await loadFile(path, subagents));
}

/** A file as loadFile found it: its bytes when it is read whole, else none (it streams). */
export interface LoadedFile {
  path: string;
  subagents: readonly string[];
  whole?: { info: Stats; bytes: Buffer };
  /** Gives back the buffer its bytes are in, once nothing reads them (indexLoaded does). */
  release?: () => void;
}

/**
 * The buffers a reader thread reads whole files into, used again file after file. A new buffer
 * for every file cost more than its read: on the 2-core machine, reading a 680 KB file into a new
 * buffer took 180–810 µs, into one used again 28 µs (the difference is the first touch of each new
 * page). A thread holds two at a time at most (the file it parses and the next one's bytes), each
 * as large as the largest file it read whole.
 */
export class WholeReadBuffers {
  private readonly free: Buffer[] = [];

  /** A buffer of `length` bytes or more. */
  take(length: number): Buffer {
    const at = this.free.findIndex((buffer) => buffer.length >= length);
    if (at >= 0) return this.free.splice(at, 1)[0]!;
    // The smallest of those held is let go: the count stays what the thread needs at once.
    if (this.free.length > 0) this.free.shift();
    return Buffer.allocUnsafeSlow(length);
  }

  give(buffer: Buffer): void {
    this.free.push(buffer);
    this.free.sort((a, b) => a.length - b.length);
  }
}

/**
 * Starts reading a file that is read whole, and resolves once its bytes are in (never rejects: a
 * file that cannot be read streams, and the stream says why). The stat and open are done here and
 * now, and the bytes come in one read: a reader thread starts the next file's before it parses
 * this one, and parsing gives the thread's loop no turn to go from one step of a read to the next.
 * With `buffers`, the bytes are read into one of them, given back by the LoadedFile's `release`.
 */
export function loadFile(path: string, subagents: readonly string[] = [], buffers?: WholeReadBuffers): Promise<LoadedFile> {
  const streamed: LoadedFile = { path, subagents };
  if (subagents.length > 0) return Promise.resolve(streamed);
  let info: Stats;
  let fd: number;
  try {
    info = statSync(path);
    if (!info.isFile() || info.size > WHOLE_READ_BYTES) return Promise.resolve(streamed);
    fd = openSync(path, 'r');
  } catch {
    // Not readable (gone, no permission): said in whyUnreadable's words by the read that streams.
    return Promise.resolve(streamed);
  }
  // One byte more than its size: a file that grew meanwhile is read again to its end, as readFile reads.
  const buffer = buffers ? buffers.take(info.size + 1) : Buffer.allocUnsafeSlow(info.size + 1);
  const wanted = info.size + 1;
  const release = buffers ? () => buffers.give(buffer) : undefined;
  const done = (loaded: LoadedFile, bytesInBuffer: boolean): LoadedFile => {
    if (release && !bytesInBuffer) release();
    return bytesInBuffer && release ? { ...loaded, release } : loaded;
  };
  return new Promise<LoadedFile>((resolve) => {
    // Read on until a read gives nothing (a network or FUSE file system may give less than asked
    // before the end), as readFile reads.
    const readFrom = (offset: number): void =>
      read(fd, buffer, offset, wanted - offset, offset, (error, bytesRead) => {
        if (!error && bytesRead > 0 && offset + bytesRead < wanted) return readFrom(offset + bytesRead);
        try {
          closeSync(fd);
        } catch {
          // Read already, or not: as the read says.
        }
        if (error) return resolve(done(streamed, false));
        const length = offset + bytesRead;
        if (length < wanted) return resolve(done({ path, subagents, whole: { info, bytes: buffer.subarray(0, length) } }, true));
        readFile(path).then(
          (bytes) => resolve(done({ path, subagents, whole: { info, bytes } }, false)),
          () => resolve(done(streamed, false)),
        );
      });
    readFrom(0);
  });
}

/** The rows of a file loadFile loaded; its buffer given back once they are made. */
export async function indexLoaded(loaded: LoadedFile): Promise<FileRows> {
  try {
    return await rowsOfLoaded(loaded);
  } finally {
    loaded.release?.();
  }
}

async function rowsOfLoaded({ path, subagents, whole }: LoadedFile): Promise<FileRows> {
  if (whole) {
    const { info, bytes } = whole;
    try {
      // A database is read with its write-ahead log, and one that grew past the limit meanwhile streams: as below.
      if (!isSqlite(bytes) && bytes.length <= WHOLE_READ_BYTES) {
        const binary = binaryReason(bytes.subarray(0, TEXT_PROBE_BYTES));
        if (binary !== null) return fail(`${path} is not a session: ${binary}`);
        const head = await headOfFileBytes(path, bytes);
        // A Claude Code log is read for its rows alone where it can be (model/claudeCodeRead.ts; its
        // lines validated and picked by the WebAssembly pass where that runs, cli/claudeCodeScanRead.ts);
        // else as the viewer reads it.
        const session = (head.format === 'claude-code' ? claudeCodeRows(bytes) : null) ?? (await ingest(bytes, { detail: 'light', keepEvents: false, keep: 'rows' }));
        return rowsOfFile(session, { file: path, bytes: info.size, modifiedMs: info.mtimeMs, head });
      }
    } catch {
      // As a read that streams says it.
    }
  }
  return indexFileStreaming(path, subagents);
}

/** The pass, made once per thread on the first Claude Code log it reads; null where it cannot run. */
let scanner: IndexScanExports | null | undefined;

/** A Claude Code log read whole for its rows, as `loupe index` reads one (`npm run bench -- --detail rows` times it); null when ingest must read it. */
export function claudeCodeRows(bytes: Buffer): ReturnType<typeof readClaudeCodeForRows> {
  if (scanner === undefined) scanner = indexScanner();
  return scanner ? readClaudeCodeForRowsFromScan(bytes, scanner, bufferLines(bytes)) : readClaudeCodeForRows(bytes, bufferLines(bytes));
}

/**
 * A Claude Code log too large to read whole, read for its rows in windows of this size straight
 * into the pass's memory (the same memory for every file a thread reads): memory stays flat
 * whatever the file's size, and no page of it is new after the first file.
 */
const SCAN_WINDOW_BYTES = 4 * 1024 * 1024;

/**
 * A Claude Code log read for its rows from its file, in windows (`npm run bench -- --detail rows`
 * times it); null when the pass cannot run or ingest must read it.
 */
export function claudeCodeRowsOfFile(path: string): ReturnType<typeof readClaudeCodeForRows> {
  if (scanner === undefined) scanner = indexScanner();
  if (!scanner) return null;
  const fd = openSync(path, 'r');
  try {
    return readClaudeCodeForRowsInWindows((target) => readSync(fd, target, 0, target.length, null), scanner, SCAN_WINDOW_BYTES);
  } finally {
    closeSync(fd);
  }
}

/** The same rows read as a stream (a file too large to hold, or not a plain one): what the in-memory read is held to. */
export async function indexFileStreaming(path: string, subagents: readonly string[] = []): Promise<FileRows> {
  const unreadable = await whyUnreadable(path);
  if (unreadable !== null) return fail(unreadable);
  try {
    const info = await stat(path);
    const head = await readHead(path);
    // A database's log before the database (walBeside says why).
    const wal = await walBeside(path);
    const rows = head.format === 'claude-code' && subagents.length === 0 && wal === undefined ? claudeCodeRowsOfFile(path) : null;
    if (rows !== null) return rowsOfFile(rows, { file: path, bytes: info.size, modifiedMs: info.mtimeMs, head });
    const bytes = subagents.length > 0 ? withSubagentBytes(path, subagents) : fileChunks(path);
    const session = await ingest(bytes, { detail: 'light', keepEvents: false, keep: 'rows', wal });
    let size = info.size;
    for (const subagent of subagents) size += (await stat(subagent)).size;
    return rowsOfFile(session, { file: path, bytes: size, modifiedMs: info.mtimeMs, head });
  } catch (error) {
    // The file changed between the check and the read (removed, its mode changed, a disk error).
    return fail(readFailure(path, error));
  }
}
