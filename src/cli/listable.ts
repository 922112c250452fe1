// Why a path cannot be listed or read, in words: apart from files.ts (which reads sessions with the
// model) so that the commands that only walk folders (`loupe index` with nothing changed) load it alone.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';

/**
 * Why a DIR given to `loupe ls` or `loupe index` cannot be listed, or null when it can (a folder, or
 * one session file): said before anything is listed or written, so a mistyped path is not read as
 * "no sessions" (or indexed as none).
 */
export async function whyNotListable(path: string): Promise<string | null> {
  try {
    const info = await stat(path);
    if (!info.isDirectory() && !info.isFile()) return `${path} is not a folder or a file`;
    await access(path, info.isDirectory() ? constants.R_OK | constants.X_OK : constants.R_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === 'ENOENT') return `no such folder: ${path}`;
    if (code === 'ENOTDIR') return `no such folder: ${path} (a part of it is a file)`;
    return readFailure(path, error);
  }
}

/** What went wrong reading `path`, as whyUnreadable says it, for an error met while reading. */
export function readFailure(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return `no such file: ${path}`;
  if (code === 'EACCES' || code === 'EPERM') return `no permission to read ${path}`;
  if (code === 'EISDIR') return `${path} is a directory`;
  return `cannot read ${path} (${code ?? (error instanceof Error ? error.message : String(error))})`;
}
