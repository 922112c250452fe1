import { useCallback, type RefObject } from 'react';
import type { CallSummary, TranscriptItem } from '../../model';
import { hasEnded } from '../../model/status';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import { useFileNotes } from '../sharing/notesContext';
import { VirtualList, type ScrollRequest, type VirtualListHandle } from '../virtual/VirtualList';
import { ItemRow } from './ItemRow';
import type { ReadRecord } from './RecordFromSource';
import styles from './transcript.module.css';

export interface TranscriptProps {
  snap: SessionSnapshot;
  store: SessionStore;
  dark: boolean;
  scrollRequest: ScrollRequest | null;
  onToggle: (itemIndex: number, viewPos: number) => void;
  onNeedDetail?: (call: CallSummary) => void;
  onReadRecord?: ReadRecord | undefined;
  /** The source has not ended: open calls are running, with a ticking clock. */
  live: boolean;
  followEnd: boolean;
  onUserScroll: (atEnd: boolean) => void;
  /** Asks the list which row is at its top. */
  listHandle?: RefObject<VirtualListHandle | null>;
}

/** The bookkeeping events a row stands for, when it stands for a run of them. */
function bookkeepingOf(snap: SessionSnapshot, idx: number): TranscriptItem[] | undefined {
  const run = snap.bookkeeping.get(idx);
  return run?.flatMap((index) => snap.items.get(index) ?? []);
}

/** Capture times below this are offsets into a recording, not wall-clock times. */
const EPOCH_MS_FROM = 1e11;

/** When a call still open on a live source started: its own time if the input has one, else when it arrived. */
function runningSince(call: CallSummary, snap: SessionSnapshot): number | undefined {
  if (hasEnded(call)) return undefined;
  if (call.startMs !== undefined && call.startMs >= EPOCH_MS_FROM) return call.startMs;
  return snap.arrivedAt(call);
}

export function Transcript({ snap, dark, scrollRequest, onToggle, onNeedDetail, onReadRecord, live, followEnd, onUserScroll, listHandle }: TranscriptProps) {
  const { shownRows, items, calls, expanded, cursor, ended, terminals, contentHash } = snap;
  // Rows mark the calls the user noted or bookmarked.
  const fileNotes = useFileNotes(contentHash);
  const rowKey = useCallback((pos: number) => shownRows[pos] ?? -pos - 1, [shownRows]);
  const renderRow = (pos: number) => {
    const idx = shownRows[pos];
    const item = idx !== undefined ? items.get(idx) : undefined;
    if (idx === undefined || !item) return null;
    const call = item.type === 'call' ? calls.get(item.callKey) : undefined;
    return (
      <div className={styles.rowWrap} data-focused={cursor === pos || undefined} data-item={idx}>
        <ItemRow
          item={item}
          call={call}
          ended={ended}
          open={expanded.has(idx)}
          focused={cursor === pos}
          terminals={terminals}
          dark={dark}
          onToggle={() => onToggle(idx, pos)}
          onNeedDetail={onNeedDetail}
          onReadRecord={onReadRecord}
          detailError={item.type === 'call' ? snap.detailErrors.get(item.callKey) : undefined}
          runningSince={live && call ? runningSince(call, snap) : undefined}
          userNote={call && Object.hasOwn(fileNotes, call.key) ? fileNotes[call.key] : undefined}
          subagentCalls={call ? snap.subagentCalls.get(call.id) : undefined}
          bookkeeping={bookkeepingOf(snap, idx)}
        />
      </div>
    );
  };
  return (
    <VirtualList
      className={styles.transcript}
      count={shownRows.length}
      estimate={36}
      rowKey={rowKey}
      rowIds={shownRows}
      renderRow={renderRow}
      scrollRequest={scrollRequest}
      ariaLabel="Transcript"
      followEnd={followEnd}
      onUserScroll={onUserScroll}
      handle={listHandle}
    />
  );
}
