// The transcript view: the rows the filter keeps, or why there are none; following a live source,
// the button that brings back the rows that came in since the person scrolled away.
import type { RefObject } from 'react';
import type { CallSummary } from '../../model';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import { isFilterActive } from '../../store/filter';
import { SessionLinksContext, type SessionLinks } from '../calls/SpawnedSessions';
import { countOf } from '../format';
import type { ScrollRequest, VirtualListHandle } from '../virtual/VirtualList';
import { Transcript } from './Transcript';
import type { ReadRecord } from './RecordFromSource';
import shared from '../SessionView.module.css';
import styles from './transcript.module.css';

export interface TranscriptPaneProps {
  snap: SessionSnapshot;
  store: SessionStore;
  dark: boolean;
  sessionLinks: SessionLinks;
  scrollRequest: ScrollRequest | null;
  listHandle: RefObject<VirtualListHandle | null>;
  onToggle: (itemIndex: number, viewPos: number) => void;
  onNeedDetail?: (call: CallSummary) => void;
  onReadRecord?: ReadRecord | undefined;
  live: boolean;
  following: boolean;
  /** Rows that came in since following paused. */
  newRows: number;
  onUserScroll: (atEnd: boolean) => void;
  onJumpToLatest: () => void;
}

/** Why the transcript has no row to show. */
export function emptyTranscriptMessage(snap: SessionSnapshot): string {
  if (snap.load.state === 'loading') return 'Reading…';
  if (snap.items.size > 0) {
    return isFilterActive(snap.filter) ? 'No rows match the filter.' : 'No rows: the input holds only usage reports (the meter above and the Usage view show them).';
  }
  if (snap.load.state === 'error') return '';
  if (snap.counts.bad > 0) return `No record could be read: ${countOf(snap.counts.bad, 'bad line')} (see Diagnostics).`;
  return 'Nothing to show: the input holds no records.';
}

export function TranscriptPane({ snap, store, dark, sessionLinks, scrollRequest, listHandle, onToggle, onNeedDetail, onReadRecord, live, following, newRows, onUserScroll, onJumpToLatest }: TranscriptPaneProps) {
  if (snap.shownRows.length === 0) return <div className={shared.empty}>{emptyTranscriptMessage(snap)}</div>;
  return (
    <div className={styles.transcriptPane}>
      <SessionLinksContext.Provider value={sessionLinks}>
        <Transcript
          snap={snap}
          store={store}
          dark={dark}
          scrollRequest={scrollRequest}
          onToggle={onToggle}
          onNeedDetail={onNeedDetail}
          onReadRecord={onReadRecord}
          live={live}
          followEnd={live && following}
          onUserScroll={onUserScroll}
          listHandle={listHandle}
        />
      </SessionLinksContext.Provider>
      {live && !following ? (
        <button type="button" className={styles.jumpToLatest} data-testid="jump-to-latest" onClick={onJumpToLatest}>
          ↓ {newRows > 0 ? `${newRows.toLocaleString('en')} new row${newRows === 1 ? '' : 's'} · ` : ''}Jump to latest
        </button>
      ) : null}
    </div>
  );
}
