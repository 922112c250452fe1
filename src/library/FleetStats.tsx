// The fleet stats beside the library's rows, over the sessions shown: calls per label, tokens per
// day, the sessions with the most failures. A label, a day or a share of failures filters by it.
import { dayOf, rowKeyOf, type LibraryFilter } from './fleetData';
import type { FleetSession, TokensOnDay } from '../analysis/fleet';
import { countOf, formatDuration } from '../ui/format';
import { formatCount, formatShare } from '../ui/insights/format';
import type { CallColumns, FleetCallTotals } from './callColumns';
import styles from './Library.module.css';
import type { SessionLinks } from './sessionLinks';
import type { Read } from './useLibraryData';

export interface FleetStatsProps {
  /** The calls' state: being read, or why they could not be. */
  calls: Read<CallColumns>;
  callTotals: FleetCallTotals;
  shown: readonly FleetSession[];
  days: readonly TokensOnDay[];
  worst: readonly FleetSession[];
  set: (change: Partial<LibraryFilter>) => void;
  links: SessionLinks;
}

export function FleetStats({ calls, callTotals, shown, days, worst, set, links }: FleetStatsProps) {
  const { hrefOf, relative, shownPath, whereOf, openOnClick, elsewhere } = links;
  const labelStats = callTotals.labels;
  const failed = shown.reduce((sum, s) => sum + s.failed, 0);
  return (
    <aside className={styles.stats} aria-label="Fleet stats">
      <h2>Calls per label</h2>
      {calls.status === 'pending' ? <p aria-busy="true">Reading the calls…</p> : null}
      {calls.error ? <p role="alert">Could not read the calls ({calls.error.message}).</p> : null}
      <table className={styles.table} aria-label="Calls per label">
        <TableHead columns={['Label', 'Calls', 'Failed', 'p50', 'p95']} />
        <tbody>
          {labelStats.map((l) => (
            <tr key={l.label} data-label={l.label} data-calls={l.calls} data-failed={l.failed}>
              <th scope="row">
                <button type="button" className={styles.link} title={`Show the sessions with ${l.label} calls`} onClick={() => set({ label: l.label })}>
                  {l.label}
                </button>
              </th>
              <td className={styles.num}>{formatCount(l.calls)}</td>
              <td className={styles.num}>
                <button type="button" className={styles.link} title={`Show the sessions with failed ${l.label} calls`} onClick={() => set({ label: l.label, status: 'failed' })}>
                  {formatShare(l.failedShare)}
                </button>
              </td>
              <td className={styles.num}>{formatDuration(l.p50Ms)}</td>
              <td className={styles.num}>{formatDuration(l.p95Ms)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-label="" data-calls={callTotals.calls} data-failed={failed}>
            <th scope="row">All</th>
            <td className={styles.num}>{formatCount(callTotals.calls)}</td>
            <td className={styles.num} colSpan={3}>
              {formatCount(failed)} failed
            </td>
          </tr>
        </tfoot>
      </table>
      <h2>Tokens per day</h2>
      {days.length === 0 ? (
        <p>No session shown reports tokens.</p>
      ) : (
        <table className={styles.table} aria-label="Tokens per day">
          <TableHead columns={['Day', 'Sessions', 'Input', 'Output']} />
          <tbody>
            {days.map((d) => (
              <tr key={d.day} data-day={d.day}>
                <th scope="row">
                  <button type="button" className={styles.link} title={`Show the sessions of ${d.day}`} onClick={() => set({ from: d.day, to: d.day })}>
                    {d.day}
                  </button>
                </th>
                <td className={styles.num}>{formatCount(d.sessions)}</td>
                <td className={styles.num}>{formatCount(d.inputTokens)}</td>
                <td className={styles.num}>{formatCount(d.outputTokens)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Most failures</h2>
      {worst.length === 0 ? (
        <p>No failed calls in the sessions shown.</p>
      ) : (
        <ol className={styles.worst} aria-label="Sessions with the most failures">
          {worst.map((s) => (
            <li key={rowKeyOf(s)} data-worst={relative(s.file)}>
              {hrefOf(s) !== null ? (
                <a href={hrefOf(s)!} onClick={openOnClick(s.file)} title={shownPath(s.file)}>
                  {s.title ?? shownPath(s.file)}
                </a>
              ) : (
                <span title={`${elsewhere}: on ${whereOf(s)}`}>{s.title ?? shownPath(s.file)}</span>
              )}{' '}
              <span className={styles.bad}>{countOf(s.failed, 'failed call')}</span>
              {dayOf(s.started_ms) ? <span className={styles.muted}> · {dayOf(s.started_ms)}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

/** A table's head: the first column names the row, the others are numbers. */
function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((title, i) => (
          <th key={title} scope="col" className={i > 0 ? styles.num : undefined}>
            {title}
          </th>
        ))}
      </tr>
    </thead>
  );
}
