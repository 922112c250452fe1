import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CALLS_TABLE, SESSIONS_TABLE } from '../analysis/fleet';
import { INDEX_TABLE_FILES, isIndexOutput } from './indexOutput';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-index-output-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('an index\'s manifest.json is its output; a manifest.json with no tables beside it, or a session, is not', async () => {
  expect([...INDEX_TABLE_FILES]).toEqual([CALLS_TABLE.file, SESSIONS_TABLE.file]);
  mkdirSync(join(dir, 'index'));
  writeFileSync(join(dir, 'index/manifest.json'), '{}');
  writeFileSync(join(dir, 'index/sessions.parquet'), 'PAR1');
  writeFileSync(join(dir, 'manifest.json'), '{}');
  writeFileSync(join(dir, 'session.jsonl'), '{}\n');
  expect(await isIndexOutput(join(dir, 'index/manifest.json'))).toBe(true);
  expect(await isIndexOutput(join(dir, 'manifest.json'))).toBe(false);
  expect(await isIndexOutput(join(dir, 'session.jsonl'))).toBe(false);
});
