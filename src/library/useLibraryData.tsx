// Where the library's rows come from: the folder `loupe open DIR` indexed (its server's listing
// and tables), a team's index on a static host (`?index=URL`), or a folder the app indexed itself.
// The first two are server state, read as react-query queries (the app's QueryClient): the
// listing, then the sessions and the calls once the listing names where they are.
import { skipToken, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { FleetSession } from '../analysis/fleet';
import { teamListingOf } from '../analysis/teamIndex';
import { fetchListing, httpFailure, LastingFailure, libraryListingSchema, type LibraryListing } from '../routes/listings';
import { LISTING } from '../routes/page';
import { queryKeys, type LibrarySource } from '../routes/queries';
import type { CallColumns } from './callColumns';
import { libraryCalls, readSessions, readTeamTables, servedTeamTable } from './fleetData';
import type { FolderIndex } from './folderIndex';
import { hostSetupMessage, HostSetupError, readRemoteTeamTables, type ByteMeter } from './remoteTables';
import { libraryTables } from './tables';

/**
 * A read as the page shows it: its query's status, value and error (`status` 'pending', 'error'
 * or 'success', `data` typed once it is 'success'). A picked folder's rows are 'success' from the start.
 */
export type Read<T> = PickEach<UseQueryResult<T, Error>, 'status' | 'data' | 'error'>;

/** `Pick` of each member of a union, so `status` still tells which member (and so `data`'s type). */
type PickEach<U, K extends keyof U> = U extends unknown ? Pick<U, K> : never;

/** A folder the app indexed itself ("Open folder…"): its rows in memory, and how a row opens its file. */
export interface PickedLibrary extends FolderIndex {
  open: (path: string) => void;
}

export interface LibraryData {
  listing: Read<LibraryListing>;
  sessions: Read<FleetSession[]>;
  calls: Read<CallColumns>;
  /** What the page fetched from a static host (`?index=URL`), for the benchmark's byte count. */
  fetched: ByteMeter;
}

const inMemory = <T,>(data: T): Read<T> => ({ status: 'success', data, error: null });

/** The library's listing, sessions and calls, each as it is read (or why it could not be). */
export function useLibraryData(picked: PickedLibrary | undefined, remote: string | undefined): LibraryData {
  const [fetched] = useState<ByteMeter>(() => ({ bytes: 0, requests: 0 }));
  const source: LibrarySource = remote !== undefined ? { from: 'index', url: remote } : { from: 'server' };
  // The index is read once per page ("live" is as of then): nothing here goes stale while it is open.
  const listing = useQuery({
    queryKey: queryKeys.libraryListing(source),
    queryFn: picked ? skipToken : () => (remote !== undefined ? remoteListing(remote) : serverListing()),
    staleTime: Infinity,
  });
  const tables = listing.data ? tablesOf(listing.data, remote, fetched) : null;
  // The rows show as soon as the (small) sessions table is read, while the calls are still decoded
  // in a worker. A table that fails is not asked for again: the server's bytes were fetched once
  // for the page (tables.ts) and its calls' moved to a worker; a reload reads them again.
  const sessions = useQuery({
    queryKey: queryKeys.libraryTable(source, 'sessions'),
    queryFn: tables?.sessions ?? skipToken,
    staleTime: Infinity,
    retry: false,
  });
  const calls = useQuery({
    queryKey: queryKeys.libraryTable(source, 'calls'),
    queryFn: tables?.calls ?? skipToken,
    staleTime: Infinity,
    retry: false,
    // Columns of typed arrays, compared with nothing: the table is read once.
    structuralSharing: false,
  });

  if (picked) return { listing: inMemory({ folder: picked.folder, unreadable: picked.unreadable }), sessions: inMemory(picked.sessions), calls: inMemory(picked.calls), fetched };
  return { listing, sessions, calls, fetched };
}

interface TableReads {
  sessions: () => Promise<FleetSession[]>;
  calls: () => Promise<CallColumns>;
}

/** A team's tables are read together (one reader, its calls after its sessions): one reader per listing read. */
const teamReaders = new WeakMap<LibraryListing, ReturnType<typeof readTeamTables>>();

/** How the tables the listing names are read: the server's own (asked for as the page started), or a team's partitions. */
function tablesOf(listing: LibraryListing, remote: string | undefined, fetched: ByteMeter): TableReads {
  const team = listing.team;
  if (!team) return { sessions: async () => (await readSessions(await libraryTables().sessions)).rows, calls: libraryCalls };
  const reader = () => {
    let tables = teamReaders.get(listing);
    if (!tables) {
      // A static host's tables are read by range (remoteTables.ts), the server's whole.
      tables = remote !== undefined ? readRemoteTeamTables(new URL('.', new URL(remote, location.href)).href, team.partitions, fetched) : readTeamTables(team.partitions, servedTeamTable(`${LISTING.library}/`));
      teamReaders.set(listing, tables);
    }
    return tables;
  };
  return { sessions: () => reader().sessions, calls: () => reader().calls };
}

/** The listing `loupe open DIR` serves, read with the schema the server builds it to. */
async function serverListing(): Promise<LibraryListing> {
  try {
    return await fetchListing(LISTING.library, libraryListingSchema, 'library');
  } catch (error) {
    throw new Error(`the library is served by loupe open DIR (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

/** A team's listing on another host: its index.json read, or one message saying why it cannot be. */
async function remoteListing(index: string): Promise<LibraryListing> {
  let url: URL;
  try {
    url = new URL(index, location.href);
  } catch {
    throw new LastingFailure(`${index} is not an address`);
  }
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store' });
  } catch {
    throw new HostSetupError(hostSetupMessage(url.href, 'did not answer this page', location.origin));
  }
  if (!res.ok) throw httpFailure(`${url.href}: HTTP ${res.status}`, res.status);
  const listing = teamListingOf(await res.json().catch(() => null));
  if (!listing) throw new LastingFailure(`${url.href} is not a team's index.json (loupe index --machine NAME writes one)`);
  return { folder: '', unreadable: [], team: { base: url.href, here: null, partitions: listing.partitions, present: [] } };
}
