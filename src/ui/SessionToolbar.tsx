// The viewer's toolbar: the source's name, how far it has been read (live, reading, cancelled,
// failed), Cancel/Stop, the usage meter, and the viewer's switches (sharing, diagnostics, theme).
import { useMemo } from 'react';
import type { SessionSnapshot } from '../store/createSessionStore';
import { formatBytes, sessionTitleOf, shortSourceName } from './format';
import { UsageMeter } from './insights/UsageMeter';
import { SharingTools, type SharingProps } from './sharing/SharingTools';
import styles from './SessionToolbar.module.css';
import shared from './SessionView.module.css';

export interface SessionToolbarProps {
  snap: SessionSnapshot;
  sourceName?: string;
  /** A source with no known size that has not ended (a stream, a file still being written). */
  live: boolean;
  onCancel: () => void;
  onOpenUsage: () => void;
  sharing?: SharingProps;
  showDiagnostics: boolean;
  onToggleDiagnostics: () => void;
  dark: boolean;
  onToggleTheme: () => void;
}

export function SessionToolbar({ snap, sourceName, live, onCancel, onOpenUsage, sharing, showDiagnostics, onToggleDiagnostics, dark, onToggleTheme }: SessionToolbarProps) {
  const { load } = snap;
  const loading = load.state === 'loading';
  const { bytesRead, totalBytes, records } = load.progress;
  const pct = totalBytes ? Math.min(100, (100 * bytesRead) / totalBytes) : undefined;
  const title = useMemo(() => sessionTitleOf(snap.items), [snap.items]);
  return (
    <header className={styles.toolbar}>
      <span className={styles.sourceName} title={sourceName}>
        {sourceName === undefined ? 'Session' : shortSourceName(sourceName)}
      </span>
      {title !== null ? (
        <span className={styles.sessionTitle} title={title} data-testid="session-title">
          {title}
        </span>
      ) : null}
      {live ? (
        <span className={styles.live} data-testid="live" title="The source has not ended: rows appear as they are written">
          Live
        </span>
      ) : null}
      <span className={styles.statusText} data-testid="load-status" aria-live="polite">
        {live ? '' : loading ? 'Reading… ' : load.state === 'cancelled' ? 'Cancelled · ' : load.state === 'error' ? 'Failed · ' : ''}
        {formatBytes(bytesRead)}
        {totalBytes !== undefined && totalBytes !== bytesRead ? ` of ${formatBytes(totalBytes)}` : ''}
        {' · '}
        <span data-testid="records">{records.toLocaleString('en')}</span> record{records === 1 ? '' : 's'}
      </span>
      {loading ? (
        <>
          {live ? null : <progress className={styles.progress} max={100} value={pct} aria-label="Reading progress" />}
          <button type="button" className={shared.button} onClick={onCancel}>
            {live ? 'Stop' : 'Cancel'}
          </button>
        </>
      ) : null}
      <UsageMeter usage={snap.usage} onOpen={onOpenUsage} />
      <span className={styles.grow} />
      {sharing ? <SharingTools {...sharing} /> : null}
      <button type="button" className={shared.button} onClick={onToggleDiagnostics} aria-pressed={showDiagnostics}>
        Diagnostics{snap.counts.bad > 0 ? ` (${snap.counts.bad} bad)` : ''}
      </button>
      <button type="button" className={shared.button} onClick={onToggleTheme} aria-label={`Switch to ${dark ? 'light' : 'dark'} theme`}>
        {dark ? '☀ Light' : '☾ Dark'}
      </button>
    </header>
  );
}
