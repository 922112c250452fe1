import { useEffect, useState } from 'react';
import { displayStatus } from '../../model/status';
import { statusNote } from '../../model/summary';
import { isToolCall, type CallNote, type CallSummary, type DisplayStatus, type TerminalLookup } from '../../model/types';
import { RowBoundary } from '../boundary/RowBoundary';
import { formatTime, formatDuration } from '../format';
import { Elapsed } from './Elapsed';
import { RawView } from './RawView';
import { CallBody } from './views';
import controls from '../controls.module.css';
import styles from './calls.module.css';

const STATUS_TEXT: Record<DisplayStatus, string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  failed: 'failed',
  unfinished: 'unfinished',
};

export function permissionText(call: CallSummary): string | null {
  const p = call.permission;
  if (!p) return null;
  if (!p.outcome) return 'permission asked, no answer';
  if (p.outcome.outcome === 'cancelled') return 'permission cancelled';
  const opt = p.options.find((o) => o.optionId === (p.outcome as { optionId: string }).optionId);
  return `permission: ${p.outcome.optionName ?? opt?.name ?? p.outcome.optionId}`;
}

/** How long the input went on after a call it never saw end started (CONTRACTS §7: every time the input has). */
function openFor(call: CallSummary): number | undefined {
  return call.durationMs === undefined && call.startMs !== undefined && call.inputEndMs !== undefined ? call.inputEndMs - call.startMs : undefined;
}

function durationText(call: CallSummary, runningSince: number | undefined): string {
  if (call.durationMs !== undefined) return `took ${formatDuration(call.durationMs)}`;
  if (runningSince !== undefined) return 'still running';
  const open = openFor(call);
  if (open !== undefined) return `no completion was recorded; the input goes on ${formatDuration(open)} after it started`;
  if (call.startMs !== undefined) return 'no completion was recorded';
  return 'no duration: the input has no times for this call';
}

/** Capture times (t_ms) count from the start of the recording; others are wall-clock epoch ms. */
function startedText(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  return ms >= 0 && ms < 1e11 ? `started ${formatDuration(ms)} into the recording` : `started ${formatTime(ms)}`;
}

export interface CallRowProps {
  call: CallSummary;
  ended: boolean;
  open: boolean;
  focused: boolean;
  terminals: TerminalLookup;
  dark: boolean;
  onToggle: () => void;
  onNeedDetail?: (call: CallSummary) => void;
  /** Why the full state of a light call could not be read back, if it could not. */
  detailError?: string | undefined;
  /** Set while the source is live and the call is still open: when it started (ms since the epoch). */
  runningSince?: number | undefined;
  /** The user's note or bookmark on this call (see the Notes panel), marked on the row. */
  userNote?: CallNote | undefined;
  /** The calls the sub-agent this call started made, folded under its row (CONTRACTS §11). */
  subagentCalls?: readonly CallSummary[] | undefined;
}

