// What `loupe index` writes in its --out folder, told apart from sessions: a walk for session files
// (`loupe ls DIR`, `loupe index DIR`) must not list an index's manifest.json as one.
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
/** The tables beside the manifest (CALLS_TABLE.file and SESSIONS_TABLE.file in analysis/fleet). */
export const INDEX_TABLE_FILES = ['calls.parquet', 'sessions.parquet'] as const;

/** Whether `path` is an index's manifest: a manifest.json with one of the index's tables beside it. */
export async function isIndexOutput(path: string): Promise<boolean> {
  if (basename(path) !== MANIFEST_FILE) return false;
  for (const table of INDEX_TABLE_FILES) {
    if ((await stat(join(dirname(path), table)).catch(() => null))?.isFile()) return true;
  }
  return false;
}
