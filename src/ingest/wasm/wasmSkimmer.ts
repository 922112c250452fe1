// The WebAssembly skimmer (./assembly/skim.ts) behind skim.ts's interface. It is compiled once,
// synchronously, on first use; where that fails (no WebAssembly, no SIMD, a policy without
// 'wasm-unsafe-eval', Chromium's limit on compiling on the main thread) the JS skimmer reads instead,
// and `skimmerKind` says which one did.
import { keyName, LineSkimmer, type Skimmer } from '../skim';
import { SKIM_WASM_BASE64 } from './skimModule';

interface SkimExports {
  memory: WebAssembly.Memory;
  input(): number;
  reserve(length: number): number;
  skim(length: number): number;
  spansAt(): number;
  parentsAt(): number;
  parentsFound(): number;
}

/** Which skimmer a light read uses: `wasm` (SIMD), or `js` where WebAssembly with SIMD is not available. */
export type SkimmerKind = 'wasm' | 'js';

let compiled: WebAssembly.Module | null | undefined;

function skimModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    const binary = Uint8Array.from(atob(SKIM_WASM_BASE64), (c) => c.charCodeAt(0));
    compiled = new WebAssembly.Module(binary);
  } catch {
    compiled = null;
  }
  return compiled;
}

function isSkimExports(value: WebAssembly.Exports): value is WebAssembly.Exports & SkimExports {
  return value.memory instanceof WebAssembly.Memory && ['input', 'reserve', 'skim', 'spansAt', 'parentsAt', 'parentsFound'].every((name) => typeof value[name] === 'function');
}

export class WasmLineSkimmer implements Skimmer {
  readonly spans: number[] = [];
  readonly parents: string[][] = [];
  private readonly exports: SkimExports;
  private bytes: Uint8Array;
  private words: Uint32Array;

  /** Null when WebAssembly with SIMD cannot run here. */
  static create(): WasmLineSkimmer | null {
    const module = skimModule();
    if (!module) return null;
    try {
      const instance = new WebAssembly.Instance(module, {
        env: {
          abort() {
            throw new Error('the WebAssembly skimmer aborted');
          },
        },
      });
      return isSkimExports(instance.exports) ? new WasmLineSkimmer(instance.exports) : null;
    } catch {
      return null;
    }
  }

  private constructor(exports: SkimExports) {
    this.exports = exports;
    this.bytes = new Uint8Array(exports.memory.buffer);
    this.words = new Uint32Array(exports.memory.buffer);
  }

  skim(b: Uint8Array, start: number, end: number): boolean {
    this.spans.length = 0;
    this.parents.length = 0;
    const { exports } = this;
    const length = end - start;
    if (!exports.reserve(length)) return false;
    if (this.bytes.buffer !== exports.memory.buffer) {
      // Memory grew: views of the old buffer are detached.
      this.bytes = new Uint8Array(exports.memory.buffer);
      this.words = new Uint32Array(exports.memory.buffer);
    }
    const at = exports.input();
    this.bytes.set(b.subarray(start, end), at);
    const found = exports.skim(length);
    if (found < 0) return false;
    const words = this.words;
    const spansAt = exports.spansAt() >> 2;
    for (let k = 0; k < found * 2; k++) this.spans.push(start + words[spansAt + k]!);
    let p = exports.parentsAt() >> 2;
    for (let n = exports.parentsFound(); n > 0; n--) {
      const keys = words[p++]!;
      const path: string[] = [];
      for (let d = 0; d < keys; d++, p += 2) path.push(keyName(b, start + words[p]!, start + words[p + 1]!));
      this.parents.push(path);
    }
    return true;
  }
}

/** The skimmer a light read uses: the WebAssembly one unless told otherwise or unavailable. */
export function lightSkimmer(prefer: SkimmerKind = 'wasm'): { skimmer: Skimmer; kind: SkimmerKind } {
  const wasm = prefer === 'wasm' ? WasmLineSkimmer.create() : null;
  return wasm ? { skimmer: wasm, kind: 'wasm' } : { skimmer: new LineSkimmer(), kind: 'js' };
}
