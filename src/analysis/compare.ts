// Two runs of one task, compared step by step (issue 20): where they first part, an alignment of
// their steps, and a per-label table. Pure, so `loupe diff`, the viewer and tests agree.
//
// A run's steps are its calls in the order `loupe summarize` lists them (model/summary.ts); a
// step's key is (label, subject). Labels are cross-harness (CONTRACTS §5), so a Claude Code log, its
// ACP capture and a Codex run of one task compare in one vocabulary.
import { diffArrays } from 'diff';
import type { Session } from '../model/session';
import { displayStatus } from '../model/status';
import { summarize, type SummaryCall } from '../model/summary';
import type { CallSummary, DisplayStatus, TranscriptItem } from '../model/types';

export interface Step {
  id: string;
  label: string;
  subject: string | null;
  status: DisplayStatus;
}

/** A step with what the label table needs beside it. */
export interface RunStep extends Step {
  /** How long it took, in ms, where the input has the times. */
  durationMs: number | null;
}

export type Change = 'same' | 'status' | 'only-a' | 'only-b';

/** One row of the alignment: indexes into each run's steps (null: that run has no step here). */
export interface Pair {
  a: number | null;
  b: number | null;
  change: Change;
}

export interface PairCounts {
  /** The longest common subsequence's length: same + status. */
  matched: number;
  same: number;
  status: number;
  onlyA: number;
  onlyB: number;
}

export interface LabelSide {
  count: number;
  failed: number;
  /** Total ms of this label's timed steps; null when none is timed. */
  durationMs: number | null;
}

export interface LabelRow {
  label: string;
  a: LabelSide;
  b: LabelSide;
  /** b.count − a.count: how many more (or fewer) steps of this label B took. */
  difference: number;
  /** b.failed − a.failed. */
  failedDifference: number;
  /** b.durationMs − a.durationMs, only where both runs have times for this label. */
  durationDifferenceMs: number | null;
}

export interface FirstDivergence {
  index: number;
  /** null: run A had ended by then. */
  a: Step | null;
  b: Step | null;
}

/**
 * Whether the alignment is a longest one. Past `maxEdits` differences it is not computed (Myers is
 * O((N+M)·D)): the common start and end are aligned and the steps between are listed as only-a then only-b.
 */
export type Alignment = { exact: true } | { exact: false; maxEdits: number; unalignedA: number; unalignedB: number };

export interface Comparison {
  firstDivergence: FirstDivergence | null;
  counts: PairCounts;
  pairs: Pair[];
  labels: LabelRow[];
  alignment: Alignment;
}

export interface CompareOptions {
  /** The bound on D, the number of steps only one run has, past which the fallback aligns. */
  maxEdits?: number;
}

/** About half a second for two 100k-step runs that share nothing (npm run bench:compare). */
export const DEFAULT_MAX_EDITS = 2000;

/** A session's steps: its calls as `summarize` lists them, of one session id when given. */
export function stepsOfSession(session: Session, sessionId?: string | null): RunStep[] {
  return stepsOfSummaryCalls(summarize(session).calls, sessionId);
}

/**
 * A session's calls in the order `summarize` lists them, except that a sub-agent's calls follow the
 * call that started it (CONTRACTS §11): over ACP they arrive while it runs, in Claude Code's own log
 * they are in a file of their own, read after the session's. Of one session id when given: a
 * sub-agent's calls, in a session of their own, belong to the session of the call that started it.
 */
export function stepsOfSummaryCalls(calls: readonly SummaryCall[], sessionId?: string | null): RunStep[] {
  const chosen = withinSession(calls, (call) => call.session, (call) => call.parent, sessionId);
  return subagentsAfterParents(chosen, (call) => call.parent).map((call) => ({ id: call.id, label: call.label, subject: call.subject, status: call.status, durationMs: call.durationMs }));
}

