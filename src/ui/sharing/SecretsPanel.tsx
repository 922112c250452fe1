// What a redacted read replaced, so a person can check before sharing: counts by kind, then each
// secret with its line and call; a click shows the row it was in.
import { useMemo } from 'react';
import { countKinds } from '../../share/exportMarkdown';
import type { SecretFinding, SessionSnapshot } from '../../store/createSessionStore';
import styles from '../SessionView.module.css';

const MAX_LISTED = 500;

export function SecretsPanel({ snap, onJumpToFinding }: { snap: SessionSnapshot; onJumpToFinding: (finding: SecretFinding) => void }) {
  const redaction = snap.redaction;
  const reading = snap.load.state === 'loading';
  const findings = redaction?.findings;
  // Counted again only when findings came in (the list is immutable: a new one is a change), not on every delta.
  const byKind = useMemo(() => countKinds(findings ?? []), [findings]);
  return (
    <section className={styles.panel} aria-label="Secrets" data-panel="secrets">
      <div className={styles.panelTitle}>Secrets</div>
      {!findings ? (
        <div className={styles.muted}>{reading ? 'Reading redacted…' : 'Not redacted.'}</div>
      ) : findings.size === 0 ? (
        <div className={styles.muted} data-testid="secrets-summary">
          {reading ? 'None found yet.' : 'No secrets were found.'}
        </div>
      ) : (
        <>
          <div className={styles.muted} data-testid="secrets-summary">
            {findings.size.toLocaleString('en')} replaced: {[...byKind].map(([kind, count]) => `${count} ${kind}`).join(', ')}
          </div>
          <ul className={styles.diagList}>
            {findings.slice(0, MAX_LISTED).toArray().map((finding, index) => {
              const call = finding.callKey === undefined ? undefined : snap.calls.get(finding.callKey);
              return (
                <li key={index}>
                  <button type="button" className={styles.diagItem} data-secret-line={finding.line} onClick={() => onJumpToFinding(finding)}>
                    <span className={styles.lineRef}>line {finding.line}</span> ‹{finding.kind}›{call ? ` in ${call.title ?? call.label}` : ''}
                  </button>
                </li>
              );
            })}
          </ul>
          {findings.size > MAX_LISTED ? <div className={styles.muted}>… {findings.size - MAX_LISTED} more</div> : null}
        </>
      )}
    </section>
  );
}
