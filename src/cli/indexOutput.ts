// What `loupe index` writes in its --out folder, told apart from sessions: a walk for session files
// (`loupe ls DIR`, `loupe index DIR`) does not enter an index's folder (its manifest is JSON, not a session).

export const MANIFEST_FILE = 'manifest.json';
/** The tables beside the manifest (CALLS_TABLE.file and SESSIONS_TABLE.file in analysis/fleet). */
export const INDEX_TABLE_FILES = ['calls.parquet', 'sessions.parquet'] as const;

/** Whether a folder holding these names is an index's: its manifest with one of its tables beside it. */
export function isIndexFolder(names: readonly string[]): boolean {
  return names.includes(MANIFEST_FILE) && INDEX_TABLE_FILES.some((table) => names.includes(table));
}
