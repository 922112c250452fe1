// Decodes calls.parquet off the page's thread: the page hands over the file's bytes (it fetched
// them, under its own Content-Security-Policy) and gets the columns back, their buffers moved, not copied.
import type { Result } from '../ingest/result';
import { readCallColumns, type CallColumns } from './callColumns';

export type CallsWorkerAnswer = Result<CallColumns>;

self.onmessage = (event: MessageEvent<ArrayBuffer>) => {
  void readCallColumns(event.data).then(
    (columns) => {
      const answer: CallsWorkerAnswer = { ok: true, value: columns };
      self.postMessage(answer, { transfer: [columns.file.buffer, columns.label.buffer, columns.status.buffer, columns.subject.buffer, columns.durationMs.buffer] });
    },
    (error: unknown) => {
      const answer: CallsWorkerAnswer = { ok: false, error: error instanceof Error ? error.message : String(error) };
      self.postMessage(answer);
    },
  );
};
