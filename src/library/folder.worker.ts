// "Open folder…" without a server: reads each picked file with the viewer's ingest, light (as
// `loupe index` reads), and turns it into the index's rows (fleetRows, the same function the CLI
// uses), reporting after each file so the page can show how far it has got. It fetches nothing.
import type { FileRows } from '../analysis/fileRows';
import { indexPickedFile, type FolderFile } from './folderFile';

export type FolderWorkerAnswer =
  | { kind: 'file'; done: number; total: number; path: string; results: FileRows[] }
  | { kind: 'end' };

self.onmessage = (event: MessageEvent<FolderFile[]>) => {
  void (async () => {
    const files = event.data;
    for (const [index, picked] of files.entries()) {
      const answer: FolderWorkerAnswer = { kind: 'file', done: index + 1, total: files.length, path: picked.path, results: await indexPickedFile(picked) };
      self.postMessage(answer);
    }
    const end: FolderWorkerAnswer = { kind: 'end' };
    self.postMessage(end);
  })();
};
