// Two runs of one task side by side (issue 20): their steps aligned row by row, a gap where one
// run has no step, the first divergence marked, scrolled to and announced. Driven by two ordinary
// session stores through their public API; the comparison itself is src/analysis/compare.ts.
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { runSession, stepCount, stepsOfRows, type Change, type Comparison, type FirstDivergence, type Pair, type RowStep, type Step } from '../../analysis/compare';
import { createIncrementalCompare } from '../../analysis/compareIncremental';
import { formatDuration } from '../../analysis/formatDuration';
import { compareMarkdown, runTitle, signed } from '../../share/compareMarkdown';
import { baseName, countKinds } from '../../share/exportMarkdown';
import type { CallSummary } from '../../model/types';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import { CallRow } from '../calls/CallRow';
import { CopyButton } from '../calls/CopyButton';
import { downloadBlob } from '../sharing/download';
import { useDocumentKeys } from '../useDocumentKeys';
import { useSessionSnapshot, useSystemDark } from '../useStore';
import { VirtualList, type ScrollRequest } from '../virtual/VirtualList';
import type { ThemeChoice } from '../SessionView';
import viewStyles from '../SessionView.module.css';
import styles from './compare.module.css';

export interface CompareViewProps {
  storeA: SessionStore;
  storeB: SessionStore;
  nameA?: string | undefined;
  nameB?: string | undefined;
  /** Completes a call read light, of run A or B, when its row is opened. */
  onNeedDetailA?: (call: CallSummary) => void;
  onNeedDetailB?: (call: CallSummary) => void;
  theme?: ThemeChoice;
  className?: string;
  /** 'document' lets keys typed with nothing focused reach the view (a full-page viewer). */
  keyboardScope?: 'viewer' | 'document';
  /** Leave the comparison (the host shows run A alone again). */
  onClose?: () => void;
  /** Whether both runs are read redacted; with onRedactChange the view offers "Redact secrets". */
  redact?: boolean;
  onRedactChange?: (redact: boolean) => void;
  /** A call to open, scroll to and mark (from the address); each time it changes. */
  openCall?: CompareCall | null;
  /** A call's row was opened (or closed: null): the host writes it to the address. */
  onOpenCall?: (call: CompareCall | null) => void;
}

/** A call of one run of the two: what the address names as open. */
export interface CompareCall {
  run: 'A' | 'B';
  id: string;
}

const CONTEXT_ROWS = 3;

const CHANGE_TEXT: Record<Change, string> = { same: 'same', status: 'other status', 'only-a': 'only in A', 'only-b': 'only in B' };

