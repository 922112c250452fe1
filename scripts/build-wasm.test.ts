import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSkim, SKIM_MODULE, skimModuleText } from './build-wasm.mjs';

describe('the committed WebAssembly skimmer', () => {
  it('is what its AssemblyScript source compiles to (npm run build:wasm writes it)', async () => {
    const committed = readFileSync(join(import.meta.dirname, '..', SKIM_MODULE), 'utf8');
    expect(committed).toBe(skimModuleText(await compileSkim()));
  });
});
