// The library's sessions, one row each, drawn as the viewer draws its rows (VirtualList); a
// column's head sorts by it.
import type { FleetSession } from '../analysis/fleet';
import { shortProject } from '../analysis/projectName';
import { formatName } from '../model';
import { terminalSafeLine } from '../model/terminalText';
import type { TeamView } from '../routes/listings';
import { formatDuration } from '../ui/format';
import { formatCount } from '../ui/insights/format';
import { VirtualList } from '../ui/virtual/VirtualList';
import { durationOf, rowKeyOf, tokensOf, type Sort, type SortKey } from './fleetData';
import styles from './Library.module.css';
import type { SessionLinks } from './sessionLinks';

/** Written in the last minute: its agent may still be writing it. */
const LIVE_MS = 60_000;
const ROW_HEIGHT = 34;

export interface SessionRowsProps {
  shown: readonly FleetSession[];
  team: TeamView | null;
  sort: Sort;
  setSort: (change: (sort: Sort) => Sort) => void;
  links: SessionLinks;
  /** Live as of when the page read the index. */
  now: number;
}

export function SessionRows({ shown, team, sort, setSort, links, now }: SessionRowsProps) {
  const { hrefOf, relative, shownPath, whereOf, openOnClick, elsewhere } = links;
  const header = (key: SortKey, title: string, numeric = false) => (
    <button
      type="button"
      className={numeric ? styles.num : undefined}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
      data-sort={key}
      onClick={() => setSort((s) => ({ key, descending: s.key === key ? !s.descending : numeric || key === 'started' }))}
    >
      {title}
      {sort.key === key ? (sort.descending ? ' ↓' : ' ↑') : ''}
    </button>
  );
  return (
    <section className={styles.sessions} aria-label="Sessions">
      <div className={`${styles.row} ${styles.columns}`}>
        {team ? header('machine', 'Machine') : null}
        {header('file', 'Session')}
        {header('format', 'Harness')}
        {header('project', 'Project')}
        {header('started', 'Start')}
        {header('duration', 'Duration', true)}
        {header('calls', 'Calls', true)}
        {header('failed', 'Failed', true)}
        {header('tokens', 'Tokens', true)}
      </div>
      <VirtualList
        className={styles.list}
        ariaLabel="Sessions"
        count={shown.length}
        estimate={ROW_HEIGHT}
        rowKey={(i) => (shown[i] ? rowKeyOf(shown[i]) : i)}
        renderRow={(i) => {
          const s = shown[i];
          if (!s) return null;
          const tokens = tokensOf(s);
          const href = hrefOf(s);
          return (
            <div className={styles.row} data-session-file={relative(s.file)} data-machine={s.machine} data-calls={s.calls} data-failed={s.failed}>
              {team ? <span title={s.machine}>{s.machine}</span> : null}
              {href !== null ? (
                <a href={href} onClick={openOnClick(s.file)} className={styles.name} title={shownPath(s.file)}>
                  {s.title ?? shownPath(s.file)}
                  {now - s.modified_ms < LIVE_MS ? <span className={styles.live}>live</span> : null}
                </a>
              ) : (
                <span className={styles.name} title={`${elsewhere}: on ${whereOf(s)}`} data-elsewhere={whereOf(s)}>
                  {s.title ?? shownPath(s.file)} <span className={styles.muted}>· on {whereOf(s)}</span>
                </span>
              )}
              <span>{formatName(s.format)}</span>
              <span className={styles.clip} title={s.project === null ? undefined : terminalSafeLine(s.project)}>
                {terminalSafeLine(shortProject(s.project))}
              </span>
              <span>{s.started_ms !== null ? <time dateTime={new Date(s.started_ms).toISOString()}>{new Date(s.started_ms).toLocaleString()}</time> : '—'}</span>
              <span className={styles.num}>{formatDuration(durationOf(s))}</span>
              <span className={styles.num}>{formatCount(s.calls)}</span>
              <span className={`${styles.num} ${s.failed > 0 ? styles.bad : ''}`}>{formatCount(s.failed)}</span>
              <span className={styles.num}>{tokens === null ? '—' : formatCount(tokens)}</span>
            </div>
          );
        }}
      />
    </section>
  );
}