export function CompareView({ storeA, storeB, nameA, nameB, onNeedDetailA, onNeedDetailB, theme = 'system', className, keyboardScope = 'viewer', onClose, openCall, onOpenCall, redact = false, onRedactChange }: CompareViewProps) {
  const snapA = useSessionSnapshot(storeA);
  const snapB = useSessionSnapshot(storeB);
  const systemDark = useSystemDark();
  const dark = theme === 'dark' || (theme === 'system' && systemDark);
  // A followed run grows a few times a second: the comparison catches up when the page has time.
  const shownA = useDeferredValue(snapA);
  const shownB = useDeferredValue(snapB);
  const runA = useRun(shownA);
  const runB = useRun(shownB);
  // Each update of a followed run re-diffs only what follows the runs' common start, and one that
  // changed no step keeps the comparison (and all worked out from it) as it was.
  const [compare] = useState(() => createIncrementalCompare());
  const comparison = useMemo(() => compare(runA, runB), [compare, runA, runB]);
  const loaded = shownA.ended && shownB.ended;

  const [onlyDifferences, setOnlyDifferences] = useState(false);
  /** Indexes into comparison.pairs of the rows shown. */
  const rows = useMemo(() => (onlyDifferences ? comparison.pairs.flatMap((pair, index) => (pair.change === 'same' ? [] : [index])) : comparison.pairs.map((_, index) => index)), [comparison, onlyDifferences]);
  /** Positions in `rows` of the differences: what next and previous step through. */
  const differences = useMemo(() => rows.flatMap((pairIndex, position) => (comparison.pairs[pairIndex]!.change === 'same' ? [] : [position])), [rows, comparison]);
  // A run that could not be read agrees with nothing: say so rather than compare what little was read.
  const failure = [failureOf('A', snapA), failureOf('B', snapB)].filter((text) => text !== null).join(' ') || null;
  // The first pair that is not the same: its steps are where the runs first part (the pairs before
  // it are the common start, one step of each run per row).
  const firstDivergencePair = comparison.firstDivergence === null || failure !== null ? -1 : comparison.pairs.findIndex((pair) => pair.change !== 'same');
  const settled = firstDivergencePair >= 0 && comparison.firstDivergence !== null && isSettled(comparison.firstDivergence, shownA.ended, shownB.ended);

  const [current, setCurrent] = useState<number | null>(null);
  const [scrollRequest, setScrollRequest] = useState<ScrollRequest | null>(null);
  // A few rows above it stay in view: the steps the runs still shared.
  const scrollToRow = (position: number) => setScrollRequest((last) => ({ index: Math.max(0, position - CONTEXT_ROWS), align: 'start', seq: (last?.seq ?? 0) + 1 }));

  // On load, and once a followed run first parts from the other: the first divergence is shown
  // (once: after that the person moves as they like).
  const [shownDivergence, setShownDivergence] = useState(false);
  const wantedRun = openCall?.run;
  const wantedId = openCall?.id;
  const wantedPair = useMemo(() => (wantedRun === undefined ? -1 : comparison.pairs.findIndex((pair) => pairCallId(pair, wantedRun, runA, runB) === wantedId)), [comparison, wantedRun, wantedId, runA, runB]);
  if (settled && !shownDivergence && (openCall == null || (loaded && wantedPair < 0)) && rows.includes(firstDivergencePair)) {
    setShownDivergence(true);
    setCurrent(firstDivergencePair);
    scrollToRow(rows.indexOf(firstDivergencePair));
  }

  // A call the address names: its row opened, marked and scrolled to, once it has been read (and
  // again each time the address names another, as Back and Forward do). It, not the first
  // divergence, is what the person came to see.
  const wanted = openCall ? `${openCall.run}\u0000${openCall.id}` : null;
  const [restored, setRestored] = useState<string | null>(null);
  if (wanted !== null && wanted !== restored && wantedPair >= 0) {
    setRestored(wanted);
    setShownDivergence(true);
    setCurrent(wantedPair);
    const position = rows.indexOf(wantedPair);
    if (position >= 0) scrollToRow(position);
  }
  if (wanted === null && restored !== null) setRestored(null);
  const wantedItem = wantedPair < 0 || !openCall ? undefined : (openCall.run === 'A' ? runA[comparison.pairs[wantedPair]!.a!] : runB[comparison.pairs[wantedPair]!.b!])?.item;
  const wantedStore = openCall?.run === 'B' ? storeB : storeA;
  useEffect(() => {
    if (wantedItem !== undefined) wantedStore.setExpanded(wantedItem, true);
  }, [wantedStore, wantedItem, wanted]);

  const toggle = (run: 'A' | 'B', step: RowStep) => {
    const store = run === 'A' ? storeA : storeB;
    const opening = !store.getSnapshot().expanded.has(step.item);
    store.toggleExpanded(step.item);
    if (opening) setRestored(`${run}\u0000${step.id}`);
    onOpenCall?.(opening ? { run, id: step.id } : null);
  };

  const step = (direction: 1 | -1) => {
    if (differences.length === 0) return;
    const at = current === null ? -1 : rows.indexOf(current);
    const next = direction === 1 ? differences.find((position) => position > at) : differences.findLast((position) => position < at);
    const position = next ?? (direction === 1 ? differences[0]! : differences.at(-1)!);
    setCurrent(rows[position]!);
    scrollToRow(position);
  };

  const rootRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent | ReactKeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable) return;
    if (e.key === 'n' || e.key === ']') step(1);
    else if (e.key === 'p' || e.key === '[') step(-1);
    else return;
    e.preventDefault();
  };
  useDocumentKeys(keyboardScope, rootRef, onKeyDown);

  const renderRow = (position: number) => {
    const pairIndex = rows[position]!;
    const pair = comparison.pairs[pairIndex]!;
    return (
      <div
        className={styles.row}
        data-diff={pair.change}
        data-first-divergence={pairIndex === firstDivergencePair || undefined}
        data-current={pairIndex === current || undefined}
        aria-label={`${CHANGE_TEXT[pair.change]}${pairIndex === firstDivergencePair ? ', the first divergence' : ''}`}
      >
        <StepCell step={pair.a === null ? null : runA[pair.a]} snap={snapA} dark={dark} onNeedDetail={onNeedDetailA} run="A" onToggle={toggle} />
        <StepCell step={pair.b === null ? null : runB[pair.b]} snap={snapB} dark={dark} onNeedDetail={onNeedDetailB} run="B" onToggle={toggle} />
      </div>
    );
  };

  // The report `loupe diff --md` prints, of the runs as shown: read redacted, it says so.
  const titleA = runTitle(nameA ?? 'run A');
  const titleB = runTitle(nameB ?? 'run B');
  const report = () => {
    const redactions = snapA.redaction || snapB.redaction ? countKinds([...(snapA.redaction?.findings ?? []), ...(snapB.redaction?.findings ?? [])]) : null;
    return compareMarkdown(comparison, runA, runB, { titleA, titleB, redacted: redactions });
  };
  const reportName = `${baseName(titleA)}-vs-${baseName(titleB)}${snapA.redaction || snapB.redaction ? '.redacted' : ''}.md`;

  const { counts } = comparison;
  return (
    <div ref={rootRef} className={`${viewStyles.root} ${styles.compare} ${className ?? ''}`} data-theme={dark ? 'dark' : 'light'} data-testid="compare-view" tabIndex={-1} onKeyDown={onKeyDown}>
      <header className={styles.header}>
        <div className={styles.names}>
          <span>
            <b>A</b> <span title={nameA}>{nameA ?? 'run A'}</span> · {stepCount(runA.length)}{snapA.ended ? '' : ' (reading)'}
          </span>
          <span>
            <b>B</b> <span title={nameB}>{nameB ?? 'run B'}</span> · {stepCount(runB.length)}{snapB.ended ? '' : ' (reading)'}
          </span>
        </div>
        {/* A run that cannot be read is said here, once, as an alert. */}
        <p className={styles.summary} role={failure !== null ? 'alert' : undefined} aria-live={failure !== null ? 'assertive' : 'polite'} data-testid="compare-summary">
          {failure ?? summaryText(comparison, runA, loaded, settled)}
        </p>
        <div className={styles.controls}>
          <span data-testid="compare-counts">
            matched {counts.matched} (same {counts.same}, other status {counts.status}) · only in A {counts.onlyA} · only in B {counts.onlyB}
          </span>
          <span className={styles.grow} />
          <button type="button" className={viewStyles.button} onClick={() => step(-1)} disabled={differences.length === 0} aria-keyshortcuts="p" title="Previous difference (p)">
            ↑ Previous difference
          </button>
          <button type="button" className={viewStyles.button} onClick={() => step(1)} disabled={differences.length === 0} aria-keyshortcuts="n" title="Next difference (n)">
            ↓ Next difference
          </button>
          <label className={styles.toggle}>
            <input type="checkbox" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} /> Only differences
          </label>
          {onRedactChange ? (
            <button type="button" className={viewStyles.button} aria-pressed={redact} title="Read both runs again with every secret found replaced by its kind (e.g. ‹aws-access-key›)" onClick={() => onRedactChange(!redact)}>
              Redact secrets
            </button>
          ) : null}
          <CopyButton text={report} label="Copy report" />
          <button type="button" className={viewStyles.button} disabled={failure !== null} onClick={() => downloadBlob(new Blob([report()], { type: 'text/markdown' }), reportName)} title="The comparison as markdown, as loupe diff --md prints it">
            Download .md
          </button>
          {onClose ? (
            <button type="button" className={viewStyles.button} onClick={onClose}>
              Close comparison
            </button>
          ) : null}
        </div>
        {comparison.alignment.exact ? null : (
          <p className={styles.note} role="note">
            The runs differ in more than {comparison.alignment.maxEdits} steps: their common start and end are aligned, the {comparison.alignment.unalignedA} and {comparison.alignment.unalignedB} steps between are not.
          </p>
        )}
      </header>
      <div className={styles.columns} aria-hidden>
        <span>A</span>
        <span>B</span>
      </div>
      <VirtualList
        className={styles.list}
        count={rows.length}
        estimate={34}
        rowKey={(position) => rows[position] ?? position}
        renderRow={renderRow}
        scrollRequest={scrollRequest}
        ariaLabel="Steps of the two runs, aligned"
      />
      <LabelTable comparison={comparison} />
    </div>
  );
}

