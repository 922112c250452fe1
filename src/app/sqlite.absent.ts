// What the html export's viewer has in place of SQLite (vite.export.config.ts swaps this module in
// for src/ingest/sqlite/sqljs.ts): an exported page holds a session of JSON lines; SQLite in
// WebAssembly would more than double the page for the one format (OpenCode's database) that needs it.
export const loadSqlJs = (): Promise<never> =>
  Promise.reject(new Error('an html export does not read SQLite databases: open the database with loupe open'));