/** The calls of `sessionId` and of the sub-agents its calls started (all when it is undefined). */
function withinSession<T extends { id: string }>(calls: readonly T[], sessionOf: (call: T) => string | null, parentOf: (call: T) => string | null | undefined, sessionId: string | null | undefined): T[] {
  if (sessionId === undefined) return [...calls];
  const byId = new Map<string, T>();
  for (const call of calls) if (!byId.has(call.id)) byId.set(call.id, call);
  return calls.filter((call) => {
    let at: T | undefined = call;
    // A chain of parents no longer than the calls (a loop in the input ends it).
    for (let depth = 0; at !== undefined && depth <= calls.length; depth++) {
      if (sessionOf(at) === sessionId) return true;
      const parent = parentOf(at);
      at = parent == null ? undefined : byId.get(parent);
    }
    return false;
  });
}

/** The calls in order, each followed by the calls its sub-agent made (depth first); a call whose parent is not among them stays where it is. */
export function subagentsAfterParents<T extends { id: string }>(calls: readonly T[], parentOf: (call: T) => string | null | undefined): T[] {
  const ids = new Set(calls.map((call) => call.id));
  const children = new Map<string, T[]>();
  let nested = false;
  for (const call of calls) {
    const parent = parentOf(call);
    if (parent == null || parent === call.id || !ids.has(parent)) continue;
    nested = true;
    const list = children.get(parent);
    if (list) list.push(call);
    else children.set(parent, [call]);
  }
  if (!nested) return [...calls];
  const out: T[] = [];
  const placed = new Set<T>();
  const place = (call: T) => {
    const stack = [call];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (placed.has(next)) continue;
      placed.add(next);
      out.push(next);
      const kids = children.get(next.id);
      if (kids) for (let index = kids.length - 1; index >= 0; index--) stack.push(kids[index]!);
    }
  };
  for (const call of calls) {
    const parent = parentOf(call);
    if (parent == null || parent === call.id || !ids.has(parent)) place(call);
  }
  // Calls in a loop of parents (no root): where they were.
  for (const call of calls) if (!placed.has(call)) place(call);
  return out;
}

/** A step of the viewer's: where its call is in the transcript, to open it there. */
export interface RowStep extends RunStep {
  /** The call's key in the store. */
  key: string;
  /** Its transcript row (item index). */
  item: number;
}

/**
 * The same steps read from the viewer's rows (a store snapshot, or a Session): call rows in
 * transcript order, where each call appears once, at its first update, which is the order of
 * first appearance `summarize` lists calls in; each status as summarize gives it (displayStatus).
 */
export function stepsOfRows(items: Iterable<TranscriptItem>, calls: { get(key: string): CallSummary | undefined }, ended: boolean, sessionId?: string): RowStep[] {
  const rows: { call: CallSummary; key: string; item: number }[] = [];
  let item = 0;
  for (const row of items) {
    const call = row.type === 'call' ? calls.get(row.callKey) : undefined;
    if (row.type === 'call' && call !== undefined) rows.push({ call, key: row.callKey, item });
    item++;
  }
  // As stepsOfSummaryCalls orders them: a sub-agent's calls after the call that started it.
  const byCall = rows.map((row) => ({ ...row, id: row.call.id }));
  const chosen = withinSession(byCall, (row) => row.call.sessionId, (row) => row.call.parentId, sessionId);
  return subagentsAfterParents(chosen, (row) => row.call.parentId).map(({ call, key, item: at }) => ({
    id: call.id, label: call.label, subject: call.subject, status: displayStatus(call, ended), durationMs: call.durationMs ?? null, key, item: at,
  }));
}

/**
 * The session a file's run is: the one asked for; else, of several, the first (in the order the
 * file names them) that has calls, a session that only started being none of the task's steps;
 * undefined (every call) when the file names one session or none.
 */
export function runSession(sessionIds: readonly string[], callSessions: Iterable<string | null>, asked?: string): string | undefined {
  if (asked !== undefined) return asked;
  if (sessionIds.length <= 1) return undefined;
  const withCalls = new Set(callSessions);
  return sessionIds.find((id) => withCalls.has(id)) ?? sessionIds[0];
}

