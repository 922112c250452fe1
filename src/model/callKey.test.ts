// A call's key is JSON of its scope and id (export.ts reads it back): written out by hand where
// no character needs escaping, JSON.stringify's text, on any strings (quotes, backslashes, control
// characters, surrogates paired and lone).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callIdentity, callKey, LEDGER_SCOPE } from './callKey';

describe('callKey', () => {
  it('is JSON.stringify of the scope and id, on any strings', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('toolu_01', 'a"b', 'a\\b', '\u0000', '\ud83d', '\ud83d\ude00', 'é'));
    fc.assert(
      fc.property(text, text, (scope, id) => {
        expect(callKey(scope, id)).toBe(JSON.stringify([scope, id]));
        expect(callIdentity(callKey(scope, id, 2))).toBe(callKey(scope, id));
      }),
      { numRuns: 2000 },
    );
    expect(callKey(LEDGER_SCOPE, 'x')).toBe('[0,"x"]');
  });
});
