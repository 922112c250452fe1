import { memo } from 'react';
import ReactDiffViewer, { DiffMethod } from 'react-diff-viewer-continued';

/** Loaded lazily: the diff viewer is the largest dependency and only Edit/Write calls need it. */
function DiffView({ oldText, newText, dark }: { oldText: string; newText: string; dark: boolean }) {
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

// Memoised: computing a diff is costly and rows re-render as the session grows.
export default memo(DiffView);
