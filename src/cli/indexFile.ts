// One file of `loupe index`: a Claude Code log read for its rows alone (model/claudeCodeRead.ts),
// any other with the viewer's ingest, light (as `loupe summarize` reads), and turned into rows (analysis/fileRows.ts, which "Open folder…" uses too). Runs in an
// index worker thread, or in the calling thread.
import { closeSync, createReadStream, openSync, read, readSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { rowsOfFile, type FileRows } from '../analysis/fileRows';
import { fail } from '../ingest/result';
import { isSqlite } from '../ingest/sqlite/wal';
import { ingest, readClaudeCodeForRows } from '../model';
import { indexScanner, type IndexScanExports } from '../ingest/wasm/indexScanner';
import { bufferLines } from './bufferLines';
import { readClaudeCodeForRowsFromScan, readClaudeCodeForRowsInWindows } from './claudeCodeScanRead';
import { binaryReason, readFailure, TEXT_PROBE_BYTES, walBeside, whyUnreadable } from './files';
import { headOfFileBytes, readHead } from './sessions';
import { withSubagentBytes } from './subagentFiles';

/**
 * Files up to this size are read in one call and checked, headed and parsed from memory (a
 * session log is most often well under it): one open and read instead of four, which is most of a
 * small file's time apart from its parse. Larger files stream, so memory stays bounded.
 */
const WHOLE_READ_BYTES = 8 * 1024 * 1024;

/** `subagents`: the session's sub-agents' own files (CONTRACTS §10), read with it as one input so their calls have parents. */
export async function indexFile(path: string, subagents: readonly string[] = []): Promise<FileRows> {
  return indexLoaded(await loadFile(path, subagents));
}

/** A file as loadFile found it: its bytes when it is read whole, else none (it streams). */
export interface LoadedFile {
  path: string;
  subagents: readonly string[];
  whole?: { info: Stats; bytes: Buffer };
}

/**
 * Starts reading a file that is read whole, and resolves once its bytes are in (never rejects: a
 * file that cannot be read streams, and the stream says why). The stat and open are done here and
 * now, and the bytes come in one read: a reader thread starts the next file's before it parses
 * this one, and parsing gives the thread's loop no turn to go from one step of a read to the next.
 */
export function loadFile(path: string, subagents: readonly string[] = []): Promise<LoadedFile> {
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
  const buffer = Buffer.allocUnsafeSlow(info.size + 1);
  return new Promise<LoadedFile>((done) => {
    // Read on until a read gives nothing (a network or FUSE file system may give less than asked
    // before the end), as readFile reads.
    const readFrom = (offset: number): void =>
      read(fd, buffer, offset, buffer.length - offset, offset, (error, bytesRead) => {
        if (!error && bytesRead > 0 && offset + bytesRead < buffer.length) return readFrom(offset + bytesRead);
        try {
          closeSync(fd);
        } catch {
          // Read already, or not: as the read says.
        }
        if (error) return done(streamed);
        const length = offset + bytesRead;
        if (length < buffer.length) return done({ path, subagents, whole: { info, bytes: buffer.subarray(0, length) } });
        readFile(path).then(
          (bytes) => done({ path, subagents, whole: { info, bytes } }),
          () => done(streamed),
        );
      });
    readFrom(0);
  });
}

/** The rows of a file loadFile loaded. */
export async function indexLoaded({ path, subagents, whole }: LoadedFile): Promise<FileRows> {
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
        const session = (head.format === 'claude-code' ? claudeCodeRows(bytes) : null) ?? (await ingest(bytes, { detail: 'light', keepEvents: false }));
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
    const bytes = subagents.length > 0 ? withSubagentBytes(path, subagents) : createReadStream(path, { highWaterMark: 1 << 20 });
    const session = await ingest(bytes, { detail: 'light', keepEvents: false, wal });
    let size = info.size;
    for (const subagent of subagents) size += (await stat(subagent)).size;
    return rowsOfFile(session, { file: path, bytes: size, modifiedMs: info.mtimeMs, head });
  } catch (error) {
    // The file changed between the check and the read (removed, its mode changed, a disk error).
    return fail(readFailure(path, error));
  }
}
