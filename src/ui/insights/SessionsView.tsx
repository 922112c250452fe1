import { useMemo, useState } from 'react';
import { useLiveSnapshot } from './useLiveSnapshot';
import { sessionSummaries, sessionTree, type SessionNode, type SessionSummary } from '../../analysis/insights';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import { NO_SESSION, type Filter } from '../../store/filter';
import { formatTime } from '../format';
import { formatCount } from './format';
import { formatDuration } from '../format';
import styles from './insights.module.css';
import { countOf } from '../format';

/** Past this many sessions the list is drawn a page at a time. */
const PAGE = 500;

export interface SessionsViewProps {
  snap: SessionSnapshot;
  store: SessionStore;
  onShowCalls: (filter: Partial<Filter>) => void;
  /** Open a call (a sub-agent's spawning call) in the transcript. */
  onOpenCall: (callKey: string) => void;
}

/** The sessions in the input, with start time, calls and failures; choosing one shows its transcript. */
export function SessionsView({ snap, store, onShowCalls, onOpenCall }: SessionsViewProps) {
  const deferred = useLiveSnapshot(snap);
  const list = useMemo(
    () => sessionSummaries(deferred.sessionIds, deferred.items, deferred.calls, deferred.ended),
    [deferred.sessionIds, deferred.items, deferred.calls, deferred.ended],
  );
  const tree = useMemo(() => sessionTree(list, deferred.items, deferred.calls), [list, deferred.items, deferred.calls]);
  const [limit, setLimit] = useState(PAGE);
  const chosen = new Set(snap.filter.sessions ?? []);
  if (list.length === 0) {
    return <div className={styles.empty}>{snap.load.state === 'loading' ? 'Reading…' : 'The input names no session.'}</div>;
  }
  const idOf = (s: SessionSummary): string => s.sessionId ?? NO_SESSION;
  return (
    <div className={styles.scroll} data-testid="sessions-view">
      <p className={styles.note}>
        {countOf(list.length, 'session')} in the input
        {chosen.size > 0 ? (
          <>
            {' · the transcript shows '}
            {chosen.size === 1 ? 'one' : formatCount(chosen.size)} ·{' '}
            <button type="button" className={styles.linkButton} onClick={() => store.setFilter({ sessions: [] })}>
              Show all sessions
            </button>
          </>
        ) : (
          ' · the transcript shows them all'
        )}
      </p>
      {tree.linked > 0 ? (
        <section aria-label="Sub-agents" className={styles.treeSection} data-testid="session-tree">
          <h3 className={styles.h3}>Sub-agents</h3>
          <SessionTreeList nodes={tree.roots} onShow={(id) => onShowCalls({ sessions: [id], labels: [], statuses: [], text: '' })} onOpenCall={onOpenCall} />
        </section>
      ) : null}
      <table className={styles.table} aria-label="Sessions">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Started</th>
            <th scope="col" className={styles.num}>Span</th>
            <th scope="col" className={styles.num}>Calls</th>
            <th scope="col" className={styles.num}>Failed</th>
            <th scope="col" className={styles.num}>Open</th>
            <th scope="col" className={styles.num}>Turns</th>
            <th scope="col" className={styles.num}>Line</th>
          </tr>
        </thead>
        <tbody>
          {list.slice(0, limit).map((s) => {
            const id = idOf(s);
            return (
              <tr key={id} data-session-id={id} data-calls={s.calls} data-failed={s.failed} aria-current={chosen.has(id) ? 'true' : undefined}>
                <th scope="row">
                  <button type="button" className={styles.sessionButton} onClick={() => onShowCalls({ sessions: [id], labels: [], statuses: [], text: '' })} title="Show this session's transcript">
                    {s.sessionId ?? '(rows naming no session)'}
                  </button>
                </th>
                <td className={styles.time}>{s.startMs === null ? <span className={styles.muted}>—</span> : formatTime(s.startMs)}</td>
                <td className={styles.num}>{s.startMs !== null && s.endMs !== null ? formatDuration(s.endMs - s.startMs) : '—'}</td>
                <td className={styles.num}>{formatCount(s.calls)}</td>
                <td className={styles.num}>
                  {s.failed > 0 ? (
                    <button type="button" className={styles.numButton} onClick={() => onShowCalls({ sessions: [id], labels: [], statuses: ['failed'], text: '' })} title="Show this session's failed calls">
                      {formatCount(s.failed)}
                    </button>
                  ) : (
                    <span className={styles.muted}>0</span>
                  )}
                </td>
                <td className={styles.num}>{s.open > 0 ? formatCount(s.open) : <span className={styles.muted}>0</span>}</td>
                <td className={styles.num}>{formatCount(s.turns)}</td>
                <td className={styles.num}>{s.firstLine ?? '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {list.length > limit ? (
        <button type="button" className={styles.linkButton} onClick={() => setLimit((n) => n + PAGE)}>
          Show {formatCount(Math.min(PAGE, list.length - limit))} more of {formatCount(list.length - limit)}
        </button>
      ) : null}
    </div>
  );
}

function nodeStatus(node: SessionNode): 'failed' | 'running' | 'finished' | 'done' {
  if (node.summary.failed > 0) return 'failed';
  if (node.finished) return 'finished';
  return node.summary.open > 0 ? 'running' : 'done';
}

/** Nested lists: a node is its session (choosing it shows its transcript), its counts and status. */
function SessionTreeList({ nodes, onShow, onOpenCall }: { nodes: SessionNode[]; onShow: (id: string) => void; onOpenCall: (key: string) => void }) {
  return (
    <ul className={styles.tree}>
      {nodes.map((node) => {
        const id = node.summary.sessionId ?? NO_SESSION;
        const status = nodeStatus(node);
        return (
          <li key={id} data-tree-session-id={id} data-status={status}>
            <button type="button" className={styles.sessionButton} onClick={() => onShow(id)} title="Show this session's transcript">
              {node.title ?? node.summary.sessionId ?? '(rows naming no session)'}
            </button>
            {node.title !== null ? <span className={styles.muted}> {node.summary.sessionId}</span> : null}
            <span className={styles.treeMeta}>
              {' · '}
              {countOf(node.summary.calls, 'call')}
              {node.summary.failed > 0 ? ` · ${formatCount(node.summary.failed)} failed` : ''}
              {' · '}
              <span className={styles.treeStatus} data-status={status}>
                {status}
              </span>
            </span>
            {node.viaCall ? (
              <>
                {' · '}
                <button type="button" className={styles.linkButton} onClick={() => node.viaCall && onOpenCall(node.viaCall.key)}>
                  spawned by {node.viaCall.id}
                </button>
              </>
            ) : null}
            {node.children.length > 0 ? <SessionTreeList nodes={node.children} onShow={onShow} onOpenCall={onOpenCall} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
