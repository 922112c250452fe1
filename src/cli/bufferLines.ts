// A file's lines as the index reads a Claude Code log (model/claudeCodeRead.ts), from a Node
// Buffer: the newline found by the Buffer's own search and the line decoded by the Buffer's own
// UTF-8 reading, each one call into Node. TextDecoder's `decode` and a Uint8Array's `indexOf` cost
// a third of what the rest of reading a line does besides its JSON.parse. Node's UTF-8 reading
// replaces invalid bytes as TextDecoder does (one U+FFFD per maximal invalid subpart, a BOM kept),
// so the text is the same: bufferLines.test.ts holds the two equal on any bytes.
import type { LineSplitter } from '../model';

export function bufferLines(buffer: Buffer): LineSplitter {
  return {
    newline: (from) => buffer.indexOf(10, from),
    // One call for any line: checking for ASCII first to copy it as Latin-1 was two, and slower.
    text: (start, end) => buffer.toString('utf8', start, end),
  };
}
