// The library: every session of a folder `loupe open DIR` indexed, one row each, filtered and
// sorted, with fleet stats over the sessions shown. Sessions come first (a small table), calls
// after (for the label, status and subject filters and the stats); a session opens in the viewer.
import { useMemo, useState } from 'react';
import { mostFailures, tokensPerDay, type FleetSession } from '../analysis/fleet';
import { callColumnsOf, labelStatsOver, labelsInUse, type CallColumns } from './callColumns';
import { filterSessions, NO_FILTER, shownFilesOf, sortSessions, type LibraryFilter, type Sort } from './fleetData';
import { FleetStats } from './FleetStats';
import styles from './Library.module.css';
import { LibraryHeader, type FilterChoices } from './LibraryHeader';
import { SessionRows } from './SessionRows';
import { sessionLinksOf } from './sessionLinks';
import { useLibraryData, type PickedLibrary } from './useLibraryData';

export type { PickedLibrary } from './useLibraryData';

/** `?index=URL`: a team's index.json on a static web host, its partitions' tables fetched from beside it. */
export function TeamLibrary({ index }: { index: string }) {
  return <Library remote={index} />;
}

export function Library({ picked, remote }: { picked?: PickedLibrary; remote?: string } = {}) {
  const { listing, sessions, calls, fetched } = useLibraryData(picked, remote);
  const [filter, setFilter] = useState<LibraryFilter>(NO_FILTER);
  const [sort, setSort] = useState<Sort>({ key: 'started', descending: true });
  // Live as of when the page read the index (which `loupe open DIR` had just refreshed).
  const [now] = useState(() => Date.now());

  const allSessions = sessions.data ?? EMPTY_SESSIONS;
  const allCalls = calls.data ?? EMPTY_CALLS;
  const filtered = useMemo(() => filterSessions(allSessions, allCalls, filter), [allSessions, allCalls, filter]);
  // Sorting changes only the order: the stats, over the same sessions, are not worked out again.
  const shown = useMemo(() => sortSessions(filtered, sort), [filtered, sort]);
  const callTotals = useMemo(() => labelStatsOver(allCalls, shownFilesOf(allCalls, filtered)), [allCalls, filtered]);
  const days = useMemo(() => tokensPerDay(filtered), [filtered]);
  const worst = useMemo(() => mostFailures(filtered, 10), [filtered]);
  const choices = useMemo((): FilterChoices => choicesOf(allSessions, allCalls), [allSessions, allCalls]);

  // A picked folder's rows are already named by their path inside it; a team's are whole paths, each on its machine.
  const team = listing.data && !picked ? (listing.data.team ?? null) : null;
  const folder = listing.data && !picked && !team ? listing.data.folder : null;
  const present = useMemo(() => new Set(team?.present ?? []), [team]);
  const links = sessionLinksOf({ folder, team, present, open: picked?.open, remote: remote !== undefined });
  const set = (change: Partial<LibraryFilter>) => setFilter((f) => ({ ...f, ...change }));

  // From a static host, a failed read of the calls is the host's too (ranges, CORS): said once, above everything.
  const failure = listing.error ?? sessions.error ?? (remote !== undefined ? calls.error : null);
  if (failure) {
    const why = failure.message;
    return (
      <div className="loupe-app__landing">
        <h1>Library</h1>
        <p role="alert">Could not read the library ({why}).</p>
      </div>
    );
  }

  return (
    <div className={`${styles.library} ${team ? styles.team : ''}`} data-testid="library" data-team={team ? team.partitions.length : undefined} data-fetched-bytes={remote !== undefined && calls.status === 'success' ? fetched.bytes : undefined}>
      <LibraryHeader
        loading={sessions.status === 'pending'}
        callsLoading={calls.status === 'pending'}
        shown={shown.length}
        total={allSessions.length}
        folder={folder}
        team={team}
        wholeMachine={listing.data?.wholeMachine === true}
        unreadable={listing.data?.unreadable ?? []}
        shownPath={links.shownPath}
        filter={filter}
        choices={choices}
        set={set}
        setFilter={setFilter}
      />
      <div className={styles.body}>
        <SessionRows shown={shown} team={team} sort={sort} setSort={setSort} links={links} now={now} />
        <FleetStats calls={calls} callTotals={callTotals} shown={shown} days={days} worst={worst} set={set} links={links} />
      </div>
    </div>
  );
}

const EMPTY_SESSIONS: FleetSession[] = [];
const EMPTY_CALLS: CallColumns = callColumnsOf([]);

/** What each filter offers: the values the rows hold. */
function choicesOf(sessions: readonly FleetSession[], calls: CallColumns): FilterChoices {
  return {
    machines: uniqueSorted(sessions.flatMap((s) => (s.machine === undefined ? [] : [s.machine]))),
    harnesses: uniqueSorted(sessions.map((s) => s.format)),
    projects: uniqueSorted(sessions.flatMap((s) => (s.project === null ? [] : [s.project]))),
    labels: labelsInUse(calls),
  };
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}
