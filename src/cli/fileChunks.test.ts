// Files read through one buffer used again for every chunk give what their whole bytes give: ingest
// and the export's line reader copy what they keep. A small buffer puts a chunk's end inside most
// lines and records, where a reader that kept a view of the chunk would read the next chunk's bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from '../model';
import { exportJsonl } from '../share/exportJsonl';
import { fileChunks } from './fileChunks';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const files = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => !name.startsWith('__snapshots__') && /\.(jsonl|json|log|db)$/.test(name))
  .map((name) => join(FIXTURES, name))
  .sort();

async function collected(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

describe('fileChunks', () => {
  it('hands out the file’s bytes, each chunk in the same buffer', async () => {
    const path = files.find((file) => file.endsWith('.jsonl'))!;
    const seen = new Set<ArrayBufferLike>();
    const parts: Buffer[] = [];
    for await (const chunk of fileChunks(path, 61)) {
      seen.add(chunk.buffer);
      parts.push(Buffer.from(chunk));
    }
    expect(Buffer.concat(parts)).toEqual(readFileSync(path));
    expect(parts.length).toBeGreaterThan(10);
    expect(seen.size).toBe(1);
  });

  it('read in small chunks, every fixture is the session its whole bytes are', async () => {
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const whole = await ingest(readFileSync(file), { detail: 'full' });
      const chunked = await ingest(fileChunks(file, 509), { detail: 'full' });
      expect(chunked.counts, file).toEqual(whole.counts);
      expect([...chunked.calls.values()], file).toEqual([...whole.calls.values()]);
      expect(chunked.items, file).toEqual(whole.items);
      expect(chunked.diagnostics, file).toEqual(whole.diagnostics);
    }
  });

  it('read in small chunks, an export writes each fixture’s lines as they are', async () => {
    for (const file of files.filter((name) => name.endsWith('.jsonl'))) {
      const exported = await collected(exportJsonl(fileChunks(file, 509), { redact: false }));
      const text = readFileSync(file, 'utf8');
      // Every line as it is (a last line without its newline is given one only when kept by a filter).
      expect(exported.toString('utf8'), file).toBe(text);
    }
  });
});
