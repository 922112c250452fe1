// A load source's bytes, read again from the start (an export re-reads the records a view was made of).
import type { LoadSource } from './protocol';

export async function* sourceBytes(source: LoadSource): AsyncGenerator<Uint8Array> {
  switch (source.kind) {
    case 'blob':
      yield new Uint8Array(await source.blob.arrayBuffer());
      return;
    case 'text':
      yield new TextEncoder().encode(source.text);
      return;
    case 'records':
      yield new TextEncoder().encode(source.records.map((record) => JSON.stringify(record)).join('\n') + '\n');
      return;
    case 'url': {
      const response = await fetch(source.url);
      if (!response.ok) throw new Error(`Could not read ${source.url} again: HTTP ${response.status}`);
      yield new Uint8Array(await response.arrayBuffer());
      return;
    }
    case 'stream':
      throw new Error('A stream is read once: it cannot be read again to export its records');
  }
}
