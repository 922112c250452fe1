// Vitest setup: waits generous enough for a loaded CI machine (two cores, tests in parallel).
// A wait ends as soon as its condition holds, so a long limit costs nothing when all is well.
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 15_000 });
