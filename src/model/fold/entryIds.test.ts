import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntryIds } from './entryIds';

const hex = fc.constantFrom(...'0123456789abcdef');
const digits = (n: number) => fc.array(hex, { minLength: n, maxLength: n }).map((d) => d.join(''));
/** A uuid in its usual form, drawn from a few so that many repeat. */
const usual = fc.tuple(digits(8), digits(4), digits(4), digits(4), digits(12)).map((parts) => parts.join('-'));
/** Near misses: upper case, a dash moved, a digit that is not hex, one character more or less; and any ASCII string. */
const unusual = fc.oneof(
  usual.map((uuid) => uuid.toUpperCase()),
  usual.map((uuid) => `${uuid.slice(0, 7)}-${uuid.slice(7, 8)}${uuid.slice(9)}`),
  usual.map((uuid) => `${uuid.slice(0, 35)}g`),
  usual.map((uuid) => uuid.slice(1)),
  usual.map((uuid) => `${uuid}0`),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
);

describe('EntryIds', () => {
  it('says whether an entry was noted before as a set of its uuid strings would', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(usual, unusual), { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 600 }), (pool, picks) => {
        const ids = new EntryIds();
        const strings = new Set<string>();
        for (const pick of picks) {
          const uuid = pool[pick % pool.length]!;
          const fresh = !strings.has(uuid);
          strings.add(uuid);
          expect(ids.add(uuid), uuid).toBe(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps tens of thousands apart, as its table grows', () => {
    const ids = new EntryIds();
    const uuids = Array.from({ length: 40_000 }, (_, i) => {
      const n = (i * 2654435761) >>> 0;
      return `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    });
    expect(uuids.every((uuid) => ids.add(uuid))).toBe(true);
    expect(uuids.every((uuid) => !ids.add(uuid))).toBe(true);
  });
});
