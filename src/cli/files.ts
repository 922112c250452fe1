import { stat } from 'node:fs/promises';

/**
 * Why `path` cannot be read as a session, in words a person acts on; null when it can. Every
 * command that takes a session file says it the same way; `directoryHint` says what to give instead.
 */
export async function whyUnreadable(path: string, directoryHint = 'give the session file inside it'): Promise<string | null> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return `${path} is a directory; ${directoryHint}`;
    if (!info.isFile()) return `${path} is not a regular file`;
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `no such file: ${path}`;
    if (code === 'EACCES' || code === 'EPERM') return `no permission to read ${path}`;
    return `cannot read ${path} (${code ?? String(error)})`;
  }
}
