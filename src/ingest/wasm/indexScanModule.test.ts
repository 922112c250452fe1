// The committed module is what its source compiles to: a change to assembly/indexScan.ts without
// `npm run build:wasm` fails here, not in a user's index.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileIndexScan, MODULE_FILE, moduleSource } from '../../../scripts/build-wasm.mjs';
import { indexScanner } from './indexScanner';

test('indexScanModule.ts holds the module assembly/indexScan.ts compiles to, and it instantiates', async () => {
  const binary = await compileIndexScan();
  expect(readFileSync(MODULE_FILE, 'utf8')).toBe(moduleSource(binary));
  expect(indexScanner()?.wordsPerLine()).toBeGreaterThan(0);
}, 60_000);
