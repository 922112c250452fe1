import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareRuns, type RunStep } from './compare';
import { createIncrementalCompare } from './compareIncremental';
import type { DisplayStatus } from '../model/types';

const LABELS = ['Read', 'Edit', 'Run Command'];
const SUBJECTS = ['x', 'y', 'z', null];
const STATUSES: DisplayStatus[] = ['done', 'failed', 'running'];

const arbitraryStep = fc.record({
  label: fc.constantFrom(...LABELS),
  subject: fc.constantFrom(...SUBJECTS),
  status: fc.constantFrom(...STATUSES),
  durationMs: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }),
});

/** What happens to B between two updates of a followed run. */
const arbitraryUpdate = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), steps: fc.array(arbitraryStep, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('status' as const), at: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant('subject' as const), at: fc.nat(), subject: fc.constantFrom(...SUBJECTS) }),
  fc.record({ kind: fc.constant('same' as const) }),
);

let ids = 0;
const withId = (step: Omit<RunStep, 'id'>): RunStep => ({ ...step, id: `c${ids++}` });

describe('createIncrementalCompare', () => {
  it('gives what compareRuns gives at every update of a growing, changing run B', () => {
    fc.assert(
      fc.property(fc.array(arbitraryStep, { maxLength: 20 }), fc.array(arbitraryUpdate, { maxLength: 25 }), fc.constantFrom(undefined, 3), (stepsA, updates, maxEdits) => {
        const options = maxEdits === undefined ? {} : { maxEdits };
        const compare = createIncrementalCompare(options);
        const a = stepsA.map(withId);
        // B starts as A's first half: a followed rerun of the same task.
        let b = a.slice(0, a.length >> 1).map((step) => ({ ...step }));
        expect(compare(a, b)).toEqual(compareRuns(a, b, options));
        for (const update of updates) {
          // Each update is new step objects, as the viewer reads them from the store's rows.
          b = b.map((step) => ({ ...step }));
          if (update.kind === 'append') b.push(...update.steps.map(withId));
          else if (update.kind !== 'same' && b.length > 0) {
            const at = update.at % b.length;
            b[at] = update.kind === 'status' ? { ...b[at]!, status: update.status } : { ...b[at]!, subject: update.subject };
          }
          expect(compare(a, b)).toEqual(compareRuns(a, b, options));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hands back the same comparison when no step changed, and a new one when a status did', () => {
    const compare = createIncrementalCompare();
    const a = [withId({ label: 'Read', subject: 'x', status: 'done', durationMs: null })];
    const b = [withId({ label: 'Read', subject: 'x', status: 'running', durationMs: null })];
    const first = compare(a, b);
    expect(compare(a, b.map((step) => ({ ...step })))).toBe(first);
    const ended = compare(a, [{ ...b[0]!, status: 'done' }]);
    expect(ended).not.toBe(first);
    expect(ended.firstDivergence).toBeNull();
  });
});
