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
import { indexFile, indexFileStreaming } from './indexFile';
import { walBeside } from './files';

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
    const edit = fc.oneof(
      fc.record({ type: fc.constant('drop' as const), at: fc.nat() }),
      fc.record({ type: fc.constant('repeat' as const), at: fc.nat() }),
      fc.record({ type: fc.constant('cut' as const), at: fc.nat(), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ type: fc.constant('rename' as const), at: fc.nat(), to: fc.constantFrom('toolu_x', 'msg_x', 'other-session') }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 6 }), fc.boolean(), async (edits, lastNewline) => {
        const lines = [...sample];
        for (const change of edits) {
          const at = change.at % lines.length;
          const line = lines[at]!;
          if (change.type === 'drop' && lines.length > 1) lines.splice(at, 1);
          else if (change.type === 'repeat') lines.splice(at, 0, line);
          else if (change.type === 'cut') lines[at] = line.slice(0, Math.floor(line.length * change.keep));
          else if (change.type === 'rename') lines[at] = line.replace(/toolu_[a-z0-9_]+|msg_[a-z0-9_]+|"sessionId":"[^"]+"/, (id) => (id.startsWith('"sessionId"') ? `"sessionId":"${change.to}"` : change.to));
        }
        const path = join(work, `claude-${run++}.jsonl`);
        writeFileSync(path, lines.join('\n') + (lastNewline ? '\n' : ''));
        await expectSameRows(path);
      }),
      { numRuns: 40 },
    );
  });
});
