// A Blob's content hash, read from the Blob itself: what the verifier worker hashes a file with, and
// what the parser falls back to when that worker is not there to answer.
import type { IHasher } from 'hash-wasm';

/** The BLAKE3 (hex) of every byte of `blob`, with `hasher` (reset first). */
export async function hashBlob(hasher: IHasher, blob: Blob): Promise<string> {
  hasher.init();
  const reader = blob.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return hasher.digest('hex');
    hasher.update(value);
  }
}
