import { useMemo, useState } from 'react';
import { splitLines, type LineDiff } from './lineDiff';
import { useLineDiff } from './useLineDiff';
import styles from './diff.module.css';

/** Diffs up to this size are drawn by react-diff-viewer on the main thread, as they always were. */
const SMALL_DIFF_CHARS = 20_000;
const SMALL_DIFF_LINES = 200;

export function isSmallDiff(oldText: string, newText: string): boolean {
  if (oldText.length + newText.length > SMALL_DIFF_CHARS) return false;
  let lines = 0;
  for (const t of [oldText, newText]) for (let i = t.indexOf('\n'); i !== -1 && lines <= SMALL_DIFF_LINES; i = t.indexOf('\n', i + 1)) lines++;
  return lines <= SMALL_DIFF_LINES;
}

/** Unchanged lines kept around each change. */
const CONTEXT = 3;
/** Rows drawn at first, and added by each "show more". */
export const DIFF_PAGE_ROWS = 500;

export type DiffRow = { kind: 'same' | 'add' | 'del'; oldNo: number | null; newNo: number | null; text: string } | { kind: 'fold'; count: number };

/** The rows to draw: changed lines, with CONTEXT unchanged lines around each and the rest folded. */
export function diffRows(oldText: string, newText: string, diff: LineDiff): DiffRow[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  diff.runs.forEach((run, r) => {
    if (run.kind === 'del') {
      for (let k = 0; k < run.count; k++, i++) rows.push({ kind: 'del', oldNo: i + 1, newNo: null, text: a[i] ?? '' });
    } else if (run.kind === 'add') {
      for (let k = 0; k < run.count; k++, j++) rows.push({ kind: 'add', oldNo: null, newNo: j + 1, text: b[j] ?? '' });
    } else {
      const keepBefore = r === 0 ? 0 : CONTEXT;
      const keepAfter = r === diff.runs.length - 1 ? 0 : CONTEXT;
      const same = (k: number): DiffRow => ({ kind: 'same', oldNo: i + k + 1, newNo: j + k + 1, text: a[i + k] ?? '' });
      if (run.count <= keepBefore + keepAfter + 1) {
        for (let k = 0; k < run.count; k++) rows.push(same(k));
      } else {
        for (let k = 0; k < keepBefore; k++) rows.push(same(k));
        rows.push({ kind: 'fold', count: run.count - keepBefore - keepAfter });
        for (let k = run.count - keepAfter; k < run.count; k++) rows.push(same(k));
      }
      i += run.count;
      j += run.count;
    }
  });
  return rows;
}

const MARK = { same: ' ', add: '+', del: '-' } as const;

/**
 * A diff too large to draw at once: computed in a worker with a bound on the work, drawn a page
 * of rows at a time.
 */
export function LargeDiff({ oldText, newText }: { oldText: string; newText: string }) {
  const diff = useLineDiff(oldText, newText);
  const rows = useMemo(() => (diff ? diffRows(oldText, newText, diff) : null), [diff, oldText, newText]);
  const [shown, setShown] = useState(DIFF_PAGE_ROWS);
  if (!diff || !rows) {
    return (
      <div className={styles.note} data-diff-pending>
        Comparing {splitLines(oldText).length.toLocaleString('en')} and {splitLines(newText).length.toLocaleString('en')} lines…
      </div>
    );
  }
  let added = 0;
  let removed = 0;
  for (const run of diff.runs) {
    if (run.kind === 'add') added += run.count;
    else if (run.kind === 'del') removed += run.count;
  }
  return (
    <div className={styles.diff} data-large-diff>
      <div className={styles.note}>
        <span className={styles.added}>+{added.toLocaleString('en')}</span> <span className={styles.removed}>−{removed.toLocaleString('en')}</span> lines
        {diff.exact ? '' : ' · the versions differ too much to align line by line in reasonable time: the changed part is shown as removed, then added'}
      </div>
      <div className={styles.lines} role="table" aria-label="Diff">
        {rows.slice(0, shown).map((row, k) =>
          row.kind === 'fold' ? (
            <div key={k} className={styles.fold} role="row">
              ⋯ {row.count.toLocaleString('en')} unchanged lines
            </div>
          ) : (
            <div key={k} className={styles[row.kind]} role="row" data-diff-line>
              <span className={styles.no}>{row.oldNo ?? ''}</span>
              <span className={styles.no}>{row.newNo ?? ''}</span>
              <span className={styles.mark}>{MARK[row.kind]}</span>
              <span className={styles.text}>{row.text}</span>
            </div>
          ),
        )}
      </div>
      {rows.length > shown ? (
        <button type="button" className={styles.more} onClick={() => setShown((n) => n + DIFF_PAGE_ROWS * 2)}>
          Show {Math.min(DIFF_PAGE_ROWS * 2, rows.length - shown).toLocaleString('en')} more lines ({(rows.length - shown).toLocaleString('en')} not shown)
        </button>
      ) : null}
    </div>
  );
}
