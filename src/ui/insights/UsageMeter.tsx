import type { Usage } from '../../model';
import { formatMoney, formatNumber } from '../format';
import styles from './insights.module.css';

export interface UsageMeterProps {
  /** Each session's latest usage report, the most recent last (the store's `usage`). */
  usage: ReadonlyMap<string, Usage>;
  /** Shows the Usage view. */
  onOpen: () => void;
}

/** What the sessions' costs add up to, when every one that has a cost gives it in the same currency. */
function totalCost(reports: Usage[]): { amount: number; currency: string } | null {
  const costs = reports.flatMap((u) => (u.cost && typeof u.cost.amount === 'number' ? [u.cost] : []));
  const currency = costs[0]?.currency;
  if (currency === undefined || costs.some((c) => c.currency !== currency)) return null;
  return { amount: costs.reduce((sum, c) => sum + c.amount, 0), currency };
}

/**
 * The session's usage in the header, in one place: how full the context window is (the latest
 * usage report) and what the session cost so far. Agents report it after every call (codex-acp
 * does), so it is a meter that moves, not a transcript row per report.
 */
export function UsageMeter({ usage, onOpen }: UsageMeterProps) {
  const reports = [...usage.values()];
  const latest = reports.at(-1);
  if (!latest) return null;
  const used = typeof latest.used === 'number' && Number.isFinite(latest.used) ? latest.used : undefined;
  const size = typeof latest.size === 'number' && Number.isFinite(latest.size) && latest.size > 0 ? latest.size : undefined;
  const cost = totalCost(reports);
  const sessions = usage.size;
  const share = used !== undefined && size !== undefined ? used / size : undefined;
  const said = [
    used !== undefined ? `context ${formatNumber(used)}${size !== undefined ? ` of ${formatNumber(size)} tokens` : ' tokens'}` : '',
    cost ? `cost ${formatMoney(cost.amount, cost.currency)}${sessions > 1 ? ` over ${formatNumber(sessions)} sessions` : ''}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (!said) return null;
  return (
    <button type="button" className={styles.meter} data-testid="usage-meter" onClick={onOpen} title={`Usage: ${said}${sessions > 1 ? ' (context: the session that reported last)' : ''}. Show the Usage view.`}>
      {used !== undefined ? (
        <>
          <span className={styles.muted}>Context</span>
          {share !== undefined ? <meter className={styles.meterBar} min={0} max={1} low={0.7} high={0.9} optimum={0} value={Math.min(1, Math.max(0, share))} aria-label="Context window used" /> : null}
          <span>
            {formatNumber(used)}
            {size !== undefined ? ` / ${formatNumber(size)}` : ''}
          </span>
        </>
      ) : null}
      {used !== undefined && cost ? <span className={styles.muted}>·</span> : null}
      {cost ? <span>{formatMoney(cost.amount, cost.currency)}</span> : null}
    </button>
  );
}
