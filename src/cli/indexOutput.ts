// What `loupe index` writes in its --out folder, told apart from sessions: a walk for session files
// (`loupe ls DIR`, `loupe index DIR`) does not enter an index's folder (its manifest is JSON, not a session).

export const MANIFEST_FILE = 'manifest.json';
/** The tables beside the manifest (CALLS_TABLE.file and SESSIONS_TABLE.file in analysis/fleet). */
export const INDEX_TABLE_FILES = ['calls.parquet', 'sessions.parquet'] as const;

/** Whether a folder holding these names is an index's: its manifest with one of its tables beside it. */
export function isIndexFolder(names: readonly string[]): boolean {
  return names.includes(MANIFEST_FILE) && INDEX_TABLE_FILES.some((table) => names.includes(table));
}

/**
 * Rows a row group holds: memory stays flat however many calls the fleet has. A group's values wait
 * in memory until it is written, and what they leave behind is collected late: at 50,000 rows the
 * index peaked at 320–470 MB on 1,000 Claude Code logs (2 threads), at 10,000 at 210 MB, its
 * table 4% larger (npm run bench:fleet).
 */
export const DEFAULT_ROW_GROUP_ROWS = 10_000;
