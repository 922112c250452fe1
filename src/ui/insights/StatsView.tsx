import { useMemo } from 'react';
import { useLiveSnapshot } from './useLiveSnapshot';
import { callStats, type CallRef } from '../../analysis/insights';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import type { Filter } from '../../store/filter';
import { formatCount, formatShare } from './format';
import { formatDuration } from '../format';
import styles from './insights.module.css';

export interface StatsViewProps {
  snap: SessionSnapshot;
  store: SessionStore;
  /** Show the calls behind a number: the transcript under this filter. */
  onShowCalls: (filter: Partial<Filter>) => void;
  onOpenCall: (callKey: string) => void;
}

/** Per label: calls, failed share, p50/p95/max duration and total time; the slowest and the failed calls. */
export function StatsView({ snap, store, onShowCalls, onOpenCall }: StatsViewProps) {
  const deferred = useLiveSnapshot(snap);
  const sessionsKey = (deferred.filter.sessions ?? []).join('\u0000');
  const stats = useMemo(
    () => callStats(deferred.calls.values(), { ended: deferred.ended, sessions: sessionsKey ? new Set(sessionsKey.split('\u0000')) : null, listLimit: 10 }),
    [deferred.calls, deferred.ended, sessionsKey],
  );
  const inSessions = deferred.filter.sessions ?? [];
  const scope = inSessions.length > 0 ? { sessions: inSessions } : {};
  const show = (label: string | null, failed = false): void =>
    onShowCalls({ ...scope, labels: label === null ? [] : [label], statuses: failed ? ['failed'] : [], text: '' });

  // A call with no subject is named as its transcript row names it, by its title; the id is the last resort.
  const nameOf = (c: CallRef): string => {
    if (c.subject !== null) return c.subject;
    const title = deferred.calls.get(c.key)?.title;
    return title && title !== c.label ? title : c.id;
  };

  if (stats.total.calls === 0) {
    return <div className={styles.empty}>{snap.load.state === 'loading' ? 'Reading…' : 'No tool calls to count.'}</div>;
  }
  const num = (value: string, label: string | null, title: string, failed = false) => (
    <button type="button" className={styles.numButton} onClick={() => show(label, failed)} title={title}>
      {value}
    </button>
  );
  return (
    <div className={styles.scroll} data-testid="stats-view">
      {inSessions.length > 0 ? (
        <p className={styles.note}>
          Counting the calls of {inSessions.length === 1 ? 'one session' : `${inSessions.length} sessions`} ·{' '}
          <button type="button" className={styles.linkButton} onClick={() => store.setFilter({ sessions: [] })}>
            Count every session
          </button>
        </p>
      ) : null}
      <table className={styles.table} aria-label="Calls per label">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col" className={styles.num}>Calls</th>
            <th scope="col" className={styles.num}>Failed</th>
            <th scope="col" className={styles.num}>p50</th>
            <th scope="col" className={styles.num}>p95</th>
            <th scope="col" className={styles.num}>Max</th>
            <th scope="col" className={styles.num}>Total time</th>
          </tr>
        </thead>
        <tbody>
          {stats.labels.map((l) => (
            <tr key={l.label} data-label={l.label} data-calls={l.calls} data-failed={l.failed}>
              <th scope="row">{l.label}</th>
              <td className={styles.num}>{num(formatCount(l.calls), l.label, `Show the ${l.label} calls`)}</td>
              <td className={styles.num}>
                {l.failed > 0 ? num(`${formatCount(l.failed)} (${formatShare(l.failedShare)})`, l.label, `Show the failed ${l.label} calls`, true) : <span className={styles.muted}>0</span>}
              </td>
              {([l.p50Ms, l.p95Ms, l.maxMs, l.timed > 0 ? l.totalMs : null] as const).map((ms, i) => (
                <td key={i} className={styles.num}>
                  {ms === null ? <span className={styles.muted} title="The input gives no times for these calls">—</span> : num(formatDuration(ms), l.label, `Show the ${formatCount(l.timed)} timed ${l.label} calls`)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-label="" data-calls={stats.total.calls} data-failed={stats.total.failed}>
            <th scope="row">All</th>
            <td className={styles.num}>{num(formatCount(stats.total.calls), null, 'Show every call')}</td>
            <td className={styles.num}>
              {stats.total.failed > 0 ? num(`${formatCount(stats.total.failed)} (${formatShare(stats.total.failed / stats.total.calls)})`, null, 'Show the failed calls', true) : '0'}
            </td>
            <td colSpan={3} className={styles.muted}>
              {stats.total.timed < stats.total.calls ? (stats.total.calls === 1 ? 'the call has no times' : `${formatCount(stats.total.timed)} of ${formatCount(stats.total.calls)} calls have times`) : ''}
            </td>
            <td className={styles.num}>{stats.total.timed > 0 ? formatDuration(stats.total.totalMs) : '—'}</td>
          </tr>
        </tfoot>
      </table>
      <div className={styles.lists}>
        <CallList title="Slowest calls" calls={stats.slowest} nameOf={nameOf} empty="The input gives no durations." onOpenCall={onOpenCall} testId="slowest-calls" />
        <CallList
          title={`Failed calls${stats.failedTotal > stats.failed.length ? ` (first ${stats.failed.length} of ${formatCount(stats.failedTotal)})` : ''}`}
          calls={stats.failed}
          nameOf={nameOf}
          empty="No call failed."
          onOpenCall={onOpenCall}
          testId="failed-calls"
          more={stats.failedTotal > stats.failed.length ? () => show(null, true) : undefined}
        />
      </div>
    </div>
  );
}

function CallList({ title, calls, nameOf, empty, onOpenCall, testId, more }: { title: string; calls: CallRef[]; nameOf: (c: CallRef) => string; empty: string; onOpenCall: (key: string) => void; testId: string; more?: () => void }) {
  return (
    <section className={styles.listSection} aria-label={title} data-testid={testId}>
      <h3 className={styles.h3}>{title}</h3>
      {calls.length === 0 ? (
        <p className={styles.muted}>{empty}</p>
      ) : (
        <ol className={styles.callList}>
          {calls.map((c) => (
            <li key={c.key}>
              <button type="button" className={styles.callButton} data-call-id={c.id} onClick={() => onOpenCall(c.key)}>
                <span className={styles.callLabel}>{c.label}</span>
                <span className={styles.callSubject}>{nameOf(c)}</span>
                <span className={styles.callMeta} data-status={c.status}>
                  {c.status}
                  {c.durationMs !== null ? ` · ${formatDuration(c.durationMs)}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {more ? (
        <button type="button" className={styles.linkButton} onClick={more}>
          Show all failed calls in the transcript
        </button>
      ) : null}
    </section>
  );
}
