// The library of a folder picked in the app ("Open folder…"): its files indexed in a worker, with
// progress, then the same library page `loupe open DIR` shows, over the rows held in memory.
import { useEffect, useState } from 'react';
import { indexFolder, pickedFiles, type FolderIndex, type FolderProgress } from './folderIndex';
import { Library } from './Library';

export function FolderLibrary({ files, onOpen }: { files: readonly File[]; onOpen: (file: File) => void }) {
  const [progress, setProgress] = useState<FolderProgress>({ done: 0, total: 0 });
  const [index, setIndex] = useState<{ state: 'indexing' } | { state: 'ready'; value: FolderIndex } | { state: 'failed'; why: string }>({ state: 'indexing' });

  useEffect(() => {
    // A new pick is a new FolderLibrary (the app keys it), so this runs once per folder.
    let stopped = false;
    void indexFolder(pickedFiles(files), (p) => void (stopped || setProgress(p))).then(
      (value) => void (stopped || setIndex({ state: 'ready', value })),
      (error: unknown) => void (stopped || setIndex({ state: 'failed', why: error instanceof Error ? error.message : String(error) })),
    );
    return () => {
      stopped = true;
    };
  }, [files]);

  if (index.state === 'ready') {
    const { files: byPath } = index.value;
    const open = (path: string) => {
      const file = byPath.get(path);
      if (file) onOpen(file);
    };
    return <Library picked={{ ...index.value, open }} />;
  }
  return (
    <div className="loupe-app__landing" data-testid="folder-indexing">
      <h1>Library</h1>
      {index.state === 'failed' ? (
        <p role="alert">Could not index the folder ({index.why}).</p>
      ) : (
        <p aria-busy="true">
          Reading the folder: <progress max={progress.total || undefined} value={progress.done} /> <span data-progress>{progress.done} / {progress.total} files</span>
        </p>
      )}
    </div>
  );
}
