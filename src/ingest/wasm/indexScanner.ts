// The index's WebAssembly pass (assembly/indexScan.ts, compiled into indexScanModule.ts), made
// ready to call: compiled synchronously (a reader thread needs no `await`), once per thread by its
// caller. Where WebAssembly with SIMD cannot run, there is none, and the caller reads each line
// with JSON.parse as before.
import { INDEX_SCAN_WASM_BASE64 } from './indexScanModule';

/** The pass's exports (their meaning: assembly/indexScan.ts; how they are read: cli/claudeCodeScanRead.ts). */
export interface IndexScanExports {
  memory: WebAssembly.Memory;
  input(): number;
  tableAt(): number;
  blocksAt(): number;
  wordsPerLine(): number;
  wordsPerBlock(): number;
  reserve(length: number): number;
  scan(from: number, length: number): number;
  resumeAt(): number;
}

/** A fresh instance of the pass (its own memory), or null where it cannot be made. */
export function indexScanner(): IndexScanExports | null {
  try {
    const bytes = Uint8Array.from(atob(INDEX_SCAN_WASM_BASE64), (char) => char.charCodeAt(0));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
      env: {
        abort: () => {
          throw new Error('the index scan aborted');
        },
      },
    });
    return instance.exports as unknown as IndexScanExports;
  } catch {
    return null;
  }
}
