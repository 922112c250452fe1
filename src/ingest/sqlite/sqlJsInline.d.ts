// sql.js's inline build (the WebAssembly in the script) has the package's own types.
declare module 'sql.js/dist/sql-wasm-inline.js' {
  import initSqlJs from 'sql.js';
  export default initSqlJs;
}
