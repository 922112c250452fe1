import type { CallSummary, TranscriptItem, Usage } from '../../model';
import { CallRow, type CallRowProps } from '../calls/CallRow';
import { JsonTree } from '../calls/JsonTree';
import { Blocks, Checklist } from '../calls/views';
import { RowBoundary } from '../boundary/RowBoundary';
import { PlainText, SafeMarkdown } from '../text/SafeMarkdown';
import { stripAnsi } from '../text/ansi';
import { RecordFromSource, type ReadRecord } from './RecordFromSource';
import { formatMoney, formatNumber, formatDuration } from '../format';
import controls from '../controls.module.css';
import styles from './transcript.module.css';

/** A row of any kind: a call row's props, with the item and its call (if it is one). */
export interface ItemRowProps extends Omit<CallRowProps, 'call'> {
  item: TranscriptItem;
  call: CallSummary | undefined;
  /** A run of bookkeeping events this row stands for (the item first), shown as one quiet row. */
  bookkeeping?: readonly TranscriptItem[] | undefined;
  /** Reads an event a light read left in the file (its `raw` undefined) when its row is opened. */
  onReadRecord?: ReadRecord | undefined;
}

function usageText(u: Usage): string {
  const parts: string[] = [];
  if (u.inputTokens !== undefined) parts.push(`${formatNumber(u.inputTokens)} in`);
  if (u.outputTokens !== undefined) parts.push(`${formatNumber(u.outputTokens)} out`);
  if (u.cachedReadTokens !== undefined) parts.push(`${formatNumber(u.cachedReadTokens)} cached`);
  if (u.reasoningTokens !== undefined) parts.push(`${formatNumber(u.reasoningTokens)} reasoning`);
  if (u.totalTokens !== undefined) parts.push(`${formatNumber(u.totalTokens)} total`);
  if (u.used !== undefined) parts.push(`context ${formatNumber(u.used)}${u.size !== undefined ? ` / ${formatNumber(u.size)}` : ''}`);
  if (u.cost) parts.push(formatMoney(u.cost.amount, u.cost.currency));
  return parts.join(' · ');
}

/**
 * A thought's first words on one line. Agents write thoughts in markdown (as their messages, which
 * are drawn as markdown): its marks are left out here, where they would show as literal `**`.
 */
