import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import { isFilterActive, type Filter } from '../../store/filter';
import { SessionsView } from './SessionsView';
import { StatsView } from './StatsView';
import { TimelineView } from './TimelineView';
import { UsageView } from './UsageView';
import type { ViewName } from './views';
import styles from './insights.module.css';
import { countOf } from '../format';

export interface InsightsProps {
  view: Exclude<ViewName, 'transcript'>;
  snap: SessionSnapshot;
  store: SessionStore;
  dark: boolean;
  /** Open this call in the transcript. */
  onOpenCall: (callKey: string) => void;
  /** Show the transcript under this filter. */
  onShowCalls: (filter: Partial<Filter>) => void;
}

/** Whether a label, status or search filter is set: these views count every call whatever they say. */
function narrowsTranscriptOnly(f: Filter): boolean {
  return isFilterActive({ ...f, sessions: [] });
}

/** The view beside the transcript that the tab strip chose. */
export function Insights({ view, snap, store, dark, onOpenCall, onShowCalls }: InsightsProps) {
  return (
    <div className={styles.pane} role="tabpanel" aria-labelledby={`loupe-tab-${view}`} data-insight-view={view}>
      {narrowsTranscriptOnly(snap.filter) ? (
        // The sidebar's filters stay in sight beside these views, which count every call: say so,
        // or ticking "failed" here looks like a control that does nothing.
        <p className={styles.filterNote} data-testid="filter-note">
          The label, status and search filters narrow the transcript only: this view covers the whole session.{' '}
          <button type="button" className={styles.linkButton} onClick={() => onShowCalls({})}>
            Show the {countOf(snap.shownRows.length, 'filtered row')}
          </button>
        </p>
      ) : null}
      {view === 'stats' ? (
        <StatsView snap={snap} store={store} onShowCalls={onShowCalls} onOpenCall={onOpenCall} />
      ) : view === 'sessions' ? (
        <SessionsView snap={snap} store={store} onShowCalls={onShowCalls} onOpenCall={onOpenCall} />
      ) : view === 'timeline' ? (
        <TimelineView snap={snap} dark={dark} onOpenCall={onOpenCall} />
      ) : (
        <UsageView snap={snap} dark={dark} />
      )}
    </div>
  );
}
