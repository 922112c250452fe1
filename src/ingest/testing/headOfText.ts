// A text's head as the head reader reads a file (ingest/harnesses/head.ts readHead), for tests
// that hold a fixture's text.
import { blobHeadSource, readHead } from '../harnesses/head';
import type { SessionHead } from '../harnesses/types';

export function headOfText(text: string): Promise<SessionHead> {
  return readHead(blobHeadSource(new Blob([text])));
}
