// Where the library's rows come from: the folder `loupe open DIR` indexed (its server's listing
// and tables), a team's index on a static host (`?index=URL`), or a folder the app indexed itself.
import { useEffect, useState } from 'react';
import type { FleetSession } from '../analysis/fleet';
import { teamListingOf } from '../analysis/teamIndex';
import { fetchListing, libraryListingSchema, type LibraryListing } from '../routes/listings';
import { LISTING } from '../routes/page';
import type { CallColumns } from './callColumns';
import { libraryCalls, readSessions, readTeamTables } from './fleetData';
import type { FolderIndex } from './folderIndex';
import { hostSetupMessage, HostSetupError, readRemoteTeamTables, type ByteMeter } from './remoteTables';
import { libraryTables } from './tables';

export type Load<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; why: string };

/** A folder the app indexed itself ("Open folder…"): its rows in memory, and how a row opens its file. */
export interface PickedLibrary extends FolderIndex {
  open: (path: string) => void;
}

export interface LibraryData {
  listing: Load<LibraryListing>;
  sessions: Load<FleetSession[]>;
  calls: Load<CallColumns>;
  /** What the page fetched from a static host (`?index=URL`), for the benchmark's byte count. */
  fetched: ByteMeter;
}

const ready = <T,>(value: T): Load<T> => ({ state: 'ready', value });
const failed = (error: unknown): { state: 'failed'; why: string } => ({ state: 'failed', why: error instanceof Error ? error.message : String(error) });

/** The library's listing, sessions and calls, each as it is read (or why it could not be). */
export function useLibraryData(picked: PickedLibrary | undefined, remote: string | undefined): LibraryData {
  const [listing, setListing] = useState<Load<LibraryListing>>(picked ? ready({ folder: picked.folder, unreadable: picked.unreadable }) : { state: 'loading' });
  const [sessions, setSessions] = useState<Load<FleetSession[]>>(picked ? ready(picked.sessions) : { state: 'loading' });
  const [calls, setCalls] = useState<Load<CallColumns>>(picked ? ready(picked.calls) : { state: 'loading' });
  const [fetched] = useState<ByteMeter>(() => ({ bytes: 0, requests: 0 }));

  useEffect(() => {
    if (picked) return;
    let stopped = false;
    const listed = remote !== undefined ? remoteListing(remote) : serverListing();
    listed.then((value) => void (stopped || setListing({ state: 'ready', value }))).catch((error: unknown) => void (stopped || setListing(failed(error))));
    // Both tables were asked for when the page started; the rows show as soon as the (small)
    // sessions table is read, while the calls are still decoded in a worker. A team's index is
    // read a partition at a time, once the listing names them.
    // A static host's tables are read by range (remoteTables.ts), the server's whole.
    const team = listed.then((value) =>
      !value.team ? null : remote !== undefined ? readRemoteTeamTables(new URL('.', new URL(remote, location.href)).href, value.team.partitions, fetched) : readTeamTables(`${LISTING.library}/`, value.team.partitions),
    );
    void team
      .then(async (tables) => (tables ? tables.sessions : (await libraryTables().sessions.then(readSessions)).rows))
      .then((rows) => void (stopped || setSessions({ state: 'ready', value: rows })))
      .catch((error: unknown) => void (stopped || setSessions(failed(error))));
    void team
      .then((tables) => (tables ? tables.calls : libraryCalls()))
      .then((columns) => void (stopped || setCalls({ state: 'ready', value: columns })))
      .catch((error: unknown) => void (stopped || setCalls(failed(error))));
    return () => {
      stopped = true;
    };
    // The rows' source is the page's: `picked` is given once, as the library is shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { listing, sessions, calls, fetched };
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
    throw new Error(`${index} is not an address`);
  }
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store' });
  } catch {
    throw new HostSetupError(hostSetupMessage(url.href, 'did not answer this page', location.origin));
  }
  if (!res.ok) throw new Error(`${url.href}: HTTP ${res.status}`);
  const listing = teamListingOf(await res.json().catch(() => null));
  if (!listing) throw new Error(`${url.href} is not a team's index.json (loupe index --machine NAME writes one)`);
  return { folder: '', unreadable: [], team: { base: url.href, here: null, partitions: listing.partitions, present: [] } };
}
