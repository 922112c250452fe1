// Paths as the harnesses write them: absolute, `/`-separated (ingest has no node:path; it runs in
// the page and in workers too).

export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(...parts: string[]): string {
  return parts.join('/').replace(/\/{2,}/g, '/');
}

/** `$VAR` when it is an absolute path (the harnesses ignore a relative one), else `fallback`. */
export function absoluteVar(value: string | undefined, fallback: string): string {
  return value !== undefined && value.startsWith('/') ? value : fallback;
}

/** The path's segments, without empty ones. */
export function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}
