// A Subagent call links to the sessions it spawned: choosing one shows that session's transcript.
import { createContext, useContext, useMemo } from 'react';
import { sessionsNamedBy } from '../../analysis/insights';
import type { ToolCall } from '../../model';
import styles from './calls.module.css';

export interface SessionLinks {
  /** The session ids read so far (as a set only where a Subagent call is open: there may be a million). */
  sessionIds: Iterable<string>;
  /** Show this session's transcript. */
  show: (sessionId: string) => void;
}

/** Provided by the viewer; without it (a call drawn alone) no links are drawn. */
export const SessionLinksContext = createContext<SessionLinks | null>(null);

export function SpawnedSessions({ call }: { call: ToolCall }) {
  const links = useContext(SessionLinksContext);
  const ids = links?.sessionIds;
  const spawned = useMemo(() => (ids ? sessionsNamedBy(call, new Set(ids)) : []), [call, ids]);
  if (!links) return null;
  if (spawned.length === 0) return null;
  return (
    <div className={styles.section} data-testid="spawned-sessions">
      <div className={styles.heading}>Sub-agent session{spawned.length === 1 ? '' : 's'}</div>
      {spawned.map((id) => (
        <button key={id} type="button" className={styles.inlineButton} data-session-link={id} onClick={() => links.show(id)}>
          {id} →
        </button>
      ))}
    </div>
  );
}
