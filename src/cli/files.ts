import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { access, open, readFile, stat } from 'node:fs/promises';
import { applyWal, isSqlite } from '../ingest/sqlite/wal';
import { fail, ok, type Result } from '../ingest/result';
import { ingest } from '../model';
import type { Session } from '../model/session';
import { fileChunks } from './fileChunks';
import { readFailure } from './listable';
import { subagentFilesOf, withSubagentBytes } from './subagentFiles';

/**
 * Why `path` cannot be read as a session, in words a person acts on; null when it can. Every
 * command that takes a session file says it the same way; `directoryHint` says what to give instead.
 */
export async function whyUnreadable(path: string, directoryHint = 'give the session file inside it'): Promise<string | null> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return `${path} is a directory; ${directoryHint}`;
    if (!info.isFile()) return `${path} is not a regular file`;
    // stat needs only the folder's permission; a file of mode 000 passes it and fails when read.
    await access(path, constants.R_OK);
    return await whyNotText(path);
  } catch (error) {
    return readFailure(path, error);
  }
}

/** How much of a file's start is looked at to tell text from binary. */
export const TEXT_PROBE_BYTES = 64 * 1024;

/**
 * Why `path` is not a session's text, or null when its first bytes could be: a NUL byte (an image,
 * an archive, UTF-16) or mostly invalid UTF-8. Every format Loupe reads but SQLite (OpenCode's
 * database) is UTF-8 JSON, so such a file would only be read as hundreds of bad lines (and exported
 * as a page of them).
 */
async function whyNotText(path: string): Promise<string | null> {
  const handle = await open(path, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(TEXT_PROBE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TEXT_PROBE_BYTES, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const binary = binaryReason(bytes);
  return binary === null ? null : `${path} is not a session: ${binary}`;
}

/** U+FFFD in UTF-8. */
const REPLACEMENT_CHARACTER = Buffer.from([0xef, 0xbf, 0xbd]);

/** Why these first bytes of a file are binary, not text; null when they may be text. */
export function binaryReason(bytes: Uint8Array): string | null {
  // Valid UTF-8 with no NUL decodes to no U+FFFD but the file's own (EF BF BD), which the count
  // below counts: such bytes are text, told without decoding them (every file `loupe index` reads
  // is probed). binary.test.ts holds this to the decoding's answer.
  if (bytes.indexOf(0) < 0 && isUtf8(bytes) && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(REPLACEMENT_CHARACTER) < 0) return null;
  return binaryReasonByDecoding(bytes);
}

/** binaryReason's answer read from the decoded text. */
export function binaryReasonByDecoding(bytes: Uint8Array): string | null {
  // The one binary format Loupe reads: a SQLite database (OpenCode's), read by its tables.
  if (isSqlite(bytes)) return null;
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `it holds binary data (a NUL byte at offset ${nul}), and sessions are text (JSON lines)`;
  // A multi-byte character cut by the end of the probe is not an error.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: true });
  if (!text.includes('\uFFFD')) return null;
  let invalid = 0;
  let chars = 0;
  for (const char of text) {
    chars++;
    if (char === '\uFFFD') invalid++;
  }
  // A file that holds a few U+FFFD (or a few bad bytes) is still text; only much of it undecodable is not.
  if (invalid > 0 && invalid >= 0.1 * chars) return `it is not UTF-8 text (${invalid.toLocaleString('en')} of its first ${chars.toLocaleString('en')} characters do not decode), and sessions are text (JSON lines)`;
  return null;
}

/** Line numbers for a report a person checks: the first `shown`, then how many more. */
export function lineList(lines: readonly number[], shown = 10): string {
  const unique = [...new Set(lines)];
  return `line${unique.length > 1 ? 's' : ''} ${unique.slice(0, shown).join(', ')}${unique.length > shown ? `, … ${unique.length - shown} more` : ''}`;
}

/**
 * The write-ahead log beside a SQLite database (`PATH-wal`: OpenCode writes its database in WAL
 * mode), read once, whole; undefined when there is none. Only a database's reading looks at it.
 * Read it before the database: a checkpoint between the two reads then copies into the main file
 * only frames the log read holds (applied again, they change nothing), while a log read after the
 * main file may have restarted past frames the main file read did not have yet.
 */
export async function walBeside(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(`${path}-wal`);
  } catch {
    return undefined;
  }
}

/**
 * A SQLite database (OpenCode's) as one file the page can read: its main file with the committed
 * frames of the `-wal` beside it applied (ingest/sqlite/wal.ts), for a reader that gets no `-wal`
 * of its own; null for a file that is not a database.
 */
export async function databaseSnapshot(path: string): Promise<Uint8Array | null> {
  const handle = await open(path, 'r');
  try {
    const magic = Buffer.alloc(16);
    const { bytesRead } = await handle.read(magic, 0, 16, 0);
    if (bytesRead < 16 || !isSqlite(magic)) return null;
  } finally {
    await handle.close();
  }
  const wal = await walBeside(path);
  return applyWal(await readFile(path), wal).bytes;
}

/**
 * A session file (with a Claude Code session's sub-agent files) read with the viewer's own ingest, rows only (the CLI prints no content, so it
 * reads light: see BuilderOptions); or why it could not be read, in whyUnreadable's words.
 * `through`: what the file's bytes pass through first (`loupe diff --redact` redacts them).
 */
export async function readSessionFile(
  path: string,
  through: (bytes: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array> = (bytes) => bytes,
): Promise<Result<Session>> {
  const unreadable = await whyUnreadable(path);
  if (unreadable !== null) return fail(unreadable);
  try {
    // A Claude Code session's sub-agents are in files of their own (CONTRACTS §10, §11): read with it, as one input.
    const subagents = await subagentFilesOf(path);
    // A database's log before the database (walBeside says why).
    const wal = await walBeside(path);
    const bytes = subagents.length > 0 ? withSubagentBytes(path, subagents) : fileChunks(path);
    return ok(await ingest(through(bytes), { detail: 'light', wal }));
  } catch (error) {
    // The file changed between the check and the read (removed, its mode changed, a disk error).
    return fail(readFailure(path, error));
  }
}
