// Types for scripts/build-wasm.mjs, so a test can compile the skimmer and compare.
export const SKIM_SOURCE: string;
export const SKIM_MODULE: string;
export function compileSkim(): Promise<Uint8Array>;
export function skimModuleText(binary: Uint8Array): string;
