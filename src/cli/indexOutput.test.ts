import { expect, test } from 'vitest';
import { CALLS_TABLE, SESSIONS_TABLE } from '../analysis/fleet';
import { INDEX_TABLE_FILES, isIndexFolder } from './indexOutput';

test("an index's folder is its manifest with a table beside it; a manifest.json alone, or sessions, is not", () => {
  expect([...INDEX_TABLE_FILES]).toEqual([CALLS_TABLE.file, SESSIONS_TABLE.file]);
  expect(isIndexFolder(['manifest.json', 'sessions.parquet'])).toBe(true);
  expect(isIndexFolder(['calls.parquet', 'manifest.json', 'x.tmp'])).toBe(true);
  expect(isIndexFolder(['manifest.json', 'session.jsonl'])).toBe(false);
  expect(isIndexFolder(['sessions.parquet'])).toBe(false);
});