function thoughtPreview(text: string): string {
  return text
    .slice(0, 400)
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

/** An event's summary on one line: an agent's stderr is often coloured, and its escapes would show as boxes. */
function eventPreview(summary: string | undefined): string {
  return summary === undefined ? '' : stripAnsi(summary.slice(0, 400));
}

/** One transcript row. Every item kind has a visible row: unknown records are shown raw, never dropped. */
export function ItemRow(props: ItemRowProps) {
  // Whatever one item holds, a failure to draw it stays in its row.
  return (
    <RowBoundary raw={() => props.call ?? props.item} line={props.item.loc.line} resetKey={props.call ?? props.item}>
      <ItemRowContent {...props} />
    </RowBoundary>
  );
}

function ItemRowContent(props: ItemRowProps) {
  const { item, open, focused, onToggle } = props;
  const focusProps = { tabIndex: focused ? 0 : -1, 'data-row-focus': true } as const;
  switch (item.type) {
    case 'call':
      if (!props.call) return <div className={styles.row}>Tool call {item.callKey}</div>;
      return <CallRow call={props.call} ended={props.ended} open={open} focused={focused} terminals={props.terminals} dark={props.dark} onToggle={onToggle} onNeedDetail={props.onNeedDetail} detailError={props.detailError} runningSince={props.runningSince} userNote={props.userNote} subagentCalls={props.subagentCalls} />;
    case 'message':
      if (item.role === 'thought') {
        return (
          <div className={`${styles.row} ${styles.thought}`} data-kind="thought">
            <button type="button" className={`${controls.rowToggle} ${styles.toggle}`} aria-expanded={open} onClick={onToggle} {...focusProps}>
              <span className={styles.role}>Thought</span>
              {!open ? <span className={styles.preview}>{thoughtPreview(item.text)}</span> : null}
            </button>
            {open ? (
              <div className={styles.thoughtText}>
                <SafeMarkdown text={item.text} />
              </div>
            ) : null}
          </div>
        );
      }
      return (
        <div className={`${styles.row} ${item.role === 'user' ? styles.user : styles.agent}`} data-kind={item.role} {...focusProps} onClick={onToggle}>
          <div className={styles.role}>{item.role === 'user' ? 'User' : 'Agent'}</div>
          {item.role === 'user' ? <PlainText className={styles.userText} text={item.text} /> : <SafeMarkdown text={item.text} />}
          {item.blocks.some((b) => b.type !== 'text') ? <Blocks blocks={item.blocks.filter((b) => b.type !== 'text')} /> : null}
        </div>
      );
    case 'plan':
      return (
        <div className={styles.row} data-kind="plan" {...focusProps}>
          <div className={styles.role}>Plan</div>
          <Checklist entries={item.entries} />
        </div>
      );
    case 'mode':
      return (
        <div className={`${styles.row} ${styles.slim}`} data-kind="mode" {...focusProps}>
          Mode changed to <strong>{item.modeId}</strong>
        </div>
      );
    case 'turn_end':
      return (
        <div className={`${styles.row} ${styles.slim} ${styles.turnEnd}`} data-kind="turn_end" {...focusProps}>
          Turn ended: <strong>{item.stopReason}</strong>
          {item.usage ? <span className={styles.muted}> · {usageText(item.usage)}</span> : null}
          {item.elapsedMs !== undefined ? <span className={styles.muted}> · {formatDuration(item.elapsedMs)}</span> : null}
        </div>
      );
    case 'usage':
      return (
        <div className={`${styles.row} ${styles.slim}`} data-kind="usage" {...focusProps}>
          <span className={styles.muted}>Usage: {usageText(item.usage)}</span>
        </div>
      );
    case 'notice':
      return (
        <div className={`${styles.row} ${styles.slim}`} data-kind="notice" data-severity={item.severity} {...focusProps}>
          <strong>{item.title}</strong>
          {item.detail ? <span className={styles.muted}> · {item.detail}</span> : null}
        </div>
      );
    case 'event':
    case 'unknown':
      if (item.type === 'event' && props.bookkeeping) return <BookkeepingRow entries={props.bookkeeping} open={open} onToggle={onToggle} focusProps={focusProps} />;
      return (
        <div className={`${styles.row} ${styles.slim} ${item.type === 'unknown' ? styles.unknown : ''}`} data-kind={item.type} data-line={item.loc.line}>
          <button type="button" className={`${controls.rowToggle} ${styles.toggle}`} aria-expanded={open} onClick={onToggle} {...focusProps}>
            <span className={styles.role}>{item.type === 'unknown' ? 'Unknown record' : item.name}</span>
            <span className={styles.preview}>
              {item.type === 'unknown' ? item.reason : eventPreview(item.summary)} <span className={styles.muted}>line {item.loc.line}</span>
            </span>
          </button>
          {!open ? null : item.type === 'event' && item.raw === undefined ? <RecordFromSource loc={item.loc} read={props.onReadRecord} /> : <JsonTree value={item.raw} />}
        </div>
      );
  }
}

/** A run of the harness's bookkeeping lines as one quiet row; opened, one line each (name, summary, line). */
function BookkeepingRow({ entries, open, onToggle, focusProps }: { entries: readonly TranscriptItem[]; open: boolean; onToggle: () => void; focusProps: { tabIndex: number; 'data-row-focus': true } }) {
  const names = [...new Set(entries.map((entry) => (entry.type === 'event' ? entry.name : entry.type)))];
  return (
    <div className={`${styles.row} ${styles.slim}`} data-kind="bookkeeping" data-count={entries.length}>
      <button type="button" className={`${controls.rowToggle} ${styles.toggle}`} aria-expanded={open} onClick={onToggle} {...focusProps}>
        <span className={styles.muted}>
          {entries.length} bookkeeping entr{entries.length === 1 ? 'y' : 'ies'}
        </span>
        <span className={styles.preview}>
          <span className={styles.muted}>{names.slice(0, 4).join(', ')}{names.length > 4 ? ', …' : ''}</span>
        </span>
      </button>
      {open ? (
        <ol className={styles.bookkeeping}>
          {entries.map((entry) => (
            <li key={entry.loc.line} data-line={entry.loc.line}>
              <span className={styles.role}>{entry.type === 'event' ? entry.name : entry.type}</span>{' '}
              {entry.type === 'event' ? eventPreview(entry.summary) : null} <span className={styles.muted}>line {entry.loc.line}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