export function CallRow({ call, ended, open, focused, terminals, dark, onToggle, onNeedDetail, detailError, runningSince, userNote, subagentCalls }: CallRowProps) {
  const light = call.detail === 'light';
  useEffect(() => {
    if (open && light && detailError === undefined) onNeedDetail?.(call);
  }, [open, light, call, onNeedDetail, detailError]);
  const status = displayStatus(call, ended);
  // One phrase with the CLI's for what is known of an open call whose command exited.
  const lastTerminal = call.terminalIds?.at(-1);
  const note = statusNote(call, lastTerminal === undefined ? undefined : terminals.get(lastTerminal));
  const openMs = openFor(call);
  const perm = permissionText(call);
  const [tab, setTab] = useState<'view' | 'raw'>('view');
  const showTitle = call.title && call.title !== call.subject && call.title !== call.label && call.title !== call.name;
  return (
    <div className={styles.call} data-call-id={call.id} data-label={call.label} data-status={status} data-open={open || undefined}>
      <button
        type="button"
        className={`${controls.rowToggle} ${styles.header}`}
        aria-expanded={open}
        onClick={onToggle}
        tabIndex={focused ? 0 : -1}
        data-row-focus
        title={startedText(call.startMs)}
      >
        <span className={styles.status} data-status={status}>
          {STATUS_TEXT[status]}
        </span>
        {note !== null ? (
          <span className={styles.dimText} data-status-note>
            {note}
          </span>
        ) : null}
        <span className={styles.label}>{call.label}</span>
        {call.subject !== null ? (
          <span className={styles.subject} data-subject>
            {call.subject}
          </span>
        ) : null}
        {showTitle ? <span className={styles.title}>{call.title}</span> : null}
        {userNote ? <UserNoteMark note={userNote} /> : null}
        {subagentCalls && subagentCalls.length > 0 ? <SubagentCount calls={subagentCalls} ended={ended} /> : null}
        <span className={styles.spacer} />
        {perm ? <span className={styles.perm}>{perm}</span> : null}
        {call.invalidEnvelopes > 0 ? <span className={styles.bad} title="updates whose x.ai/tool envelope was invalid">⚠ {call.invalidEnvelopes}</span> : null}
        {call.durationMs !== undefined ? (
          <span className={styles.duration}>{formatDuration(call.durationMs)}</span>
        ) : runningSince !== undefined ? (
          <Elapsed since={runningSince} className={styles.duration} />
        ) : openMs !== undefined ? (
          <span className={styles.duration} title="no completion was recorded: how long the input goes on after the call started">
            ≥ {formatDuration(openMs)}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className={styles.detail}>
          {subagentCalls && subagentCalls.length > 0 ? <SubagentCalls calls={subagentCalls} ended={ended} /> : null}
          <div className={styles.tabs} role="tablist">
            <button type="button" role="tab" aria-selected={tab === 'view'} onClick={() => setTab('view')}>
              {call.label}
            </button>
            <button type="button" role="tab" aria-selected={tab === 'raw'} onClick={() => setTab('raw')}>
              Raw
            </button>
            <span className={styles.spacer} />
            <span className={styles.dimText}>
              {durationText(call, runningSince)}
              {' · '}id <code>{call.id}</code>
              {call.name ? (
                <>
                  {' · '}tool <code>{call.name}</code>
                </>
              ) : null}
              {call.kind ? ` · kind ${call.kind}` : ''}
            </span>
          </div>
          {light && detailError !== undefined ? (
            <div className={styles.bad} role="alert">
              This call’s output could not be read again from the file: {detailError}. What was read of it (from line{' '}
              {call.firstLine.toLocaleString('en')} on) is in{' '}
              <button type="button" className={styles.inlineButton} onClick={() => setTab('raw')}>
                the Raw tab
              </button>
              .
            </div>
          ) : light ? (
            <div className={styles.dimText}>Reading this call’s output from the file…</div>
          ) : null}
          <RowBoundary key={tab} raw={() => call} line={isToolCall(call) ? call.history[0]?.line : call.firstLine} resetKey={call} what={tab === 'view' ? 'call' : 'Raw tab'}>
            {tab === 'raw' ? <RawView call={call} /> : isToolCall(call) ? <CallBody call={call} terminals={terminals} dark={dark} /> : null}
          </RowBoundary>
        </div>
      ) : null}
    </div>
  );
}

/** ★ for a bookmark, ✎ for a note (its text on hover): what the user marked, seen while scrolling. */
function UserNoteMark({ note }: { note: CallNote }) {
  const said = [note.bookmarked ? 'bookmarked' : '', note.text.trim() ? `note: ${note.text}` : ''].filter(Boolean).join('; ');
  return (
    <span className={styles.userNote} data-user-note title={said} aria-label={said}>
      {note.bookmarked ? '★' : ''}
      {note.text.trim() ? '✎' : ''}
    </span>
  );
}

/** On a Task/Agent row: how many calls its sub-agent made, and how many failed. */
function SubagentCount({ calls, ended }: { calls: readonly CallSummary[]; ended: boolean }) {
  const failed = calls.filter((c) => displayStatus(c, ended) === 'failed').length;
  return (
    <span className={styles.dimText} data-subagent-count title="calls made by the sub-agent this call started, folded under it">
      {calls.length} sub-agent call{calls.length === 1 ? '' : 's'}
      {failed > 0 ? <span className={styles.status} data-status="failed">{` ${failed} failed`}</span> : null}
    </span>
  );
}

/** Opened, the sub-agent's calls, one line each: status, label, subject. */
function SubagentCalls({ calls, ended }: { calls: readonly CallSummary[]; ended: boolean }) {
  return (
    <ol className={styles.subagentCalls} aria-label="Calls made by the sub-agent">
      {calls.map((c) => {
        const status = displayStatus(c, ended);
        return (
          <li key={c.key} data-subagent-call={c.id} data-status={status}>
            <span className={styles.status} data-status={status}>
              {STATUS_TEXT[status]}
            </span>{' '}
            <span className={styles.label}>{c.label}</span> {c.subject !== null ? <span className={styles.subject}>{c.subject}</span> : null}
            {c.exitCode !== undefined && c.exitCode !== null && c.exitCode !== 0 ? <span className={styles.dimText}>{` exit ${c.exitCode}`}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}
