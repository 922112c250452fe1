// The comparison of a run being followed (`loupe open B --follow --vs A`), kept up to date as it
// grows: each update gives the same Comparison as compareRuns on the runs as they now are, for less
// work. A and B's common start is matched without a diff (it only grows as B is appended to, and
// Myers' first snake would walk it anyway); each step's key number is kept while its key is; a run
// whose steps did not change keeps its half of the label table; and an update that changed no step
// (a call's output growing, a message) hands back the previous Comparison itself, so what the
// viewer derives from it is not worked out again.
import { alignKeys, countPairs, DEFAULT_MAX_EDITS, firstDivergence, keyNumbering, labelRows, labelSides, type CompareOptions, type Comparison, type LabelSide, type RunStep } from './compare';

/** compareRuns(a, b) for a pair of runs that change a little between calls. */
export type IncrementalCompare = (a: readonly RunStep[], b: readonly RunStep[]) => Comparison;

interface RunState {
  steps: readonly RunStep[];
  keys: number[];
  sides: Map<string, LabelSide>;
}

export function createIncrementalCompare(options: CompareOptions = {}): IncrementalCompare {
  const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
  // One numbering for every update: equal keys keep equal numbers, which is all the diff needs.
  const numberOf = keyNumbering();
  let stateA: RunState | null = null;
  let stateB: RunState | null = null;
  let last: Comparison | null = null;

  /** The run's key numbers and label half, reusing what the previous update worked out; null when no step changed. */
  const update = (previous: RunState | null, steps: readonly RunStep[]): RunState | null => {
    if (previous !== null && previous.steps === steps) return null;
    const keys = new Array<number>(steps.length);
    let changed = previous === null || previous.steps.length !== steps.length;
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index]!;
      const before = previous?.steps[index];
      if (before !== undefined && before.label === step.label && before.subject === step.subject) {
        keys[index] = previous!.keys[index]!;
        if (!changed && (before.id !== step.id || before.status !== step.status || before.durationMs !== step.durationMs)) changed = true;
      } else {
        keys[index] = numberOf(step);
        changed = true;
      }
    }
    if (!changed) return null;
    return { steps, keys, sides: labelSides(steps) };
  };

  return (a, b) => {
    const nextA = update(stateA, a);
    const nextB = update(stateB, b);
    if (nextA === null && nextB === null && last !== null) {
      // Same steps: keep them as the ones these indexes name (their rows may be new objects).
      stateA = { ...stateA!, steps: a };
      stateB = { ...stateB!, steps: b };
      return last;
    }
    stateA = nextA ?? { ...stateA!, steps: a };
    stateB = nextB ?? { ...stateB!, steps: b };
    const keysA = stateA.keys;
    const keysB = stateB.keys;
    let common = 0;
    const shorter = Math.min(keysA.length, keysB.length);
    while (common < shorter && keysA[common] === keysB[common]) common++;
    const { pairs, alignment } = alignKeys(a, b, keysA, keysB, maxEdits, common);
    last = { firstDivergence: firstDivergence(a, b), counts: countPairs(pairs), pairs, labels: labelRows(stateA.sides, stateB.sides), alignment };
    return last;
  };
}
