// A file's lines as the index reads a Claude Code log (model/claudeCodeRead.ts), from a Node
// Buffer: the newline found by the Buffer's own search and an ASCII line copied as Latin-1, each a
// call into Node. TextDecoder's `decode` and a Uint8Array's `indexOf` cost a third of what the rest
// of reading a line does besides its JSON.parse. A line that is not ASCII is decoded as TextDecoder
// decodes it (its replacement of invalid bytes is the one ingest's is), so the text is the same.
import { isAscii } from 'node:buffer';
import type { LineSplitter } from '../model';

export function bufferLines(buffer: Buffer): LineSplitter {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return {
    newline: (from) => buffer.indexOf(10, from),
    text: (start, end) => {
      const bytes = buffer.subarray(start, end);
      return isAscii(bytes) ? buffer.toString('latin1', start, end) : decoder.decode(bytes);
    },
  };
}
