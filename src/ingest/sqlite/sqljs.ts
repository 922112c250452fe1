// SQLite in WebAssembly (sql.js), loaded once and only when a database is read: the same build in
// Node, the page and workers. The `inline` build carries its WebAssembly in the script, so no
// `.wasm` file has to be found next to a bundle (the CLI is one file; the page's assets are hashed).
import type { SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | undefined;

export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= import('sql.js/dist/sql-wasm-inline.js').then((module) => {
    const init = (module as { default: (config?: object) => Promise<SqlJsStatic> }).default;
    return init();
  });
  // A failed load is tried again next time, not remembered.
  loading.catch(() => (loading = undefined));
  return loading;
}
