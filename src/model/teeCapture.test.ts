// What `loupe tee` records besides messages (CONTRACTS §1 capture lines with `text`): agent
// stderr lines and frames that were not JSON are events, each shown at its line, none lost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ingest, summarize } from './index';

const FIXTURE = join(import.meta.dirname, '../../fixtures/acp/loupe-tee_text-frames.jsonl');

test('stderr lines and non-JSON frames are events; a frame also warns with its line number', async () => {
  const session = await ingest(readFileSync(FIXTURE), { chunkSize: 333 });
  expect(session.format).toBe('acp-capture');
  expect(session.counts).toEqual({ lines: 20, events: 20, unknown: 0, bad: 0 });
  const events = session.items.flatMap((item) => (item.type === 'event' && ['stderr', 'frame (not JSON)'].includes(item.name) ? [[item.loc.line, item.name, item.summary]] : []));
  expect(events).toEqual([
    [2, 'stderr', 'my-agent 0.3.1 starting (log level info)'],
    [4, 'frame (not JSON)', 'hello? is this thing on'],
    [9, 'frame (not JSON)', 'DEBUG spawning tool runner pid=4242'],
    [16, 'stderr', 'WARN tool runner slow to answer'],
  ]);
  expect(session.diagnostics.warnings.filter((warning) => warning.message.includes('not JSON'))).toEqual([
    { line: 4, message: 'client->agent frame that is not JSON' },
    { line: 9, message: 'agent->client frame that is not JSON' },
  ]);
});

test('the call joins its permission outcome and its terminal, read light as the CLI reads', async () => {
  const session = await ingest(readFileSync(FIXTURE), { detail: 'light' });
  expect(summarize(session).calls).toEqual([
    {
      id: 'call-1', session: 's-1', label: 'Run Command', subject: 'npm test', status: 'failed',
      permission: 'allow_once', terminal: { output: '> test\n2 passed, 1 failed\n', exitCode: 1 },
      note: null, direction: 'agent->client', durationMs: 2260, exitCode: 1, parent: null,
    },
  ]);
});