/** A run's steps, recomputed only when its rows change. */
function useRun(snap: SessionSnapshot): RowStep[] {
  const { items, calls, ended, sessionIds } = snap;
  return useMemo(() => stepsOfRows(items, calls, ended, runSession(sessionIds.toArray(), calls.valueSeq().map((call) => call.sessionId))), [items, calls, ended, sessionIds]);
}

function pairCallId(pair: Pair, run: 'A' | 'B', a: readonly RowStep[], b: readonly RowStep[]): string | undefined {
  return run === 'A' ? (pair.a === null ? undefined : a[pair.a]?.id) : pair.b === null ? undefined : b[pair.b]?.id;
}

function summaryText(comparison: Comparison, a: readonly RowStep[], loaded: boolean, settled: boolean): string {
  const first = comparison.firstDivergence;
  if (first === null) return loaded ? `The runs agree throughout (${stepCount(a.length)}).` : `Reading… the runs agree so far (${stepCount(a.length)}).`;
  if (!settled) return `Reading… the runs agree for their first ${stepCount(first.index)} so far.`;
  const side = (run: 'A' | 'B', s: Step | null) => (s === null ? `${run} has ended` : `${run}: ${s.label}${s.subject === null ? '' : ` ${s.subject}`} (${s.status})`);
  return `First divergence at step ${first.index + 1}: ${side('A', first.a)}; ${side('B', first.b)}.`;
}

