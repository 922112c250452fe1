export const MODULE_FILE: string;
export function compileIndexScan(extraFlags?: string[]): Promise<Uint8Array>;
export function moduleSource(binary: Uint8Array): string;
