// A file of megabytes has its content hash taken in the ledger verifier's worker, which reads the
// file itself: notes kept under the file's BLAKE3 (written by the CLI, or before that worker read
// the file) must still attach to it.
import { readFileSync, writeFileSync } from 'node:fs';
import { createBLAKE3 } from 'hash-wasm';
import { ingest } from '../src/model';
import { expect, fixture, openByPicker, test } from './helpers';

test('notes kept under a large file’s BLAKE3 are imported onto it, not refused as another file’s', async ({ page }, info) => {
  const session = readFileSync(fixture('acp/codex-acp-1.6.2_unwrapped.jsonl'));
  // Well over the size from which a verifier worker is started, so it is ready before the read ends.
  const bytes = Buffer.concat(Array.from({ length: Math.ceil((8 << 20) / session.byteLength) }, () => session));
  const file = info.outputPath('large.jsonl');
  writeFileSync(file, bytes);
  const [noted] = (await ingest(bytes, { detail: 'light' })).calls.keys();
  const contentHash = (await createBLAKE3()).update(bytes).digest('hex');
  const sidecar = info.outputPath('large.notes.json');
  writeFileSync(sidecar, JSON.stringify({ loupeNotes: 1, contentHash, notes: { [noted!]: { text: 'kept under the file hash', bookmarked: true } } }));

  await openByPicker(page, file);
  const notes = page.getByRole('region', { name: 'Notes' });
  await notes.getByTestId('notes-import').setInputFiles(sidecar);
  await expect(notes.getByRole('status')).toContainText('Imported 1 note');
  await expect(notes.getByTestId('notes-list')).toContainText('kept under the file hash');
});