function failureOf(run: 'A' | 'B', snap: SessionSnapshot): string | null {
  return snap.load.state === 'error' ? `Run ${run} could not be read${snap.load.error ? `: ${snap.load.error}` : ''}.` : null;
}

/**
 * Whether the runs' first divergence will stay where it is: a run still being read may yet add the
 * step it lacks, and a call that has not ended may yet change its status (or subject).
 */
function isSettled(first: FirstDivergence, endedA: boolean, endedB: boolean): boolean {
  const stays = (step: Step | null, ended: boolean) => (step === null ? ended : step.status !== 'pending' && step.status !== 'running');
  return stays(first.a, endedA) && stays(first.b, endedB);
}

interface StepCellProps {
  step: RowStep | null | undefined;
  snap: SessionSnapshot;
  dark: boolean;
  onNeedDetail: ((call: CallSummary) => void) | undefined;
  run: 'A' | 'B';
  onToggle: (run: 'A' | 'B', step: RowStep) => void;
}

/** One run's half of a row: its call row as the transcript draws it (opens the same way), or a gap. */
function StepCell({ step, snap, dark, onNeedDetail, run, onToggle }: StepCellProps) {
  const call = step ? snap.calls.get(step.key) : undefined;
  if (!step || !call) return <div className={styles.gap} data-gap={run} aria-label={`no step in ${run}`} />;
  return (
    <div className={styles.cell} data-run={run}>
      <CallRow
        call={call}
        ended={snap.ended}
        open={snap.expanded.has(step.item)}
        focused
        terminals={snap.terminals}
        dark={dark}
        onToggle={() => onToggle(run, step)}
        onNeedDetail={onNeedDetail}
        detailError={snap.detailErrors.get(step.key)}
      />
    </div>
  );
}

/** Each label's counts, failures and times in each run, side by side. */
function LabelTable({ comparison }: { comparison: Comparison }) {
  if (comparison.labels.length === 0) return null;
  return (
    <details className={styles.labels} open>
      <summary>Steps by label</summary>
      <table data-testid="compare-labels">
        <thead>
          <tr>
            <th scope="col">label</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">±</th>
            <th scope="col">failed A</th>
            <th scope="col">failed B</th>
            <th scope="col">time A</th>
            <th scope="col">time B</th>
          </tr>
        </thead>
        <tbody>
          {comparison.labels.map((row) => {
            const timed = row.durationDifferenceMs !== null;
            return (
              <tr key={row.label} data-label={row.label} data-difference={row.difference}>
                <th scope="row">{row.label}</th>
                <td>{row.a.count}</td>
                <td>{row.b.count}</td>
                <td>{signed(row.difference)}</td>
                <td>{row.a.failed}</td>
                <td>{row.b.failed}</td>
                <td>{timed ? formatDuration(row.a.durationMs) : '—'}</td>
                <td>{timed ? formatDuration(row.b.durationMs) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}
