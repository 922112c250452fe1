// What a request to a `loupe open` server asks for, from its path after the token: the one table
// of the server's addresses (page.ts builds them for the page). The server decides what each
// may be given (a session, a library, the recordings), not this.
import { machineOfDir } from '../analysis/teamIndex';
import { LIBRARY_TABLES, LISTING, type LibraryTable } from './page';

export type ServerRoute =
  /** The viewer's page itself (`TOKEN/`). */
  | { kind: 'page' }
  /** `session` or `session/NAME`: the session opened. */
  | { kind: 'session' }
  /** `compare` or `compare/NAME`: the run it is compared with. */
  | { kind: 'compare' }
  /** `library`: the library's listing. */
  | { kind: 'libraryListing' }
  /** `library/TABLE`: a table of the folder's index. */
  | { kind: 'libraryTable'; table: LibraryTable }
  /** `library/machine=NAME/TABLE`: a table of a partition of a team's index. */
  | { kind: 'teamTable'; dir: string; table: LibraryTable }
  /** `library/file/PATH…`: a file of the library's folder. */
  | { kind: 'libraryFile'; path: string[] }
  /** `library/…` naming nothing. */
  | { kind: 'notInLibrary' }
  /** `recordings`: the recordings' listing. */
  | { kind: 'recordingsListing' }
  /** `recordings/NAME`: one recording. */
  | { kind: 'recording'; name: string }
  /** `sessions`: the agents' sessions' listing. */
  | { kind: 'agentSessionsListing' }
  /** `sessions/ID` or `sessions/ID/NAME`: one of them, by the id the listing gave it. */
  | { kind: 'agentSession'; id: string }
  /** `recordings/…` or `sessions/…` naming nothing. */
  | { kind: 'notListed' }
  /** Anything else: a file of the viewer's build. */
  | { kind: 'asset'; path: string[] };

const isTable = (name: string | undefined): name is LibraryTable => LIBRARY_TABLES.some((table) => table === name);

/** The route of the path's decoded segments after the token (non-empty: `TOKEN/` is `['']`). */
export function serverRouteOf(segments: readonly string[]): ServerRoute {
  const [first, second, third] = segments;
  const count = segments.length;
  if (count === 1 && first === '') return { kind: 'page' };
  if (first === 'session' && count <= 2) return { kind: 'session' };
  if (first === 'compare' && count <= 2) return { kind: 'compare' };
  if (first === LISTING.library) {
    if (count === 1) return { kind: 'libraryListing' };
    if (count === 2 && isTable(second)) return { kind: 'libraryTable', table: second };
    if (count === 3 && second !== undefined && machineOfDir(second) !== null && isTable(third)) return { kind: 'teamTable', dir: second, table: third };
    if (second === 'file' && count > 2) return { kind: 'libraryFile', path: segments.slice(2) };
    return { kind: 'notInLibrary' };
  }
  if (first === LISTING.recordings) {
    if (count === 1) return { kind: 'recordingsListing' };
    return count === 2 && second !== undefined ? { kind: 'recording', name: second } : { kind: 'notListed' };
  }
  if (first === LISTING.agentSessions) {
    if (count === 1) return { kind: 'agentSessionsListing' };
    return (count === 2 || count === 3) && second !== undefined ? { kind: 'agentSession', id: second } : { kind: 'notListed' };
  }
  return { kind: 'asset', path: [...segments] };
}

/** The decoded segments of a path page.ts built (each segment of it encoded, joined by `/`). */
export function segmentsOf(path: string): string[] {
  return path.split('/').map(decodeURIComponent);
}
