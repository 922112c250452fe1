// How the CLI reads a file for `ingest`: in chunks read into one buffer used again for every read,
// as the viewer's worker reads a File (model/readSession.ts, streamChunksReusing). Each chunk is
// valid only until the next is asked for; whatever reads them copies what it keeps (the line
// reader's carry, ingest's head and a database's chunks, an export's lines: readSession.test.ts
// and fileChunks.test.ts hold them to it). A new buffer for every chunk (createReadStream) cost a
// light read of 40 MB 0.2–0.3 of the file's size in peak memory, and each new page's first touch.
import { open } from 'node:fs/promises';

/** A chunk's size: what createReadStream read with before (`highWaterMark`). */
export const FILE_CHUNK_BYTES = 1 << 20;

export async function* fileChunks(path: string, bufferBytes = FILE_CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    // A plain Uint8Array, not a Buffer: what reads the chunks copies with `slice()`, which a
    // Buffer makes a view (of the bytes the next read overwrites).
    const buffer = new Uint8Array(bufferBytes);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, bufferBytes, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
