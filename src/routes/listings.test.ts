import { describe, expect, it } from 'vitest';
import { agentSessionsListingSchema, libraryListingSchema, parseListing, recordingsListingSchema } from './listings';

describe('the listings the page reads', () => {
  it('reads a library listing with a team, leaving out a partition not of its shape', () => {
    const listing = parseListing(
      libraryListingSchema,
      {
        folder: '/team',
        unreadable: [{ file: '/team/x.jsonl', why: 'not a session' }],
        team: {
          base: '/team', here: 'dev-1', present: ['/work/a.jsonl'],
          partitions: [
            { machine: 'dev-1', dir: 'machine=dev-1', updated_ms: 1, sessions: 2, calls: 3, tables: [] },
            { machine: '../evil', dir: 'machine=../evil', updated_ms: 1, sessions: 1, calls: 1, tables: [] },
          ],
        },
      },
      'library',
    );
    expect(listing.team?.partitions.map((p) => p.machine)).toEqual(['dev-1']);
    expect(listing.unreadable).toHaveLength(1);
  });

  it('says what is wrong with an answer not of its shape, and where, instead of showing it', () => {
    expect(() => parseListing(recordingsListingSchema, { folder: '/c', recordings: [{ name: 'a.jsonl', bytes: '12', mtimeMs: 1, live: false }] }, 'recordings')).toThrow(
      /recordings is not a listing Loupe reads at recordings\.0\.bytes/,
    );
    expect(() => parseListing(agentSessionsListingSchema, '<html>Bad gateway</html>', 'list of sessions')).toThrow(/list of sessions is not a listing/);
    expect(() => parseListing(libraryListingSchema, { folder: '/f', unreadable: [], team: { base: '/t', here: null, present: [], partitions: 'x' } }, 'library')).toThrow(/at team\.partitions/);
  });
});
