// `loupe index --machine NAME --publish`: the session files a partition's table names copied
// beside it (machine=NAME/files/<path>), so a static host serving the team's folder serves them.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, describe, expect, test } from 'vitest';
import { publishedPath } from '../analysis/teamIndex';
import { publishPartitionFiles, scanPartitions } from './teamIndex';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A partition whose sessions table names `files`. */
function partition(base: string, machine: string, files: string[]): string {
  const dir = join(base, `machine=${machine}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sessions.parquet'), Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'file', data: files, type: 'STRING' }] })));
  return dir;
}

const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();

describe('publishPartitionFiles', () => {
  test('copies each named file under files/ by its path; a second run keeps what is unchanged, copies what changed, removes what the table no longer names', async () => {
    const work = mkdtempSync(join(tmpdir(), 'loupe-publish-'));
    made.push(work);
    const one = join(work, 'home/dev/one.jsonl');
    const two = join(work, 'home/dev/deep/two.jsonl');
    mkdirSync(join(work, 'home/dev/deep'), { recursive: true });
    writeFileSync(one, '{"a":1}\n');
    writeFileSync(two, '{"b":2}\n');
    const base = join(work, 'team');
    const dir = partition(base, 'alpha', [one, two, join(work, 'gone.jsonl')]);

    const first = await publishPartitionFiles(dir);
    expect(first).toMatchObject({ copied: 2, kept: 0 });
    expect(first.failed.map((f) => [f.file, f.why])).toEqual([[join(work, 'gone.jsonl'), 'ENOENT']]);
    expect(filesUnder(join(dir, 'files'))).toEqual([publishedPath(two), publishedPath(one)].sort());
    expect(readFileSync(join(dir, 'files', publishedPath(one)!), 'utf8')).toBe('{"a":1}\n');
    expect((await scanPartitions(base)).map((p) => [p.machine, p.published])).toEqual([['alpha', true]]);

    writeFileSync(two, '{"b":3}\n');
    utimesSync(two, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    partition(base, 'alpha', [two]);
    expect(await publishPartitionFiles(dir)).toMatchObject({ copied: 1, kept: 0 });
    expect(filesUnder(join(dir, 'files'))).toEqual([publishedPath(two)]);
    expect(readFileSync(join(dir, 'files', publishedPath(two)!), 'utf8')).toBe('{"b":3}\n');
    expect(await publishPartitionFiles(dir)).toMatchObject({ copied: 0, kept: 1 });
  });

  test('a path with . or .. segments is not published (it could point out of files/)', () => {
    expect(publishedPath('/home/dev/a.jsonl')).toBe('home/dev/a.jsonl');
    expect(publishedPath('C:\\Users\\dev\\a.jsonl')).toBe('C/Users/dev/a.jsonl');
    expect(publishedPath('/home/dev/../../etc/passwd')).toBeNull();
    expect(publishedPath('/home/./a.jsonl')).toBeNull();
  });
});