export function compareRuns(a: readonly RunStep[], b: readonly RunStep[], options: CompareOptions = {}): Comparison {
  const { pairs, alignment } = align(a, b, options.maxEdits ?? DEFAULT_MAX_EDITS);
  return { firstDivergence: firstDivergence(a, b), counts: countPairs(pairs), pairs, labels: labelTable(a, b), alignment };
}

/** The first index where the runs differ in label, subject or status, or where one has ended; null when they agree throughout. */
export function firstDivergence(a: readonly Step[], b: readonly Step[]): FirstDivergence | null {
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const stepA = a[index];
    const stepB = b[index];
    if (stepA === undefined || stepB === undefined || !sameKey(stepA, stepB) || stepA.status !== stepB.status) {
      return { index, a: stepA ? bareStep(stepA) : null, b: stepB ? bareStep(stepB) : null };
    }
  }
  return null;
}

export function sameKey(a: Pick<Step, 'label' | 'subject'>, b: Pick<Step, 'label' | 'subject'>): boolean {
  return a.label === b.label && a.subject === b.subject;
}

function bareStep(step: Step): Step {
  return { id: step.id, label: step.label, subject: step.subject, status: step.status };
}

/**
 * A numbering of step keys (label, subject): each key a small integer, equal for equal keys however
 * many steps it numbers, so the diff compares numbers, not pairs of strings.
 */
export function keyNumbering(): (step: Pick<Step, 'label' | 'subject'>) => number {
  const numbers = new Map<string, number>();
  return (step) => {
    // The subject's null is not the empty string; a label holds no NUL (it is a name from a table or an envelope).
    const key = `${step.label}\u0000${step.subject === null ? '\u0001' : `\u0002${step.subject}`}`;
    let number = numbers.get(key);
    if (number === undefined) numbers.set(key, (number = numbers.size));
    return number;
  };
}

/** Each step's key as a small integer, equal across the two runs for equal keys. */
export function keyNumbers(a: readonly Step[], b: readonly Step[]): [number[], number[]] {
  const numberOf = keyNumbering();
  return [a.map(numberOf), b.map(numberOf)];
}

/**
 * A longest common subsequence of the two key sequences, by jsdiff's Myers. Where several are
 * longest, its forward greedy pass keeps matches earliest: a step one run repeats is matched with
 * its first occurrence, and the extra one is reported after; a step only A has comes before one
 * only B has at the same place.
 */
export function align(a: readonly Step[], b: readonly Step[], maxEdits: number): { pairs: Pair[]; alignment: Alignment } {
  const [keysA, keysB] = keyNumbers(a, b);
  return alignKeys(a, b, keysA, keysB, maxEdits, 0);
}

/**
 * `align` on key numbers already made, diffing from `from` on: the runs' first `from` keys are
 * taken as equal (matched one to one) without being looked at again. A longest alignment of two runs
 * with a common start is that start, matched, and one of the rest, so given the common start this
 * is what `align` gives, for a diff of only the rest (compareIncremental.ts).
 */
