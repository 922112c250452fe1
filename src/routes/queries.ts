// The page's reads from its server (and a team's host) as react-query queries: a key per listing
// and table, and when a failed read is asked again. The QueryClient is the app's (src/app); this
// layer has no React, only the keys and the rule.
import { LastingFailure } from './listings';
import { LISTING } from './page';

/** The library a page shows: the one its server indexed, or a team's index.json on another host (`?index=URL`). */
export type LibrarySource = { from: 'server' } | { from: 'index'; url: string };

const librarySourceKey = (source: LibrarySource) => (source.from === 'server' ? LISTING.library : `index:${source.url}`);

/** One key per read, stable across renders; a library's three share a prefix (`['library', source]`). */
export const queryKeys = {
  recordings: ['listing', LISTING.recordings],
  agentSessions: ['listing', LISTING.agentSessions],
  libraryListing: (source: LibrarySource) => ['library', librarySourceKey(source), 'listing'],
  libraryTable: (source: LibrarySource, table: 'sessions' | 'calls') => ['library', librarySourceKey(source), table],
} as const;

/** Times a passing failure is asked again before its message shows (react-query's own default). */
const RETRIES = 3;

/** react-query's `retry`: a lasting failure (a 4xx, an answer not of its shape) is said at once, anything else asked again. */
export function retryUnlessLasting(failures: number, error: unknown): boolean {
  return failures < RETRIES && !isLasting(error);
}

function isLasting(error: unknown): boolean {
  // A wrapped failure (`new Error(why, { cause })`) is as lasting as its cause.
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof LastingFailure) return true;
  return false;
}
