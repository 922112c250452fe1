import type { SessionUsage } from '../../store/createSessionStore';
import { formatMoney, formatNumber } from '../format';
import styles from './insights.module.css';

export interface UsageMeterProps {
  /** Each session's usage as its reports add up, the one that reported last last (the store's `usage`). */
  usage: ReadonlyMap<string, SessionUsage>;
  /** Shows the Usage view. */
  onOpen: () => void;
}

/** What the sessions' costs add up to, when every one that has a cost gives it in the same currency. */
function totalCost(sessions: SessionUsage[]): { amount: number; currency: string } | null {
  const costs = sessions.flatMap((u) => (u.cost ? [u.cost] : []));
  const currency = costs[0]?.currency;
  if (currency === undefined || costs.some((c) => c.currency !== currency)) return null;
  return { amount: costs.reduce((sum, c) => sum + c.amount, 0), currency };
}

/**
 * The session's usage in the header, in one place: how full the context window is (the latest
 * report that says), what the session cost so far, and the tokens its reports add up to. Agents
 * report usage after every call (codex-acp does) or every response (native logs), so it is a meter
 * that moves, not a transcript row per report; a click shows the Usage view, report by report.
 */
export function UsageMeter({ usage, onOpen }: UsageMeterProps) {
  const sessions = [...usage.values()];
  const context = sessions.findLast((u) => u.context !== undefined)?.context;
  const cost = totalCost(sessions);
  const input = sessions.reduce((sum, u) => sum + u.inputTokens, 0);
  const output = sessions.reduce((sum, u) => sum + u.outputTokens, 0);
  const tokens = input > 0 || output > 0;
  if (!context && !cost && !tokens) return null;
  const size = context?.size !== undefined && context.size > 0 ? context.size : undefined;
  const many = usage.size > 1 ? ` over ${formatNumber(usage.size)} sessions` : '';
  const said = [
    context ? `context ${formatNumber(context.used)}${size !== undefined ? ` of ${formatNumber(size)} tokens` : ' tokens'}${many ? ' (the session that reported last)' : ''}` : '',
    cost ? `cost ${formatMoney(cost.amount, cost.currency)}${many}` : '',
    tokens ? `${formatNumber(input)} input and ${formatNumber(output)} output tokens${many}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const parts = [
    context ? (
      <span key="context" className={styles.meterPart}>
        <span className={styles.muted}>Context</span>
        {size !== undefined ? <meter className={styles.meterBar} min={0} max={1} low={0.7} high={0.9} optimum={0} value={Math.min(1, Math.max(0, context.used / size))} aria-label="Context window used" /> : null}
        {formatNumber(context.used)}
        {size !== undefined ? ` / ${formatNumber(size)}` : ''}
      </span>
    ) : null,
    cost ? <span key="cost">{formatMoney(cost.amount, cost.currency)}</span> : null,
    tokens ? (
      <span key="tokens">
        {formatNumber(input)} in · {formatNumber(output)} out
      </span>
    ) : null,
  ].filter((p) => p !== null);
  return (
    <button type="button" className={styles.meter} data-testid="usage-meter" onClick={onOpen} title={`Usage: ${said}. Show the Usage view.`}>
      {parts.flatMap((p, i) => (i === 0 ? [p] : [<span key={`dot${i}`} className={styles.muted}>·</span>, p]))}
    </button>
  );
}
