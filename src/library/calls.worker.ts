// Decodes calls.parquet off the page's thread: the page hands over the file's bytes (it fetched
// them, under its own Content-Security-Policy) and gets the columns back, their buffers moved, not
// copied. A table on a static host is read by range: the worker asks the page for each range
// hyparquet plans (the footer, then the library's column chunks), and the page fetches it.
import type { AsyncBuffer } from 'hyparquet';
import { readCallColumns, type CallColumns } from './callColumns';

export type CallsWorkerQuestion =
  | { kind: 'file'; bytes: ArrayBuffer }
  | { kind: 'remote'; byteLength: number }
  | { kind: 'bytes'; id: number; bytes: ArrayBuffer };

export type CallsWorkerAnswer =
  | { kind: 'columns'; columns: CallColumns }
  | { kind: 'failed'; why: string }
  | { kind: 'slice'; id: number; start: number; end: number };

const asked = new Map<number, (bytes: ArrayBuffer) => void>();
let nextId = 0;

/** The host's file as hyparquet reads it: each slice a range the page fetches. */
function pageFetched(byteLength: number): AsyncBuffer {
  return {
    byteLength,
    slice: (start, end = byteLength) =>
      new Promise<ArrayBuffer>((resolve) => {
        const id = nextId++;
        asked.set(id, resolve);
        const question: CallsWorkerAnswer = { kind: 'slice', id, start, end };
        self.postMessage(question);
      }),
  };
}

self.onmessage = (event: MessageEvent<CallsWorkerQuestion>) => {
  const question = event.data;
  if (question.kind === 'bytes') {
    asked.get(question.id)?.(question.bytes);
    asked.delete(question.id);
    return;
  }
  void readCallColumns(question.kind === 'file' ? question.bytes : pageFetched(question.byteLength)).then(
    (columns) => {
      const answer: CallsWorkerAnswer = { kind: 'columns', columns };
      self.postMessage(answer, { transfer: [columns.file.buffer, columns.label.buffer, columns.status.buffer, columns.subject.buffer, columns.durationMs.buffer] });
    },
    (error: unknown) => {
      const answer: CallsWorkerAnswer = { kind: 'failed', why: error instanceof Error ? error.message : String(error) };
      self.postMessage(answer);
    },
  );
};