export function alignKeys(a: readonly Step[], b: readonly Step[], keysA: number[], keysB: number[], maxEdits: number, from: number): { pairs: Pair[]; alignment: Alignment } {
  const pairs: Pair[] = [];
  const matched = (at: number, bt: number) => pairs.push({ a: at, b: bt, change: a[at]!.status === b[bt]!.status ? 'same' : 'status' });
  for (let n = 0; n < from; n++) matched(n, n);
  const restA = from === 0 ? keysA : keysA.slice(from);
  const restB = from === 0 ? keysB : keysB.slice(from);
  const changes = restA.length === 0 && restB.length === 0 ? [] : diffArrays(restA, restB, { maxEditLength: maxEdits });
  if (changes !== undefined) {
    let at = from;
    let bt = from;
    for (const change of changes) {
      for (let n = 0; n < change.count; n++) {
        if (change.removed) pairs.push({ a: at++, b: null, change: 'only-a' });
        else if (change.added) pairs.push({ a: null, b: bt++, change: 'only-b' });
        else matched(at++, bt++);
      }
    }
    return { pairs, alignment: { exact: true } };
  }
  // Too many differences to align exactly: the common start and end, and the middle unaligned.
  let start = from;
  while (start < keysA.length && start < keysB.length && keysA[start] === keysB[start]) start++;
  let endA = keysA.length;
  let endB = keysB.length;
  while (endA > start && endB > start && keysA[endA - 1] === keysB[endB - 1]) {
    endA--;
    endB--;
  }
  for (let n = from; n < start; n++) matched(n, n);
  for (let at = start; at < endA; at++) pairs.push({ a: at, b: null, change: 'only-a' });
  for (let bt = start; bt < endB; bt++) pairs.push({ a: null, b: bt, change: 'only-b' });
  for (let at = endA, bt = endB; at < keysA.length; at++, bt++) matched(at, bt);
  return { pairs, alignment: { exact: false, maxEdits, unalignedA: endA - start, unalignedB: endB - start } };
}

export function countPairs(pairs: readonly Pair[]): PairCounts {
  const counts: PairCounts = { matched: 0, same: 0, status: 0, onlyA: 0, onlyB: 0 };
  for (const pair of pairs) {
    if (pair.change === 'same') counts.same++;
    else if (pair.change === 'status') counts.status++;
    else if (pair.change === 'only-a') counts.onlyA++;
    else counts.onlyB++;
  }
  counts.matched = counts.same + counts.status;
  return counts;
}

/** Per label, in order of first appearance (A's, then labels only B has). */
export function labelTable(a: readonly RunStep[], b: readonly RunStep[]): LabelRow[] {
  return labelRows(labelSides(a), labelSides(b));
}

/** One run's half of the label table, by label in order of first appearance. */
export function labelSides(steps: readonly RunStep[]): Map<string, LabelSide> {
  const sides = new Map<string, LabelSide>();
  for (const step of steps) {
    let side = sides.get(step.label);
    if (side === undefined) sides.set(step.label, (side = emptySide()));
    side.count++;
    if (step.status === 'failed') side.failed++;
    if (step.durationMs !== null) side.durationMs = (side.durationMs ?? 0) + step.durationMs;
  }
  return sides;
}

/** The two halves side by side: A's labels, then those only B has. */
export function labelRows(sidesA: ReadonlyMap<string, LabelSide>, sidesB: ReadonlyMap<string, LabelSide>): LabelRow[] {
  const labels = [...sidesA.keys(), ...[...sidesB.keys()].filter((label) => !sidesA.has(label))];
  return labels.map((label) => {
    const a = sidesA.get(label) ?? emptySide();
    const b = sidesB.get(label) ?? emptySide();
    return {
      label,
      a,
      b,
      difference: b.count - a.count,
      failedDifference: b.failed - a.failed,
      durationDifferenceMs: a.durationMs !== null && b.durationMs !== null ? b.durationMs - a.durationMs : null,
    };
  });
}

function emptySide(): LabelSide {
  return { count: 0, failed: 0, durationMs: null };
}

export interface ContextRow {
  index: number;
  a: Step | null;
  b: Step | null;
}

/** The steps of both runs at the same places around `index`: what a person reads to see where they parted. */
export function stepsAround(a: readonly Step[], b: readonly Step[], index: number, around: number): ContextRow[] {
  const rows: ContextRow[] = [];
  const end = Math.min(Math.max(a.length, b.length), index + around + 1);
  for (let at = Math.max(0, index - around); at < end; at++) rows.push({ index: at, a: a[at] ?? null, b: b[at] ?? null });
  return rows;
}

/** `1 step`, `12 steps`: counts as the CLI, the md report and the viewer say them. */
export function stepCount(n: number): string {
  return `${n} step${n === 1 ? '' : 's'}`;
}
