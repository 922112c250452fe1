import ReactDiffViewer, { DiffMethod } from 'react-diff-viewer-continued';

/** Loaded lazily: the diff viewer is the largest dependency and only Edit/Write calls need it. */
export default function DiffView({ oldText, newText, dark }: { oldText: string; newText: string; dark: boolean }) {
  return (
    <ReactDiffViewer
      oldValue={oldText}
      newValue={newText}
      splitView={false}
      useDarkTheme={dark}
      compareMethod={DiffMethod.LINES}
      hideSummary
      disableWorker
      extraLinesSurroundingDiff={3}
    />
  );
}
