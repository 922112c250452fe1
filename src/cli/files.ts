import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';

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
    return null;
  } catch (error) {
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
