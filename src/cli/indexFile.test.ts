// The rows `loupe index` writes for a file, read the fast way (the whole file in memory, light),
// held to the same file read as a stream and to `summarize` of a full read: on every fixture, on
// generated sessions and on Claude Code logs changed at random (lines dropped, repeated, cut off,
// broken, ids changed), so a shortcut that reads a line differently shows here.
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMATS, generate } from '../../scripts/gen-session.mjs';
import type { FileRows } from '../analysis/fileRows';
import { ingest, summarize } from '../model';
import { indexFile, indexFileStreaming, indexLoaded, loadFile, WholeReadBuffers } from './indexFile';
import { walBeside } from './files';
import { claudeLogEdit, editedClaudeLog } from './testing/claudeLogEdits';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const work = mkdtempSync(join(tmpdir(), 'loupe-index-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const fixtureFiles = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => !name.startsWith('__snapshots__') && /\.(jsonl|json|log|db)$/.test(name))
  .map((name) => join(FIXTURES, name))
  .sort();

/** What the index says of each call, as summarize --json of a full read says it. */
async function expectIndexedAsSummarized(path: string, rows: FileRows): Promise<void> {
  if (!rows.ok) return;
  const summary = summarize(await ingest(createReadStream(path), { detail: 'full', wal: await walBeside(path) }));
  // No rows: a full read finds no session in it either.
  if (rows.value === null) return void expect(['unknown', 'empty']).toContain(summary.format);
  const indexed = rows.value;
  expect(indexed.calls.map((call) => [call.call_id, call.session, call.label, call.subject, call.status, call.permission, call.duration_ms, call.exit_code, call.parent_call_id])).toEqual(
    summary.calls.map((call) => [call.id, call.session, call.label, call.subject, call.status, call.permission, call.durationMs, call.exitCode, call.parent]),
  );
  expect(indexed.session.bad_lines).toBe(summary.counts.bad);
}

async function expectSameRows(path: string): Promise<void> {
  const fast = await indexFile(path);
  expect(fast).toEqual(await indexFileStreaming(path));
  await expectIndexedAsSummarized(path, fast);
}

describe('index rows read whole from memory are those read as a stream, and summarize says the same', () => {
  it('on every fixture', async () => {
    expect(fixtureFiles.length).toBeGreaterThan(40);
    for (const path of fixtureFiles) await expectSameRows(path);
  });

  it('on generated sessions of every format', async () => {
    for (const format of FORMATS) {
      for (const seed of [1, 2]) {
        const path = join(work, `${format}-${seed}.jsonl`);
        writeFileSync(path, generate({ format, calls: 20, seed }).text);
        await expectSameRows(path);
      }
    }
  });

  it('on Claude Code logs changed at random', async () => {
    const sample = readFileSync(join(FIXTURES, 'native/claude-code-2.1.83_via-claude-agent-acp.jsonl'), 'utf8').split('\n').filter((line) => line !== '');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(claudeLogEdit(), { maxLength: 6 }), fc.boolean(), async (edits, lastNewline) => {
        const path = join(work, `claude-${run++}.jsonl`);
        writeFileSync(path, editedClaudeLog(sample, edits, lastNewline));
        await expectSameRows(path);
      }),
      { numRuns: 40 },
    );
  });
});

describe('files read whole into buffers used again, as a reader thread reads them', () => {
  it('give each file its own rows while the next one is read into another buffer', async () => {
    const buffers = new WholeReadBuffers();
    // Largest first, then smaller and larger again: buffers are used again and grown.
    const paths = [...fixtureFiles].sort((a, b) => readFileSync(b).length - readFileSync(a).length).slice(0, 24);
    paths.push(...paths.splice(0, 8).reverse());
    let next: ReturnType<typeof loadFile> | null = loadFile(paths[0]!, [], buffers);
    for (let i = 0; next; i++) {
      const loaded = await next;
      // The next file is read while this one is parsed, as runReaderThread reads them.
      next = i + 1 < paths.length ? loadFile(paths[i + 1]!, [], buffers) : null;
      expect(await indexLoaded(loaded), paths[i]).toEqual(await indexFile(paths[i]!));
    }
  });

  it('hand a buffer out once until it is given back', () => {
    const buffers = new WholeReadBuffers();
    const first = buffers.take(100);
    const second = buffers.take(10);
    expect(second.buffer).not.toBe(first.buffer);
    buffers.give(first);
    expect(buffers.take(50).buffer).toBe(first.buffer);
    expect(buffers.take(50).buffer).not.toBe(first.buffer);
  });
});
