import type { SessionSnapshot } from '../../store/createSessionStore';
import styles from '../SessionView.module.css';
import { countOf } from '../format';

const MAX_LISTED = 500;

export function DiagnosticsPanel({ snap, onJumpToLine }: { snap: SessionSnapshot; onJumpToLine: (line: number) => void }) {
  const { counts, chain, bad, warnings, format } = snap;
  return (
    <section className={styles.panel} aria-label="Diagnostics" data-panel="diagnostics">
      <div className={styles.panelTitle}>Diagnostics</div>
      <dl className={styles.countsGrid}>
        <dt>Format</dt>
        {/* `unknown`: lines were read but none had a known shape; the counts below say what they were. */}
        <dd data-count="format">{format === 'unknown' ? 'unknown (no line has a known shape)' : format}</dd>
        {snap.sessionIds.size > 0 ? (
          <>
            <dt>Sessions</dt>
            <dd data-count="sessions" title={sessionIdsTitle(snap.sessionIds)}>
              {snap.sessionIds.size}
            </dd>
          </>
        ) : null}
        <dt>Lines</dt>
        <dd data-count="lines">{counts.lines}</dd>
        <dt>Events</dt>
        <dd data-count="events">{counts.events}</dd>
        <dt>Unknown</dt>
        <dd data-count="unknown">{counts.unknown}</dd>
        <dt>Bad</dt>
        <dd data-count="bad">{counts.bad}</dd>
        {chain ? (
          <>
            <dt>Ledger chain</dt>
            <dd data-chain={chain.state}>
              {chain.state === 'intact' ? (
                `intact (${countOf(chain.lines, 'line')})`
              ) : (
                <button type="button" className={styles.linkButton} onClick={() => onJumpToLine(chain.line)}>
                  broken at line {chain.line}: {chain.reason}
                </button>
              )}
            </dd>
          </>
        ) : null}
      </dl>
      {bad.size > 0 ? (
        <>
          <div className={styles.panelSub}>Bad lines</div>
          <ul className={styles.diagList}>
            {bad.slice(0, MAX_LISTED).toArray().map((b) => (
              <li key={`${b.line}:${b.offset}`}>
                <button type="button" className={styles.diagItem} data-bad-line={b.line} onClick={() => onJumpToLine(b.line)}>
                  <span className={styles.lineRef}>line {b.line}</span> {b.reason}
                  <code className={styles.excerpt}>{b.excerpt}</code>
                </button>
              </li>
            ))}
          </ul>
          {bad.size > MAX_LISTED ? <div className={styles.muted}>… {bad.size - MAX_LISTED} more</div> : null}
        </>
      ) : null}
      {warnings.size > 0 ? (
        <>
          <div className={styles.panelSub}>Warnings</div>
          <ul className={styles.diagList}>
            {warnings.slice(0, MAX_LISTED).toArray().map((w, i) => (
              <li key={i}>
                <button type="button" className={styles.diagItem} onClick={() => onJumpToLine(w.line)}>
                  <span className={styles.lineRef}>line {w.line}</span> {w.message}
                </button>
              </li>
            ))}
          </ul>
          {warnings.size > MAX_LISTED ? <div className={styles.muted}>… {warnings.size - MAX_LISTED} more</div> : null}
        </>
      ) : null}
    </section>
  );
}

const TITLE_IDS = 50;

/** The hover text lists the first session ids, not a million of them. */
function sessionIdsTitle(ids: SessionSnapshot['sessionIds']): string {
  const shown = ids.slice(0, TITLE_IDS).join('\n');
  return ids.size > TITLE_IDS ? `${shown}\n… ${ids.size - TITLE_IDS} more` : shown;
}
