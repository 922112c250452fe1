import { memo } from 'react';
import ReactDiffViewer, { DiffMethod } from 'react-diff-viewer-continued';

// The viewer's table is at least 1000 px wide unless the whole window is narrow, so in a row
// narrower than that (a window under ~1300 px beside the sidebar) the lines' ends were cut off.
// One column of lines wraps, so it can take the row's width.
const FIT_THE_ROW = { diffContainer: { minWidth: 'unset' } };

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
      styles={FIT_THE_ROW}
    />
  );
}

// Memoised: computing a diff is costly and rows re-render as the session grows.
export default memo(DiffView);
