// Loupe against the answer keys of the shared workload generator (../shared/tools/gen-session.mjs,
// beside the project in the team's checkout), the one the project's own generator was ported from.
// A clone of the repository alone has no ../shared: these tests are skipped there, and say why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { expectMatchesKey, type AnswerKey } from './testing/answerKey';

const SHARED_GENERATOR = join(import.meta.dirname, '../../../shared/tools/gen-session.mjs');
const present = existsSync(SHARED_GENERATOR);

function generateShared(format: string, seed: number, calls: number): { bytes: Uint8Array; key: AnswerKey } {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-shared-gen-'));
  const out = join(dir, `session.${format}.jsonl`);
  const keyFile = join(dir, 'key.json');
  try {
    execFileSync(process.execPath, [SHARED_GENERATOR, '--format', format, '--calls', String(calls), '--seed', String(seed), '--bad-rate', '0.01', '--out', out, '--expect', keyFile]);
    return { bytes: readFileSync(out), key: JSON.parse(readFileSync(keyFile, 'utf8')) as AnswerKey };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!present)(`the shared generator's answer keys${present ? '' : ' (skipped: ../shared not present)'}`, () => {
  describe.each(['acp', 'grok', 'ledger'])('%s', (format) => {
    test.each([5, 11])('seed %i', async (seed) => {
      const { bytes, key } = generateShared(format, seed, 1500);
      await expectMatchesKey(format, bytes, key);
    });
  });
});
