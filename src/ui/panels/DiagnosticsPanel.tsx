import type { SessionSnapshot } from '../../store/createSessionStore';
import styles from '../SessionView.module.css';

const MAX_LISTED = 500;

export function DiagnosticsPanel({ snap, onJumpToLine }: { snap: SessionSnapshot; onJumpToLine: (line: number) => void }) {
  const { counts, chain, bad, warnings, format } = snap;
  return (
    <section className={styles.panel} aria-label="Diagnostics" data-panel="diagnostics">
      <div className={styles.panelTitle}>Diagnostics</div>
      <dl className={styles.countsGrid}>
        <dt>Format</dt>
        <dd data-count="format">{format}</dd>
        {snap.sessionIds.length > 0 ? (
          <>
            <dt>Sessions</dt>
            <dd data-count="sessions" title={snap.sessionIds.join('\n')}>
              {snap.sessionIds.length}
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
                `intact (${chain.lines} lines)`
              ) : (
                <button type="button" className={styles.linkButton} onClick={() => onJumpToLine(chain.line)}>
                  broken at line {chain.line}: {chain.reason}
                </button>
              )}
            </dd>
          </>
        ) : null}
      </dl>
      {bad.length > 0 ? (
        <>
          <div className={styles.panelSub}>Bad lines</div>
          <ul className={styles.diagList}>
            {bad.slice(0, MAX_LISTED).map((b) => (
              <li key={`${b.line}:${b.offset}`}>
                <button type="button" className={styles.diagItem} data-bad-line={b.line} onClick={() => onJumpToLine(b.line)}>
                  <span className={styles.lineRef}>line {b.line}</span> {b.reason}
                  <code className={styles.excerpt}>{b.excerpt}</code>
                </button>
              </li>
            ))}
          </ul>
          {bad.length > MAX_LISTED ? <div className={styles.muted}>… {bad.length - MAX_LISTED} more</div> : null}
        </>
      ) : null}
      {warnings.length > 0 ? (
        <>
          <div className={styles.panelSub}>Warnings</div>
          <ul className={styles.diagList}>
            {warnings.slice(0, MAX_LISTED).map((w, i) => (
              <li key={i}>
                <button type="button" className={styles.diagItem} onClick={() => onJumpToLine(w.line)}>
                  <span className={styles.lineRef}>line {w.line}</span> {w.message}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
