// The library: every session of a folder `loupe open DIR` indexed, one row each, filtered and
// sorted, with fleet stats over the sessions shown. Sessions come first (a small table), calls
// after (for the label, status and subject filters and the stats); a session opens in the viewer.
import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { mostFailures, tokensPerDay, type FleetSession } from '../analysis/fleet';
import { shortProject } from '../analysis/projectName';
import { formatName } from '../model';
import { terminalSafeLine } from '../model/terminalText';
import { countOf, formatDuration } from '../ui/format';
import { formatCount, formatShare } from '../ui/insights/format';
import { VirtualList } from '../ui/virtual/VirtualList';
import {
  dayOf, durationOf, filterSessions, libraryCalls, listingOf, NO_FILTER, readSessions, readTeamTables, rowKeyOf, shownFilesOf, sortSessions, tokensOf,
  type LibraryFilter, type LibraryListing, type Sort, type SortKey,
} from './fleetData';
import { callColumnsOf, labelStatsOver, labelsInUse, type CallColumns } from './callColumns';
import type { FolderIndex } from './folderIndex';
import styles from './Library.module.css';
import { teamListingOf } from '../analysis/teamIndex';
import { libraryTables } from './tables';

const STATUSES = ['done', 'failed', 'unfinished', 'running', 'pending'];
/** Written in the last minute: its agent may still be writing it. */
const LIVE_MS = 60_000;
const ROW_HEIGHT = 34;

type Load<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; why: string };

/** A folder the app indexed itself ("Open folder…"): its rows in memory, and how a row opens its file. */
export interface PickedLibrary extends FolderIndex {
  open: (path: string) => void;
}

const ready = <T,>(value: T): Load<T> => ({ state: 'ready', value });

/** `?index=URL`: a team's index.json on a static web host, its partitions' tables fetched from beside it. */
export function TeamLibrary({ index }: { index: string }) {
  return <Library remote={index} />;
}

export function Library({ picked, remote }: { picked?: PickedLibrary; remote?: string } = {}) {
  const [listing, setListing] = useState<Load<LibraryListing>>(picked ? ready({ folder: picked.folder, unreadable: picked.unreadable }) : { state: 'loading' });
  const [sessions, setSessions] = useState<Load<FleetSession[]>>(picked ? ready(picked.sessions) : { state: 'loading' });
  const [calls, setCalls] = useState<Load<CallColumns>>(picked ? ready(picked.calls) : { state: 'loading' });
  const [filter, setFilter] = useState<LibraryFilter>(NO_FILTER);
  const [sort, setSort] = useState<Sort>({ key: 'started', descending: true });
  // Live as of when the page read the index (which `loupe open DIR` had just refreshed).
  const [now] = useState(() => Date.now());

  useEffect(() => {
    if (picked) return;
    let stopped = false;
    const failed = (error: unknown) => ({ state: 'failed' as const, why: error instanceof Error ? error.message : String(error) });
    const listed = remote !== undefined ? remoteListing(remote) : fetch('library', { cache: 'no-store' }).then(async (res) => {
      const value = res.ok ? listingOf(await res.json()) : null;
      if (!value) throw new Error(`the library is served by loupe open DIR (HTTP ${res.status})`);
      return value;
    });
    listed.then((value) => void (stopped || setListing({ state: 'ready', value }))).catch((error: unknown) => void (stopped || setListing(failed(error))));
    // Both tables were asked for when the page started; the rows show as soon as the (small)
    // sessions table is read, while the calls are still decoded in a worker. A team's index is
    // read a partition at a time, once the listing names them.
    const team = listed.then((value) => (value.team ? readTeamTables(remote !== undefined ? new URL('.', new URL(remote, location.href)).href : 'library/', value.team.partitions) : null));
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

  const allSessions = sessions.state === 'ready' ? sessions.value : EMPTY_SESSIONS;
  const allCalls = calls.state === 'ready' ? calls.value : EMPTY_CALLS;
  const filtered = useMemo(() => filterSessions(allSessions, allCalls, filter), [allSessions, allCalls, filter]);
  // Sorting changes only the order: the stats, over the same sessions, are not worked out again.
  const shown = useMemo(() => sortSessions(filtered, sort), [filtered, sort]);
  const callTotals = useMemo(() => labelStatsOver(allCalls, shownFilesOf(allCalls, filtered)), [allCalls, filtered]);
  const labelStats = callTotals.labels;
  const days = useMemo(() => tokensPerDay(filtered), [filtered]);
  const worst = useMemo(() => mostFailures(filtered, 10), [filtered]);
  const choices = useMemo(
    () => ({
      machines: uniqueSorted(allSessions.flatMap((s) => (s.machine === undefined ? [] : [s.machine]))),
      harnesses: uniqueSorted(allSessions.map((s) => s.format)),
      projects: uniqueSorted(allSessions.flatMap((s) => (s.project === null ? [] : [s.project]))),
      labels: labelsInUse(allCalls),
    }),
    [allSessions, allCalls],
  );

  // A picked folder's rows are already named by their path inside it; a team's are whole paths, each on its machine.
  const team = listing.state === 'ready' && !picked ? (listing.value.team ?? null) : null;
  const folder = listing.state === 'ready' && !picked && !team ? listing.value.folder : null;
  const present = useMemo(() => new Set(team?.present ?? []), [team]);
  const relative = (file: string) => (folder !== null && file.startsWith(`${folder}/`) ? file.slice(folder.length + 1) : file);
  // A file name or a recorded directory may hold terminal escapes (ESC, BEL): shown escaped, as the CLI prints them.
  const shownPath = (file: string) => terminalSafeLine(relative(file));
  /** In a team's index, a session opens only when it is this machine's and its file is here; null: it lives elsewhere. */
  const hrefOf = (s: FleetSession): string | null => {
    if (team && (s.machine !== team.here || !present.has(s.file))) return null;
    const path = team ? s.file.replace(/^\/+/, '') : relative(s.file);
    return `?src=${encodeURIComponent(`library/file/${path.split('/').map(encodeURIComponent).join('/')}`)}`;
  };
  const whereOf = (s: FleetSession) => `${s.machine ?? ''}:${shownPath(s.file)}`;
  // A picked folder's session opens from its own File (there is no server to ask); the link's
  // address is then only its name.
  const openOnClick = (file: string) =>
    picked
      ? (event: MouseEvent) => {
          event.preventDefault();
          picked.open(file);
        }
      : undefined;
  const set = (change: Partial<LibraryFilter>) => setFilter((f) => ({ ...f, ...change }));

  if (listing.state === 'failed' || sessions.state === 'failed') {
    const why = listing.state === 'failed' ? listing.why : sessions.state === 'failed' ? sessions.why : '';
    return (
      <div className="loupe-app__landing">
        <h1>Library</h1>
        <p role="alert">Could not read the library ({why}).</p>
      </div>
    );
  }

  const header = (key: SortKey, title: string, numeric = false) => (
    <button
      type="button"
      className={numeric ? styles.num : undefined}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
      data-sort={key}
      onClick={() => setSort((s) => ({ key, descending: s.key === key ? !s.descending : numeric || key === 'started' }))}
    >
      {title}
      {sort.key === key ? (sort.descending ? ' ↓' : ' ↑') : ''}
    </button>
  );

  return (
    <div className={`${styles.library} ${team ? styles.team : ''}`} data-testid="library" data-team={team ? team.partitions.length : undefined}>
      <header className={styles.head}>
        <h1>Library</h1>
        <p>
          {sessions.state === 'loading' ? (
            <span aria-busy="true">Reading the index…</span>
          ) : (
            <>
              <span data-shown={shown.length}>{formatCount(shown.length)}</span> of {countOf(allSessions.length, 'session')}
              {folder !== null ? (
                <>
                  {' '}in <code>{terminalSafeLine(folder)}</code>
                </>
              ) : null}
              {team ? (
                <>
                  {' '}on {countOf(team.partitions.length, 'machine')} in <code>{terminalSafeLine(team.base)}</code>
                </>
              ) : null}
              {calls.state === 'loading' ? <span aria-busy="true"> · reading the calls…</span> : null}
              {listing.state === 'ready' && listing.value.wholeMachine ? (
                <>
                  {' '}
                  · <a href="?recordings">Recordings and agents' folders, as they are written</a>
                </>
              ) : null}
            </>
          )}
        </p>
        {listing.state === 'ready' && listing.value.unreadable.length > 0 ? (
          <details className={styles.unreadable}>
            <summary>{countOf(listing.value.unreadable.length, 'file')} could not be read</summary>
            <ul>
              {listing.value.unreadable.map((u) => (
                <li key={u.file}>
                  <code>{shownPath(u.file)}</code>: {u.why}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <form className={styles.filters} aria-label="Filter the sessions" onSubmit={(e) => e.preventDefault()}>
          {team ? <Select label="Machine" value={filter.machine} options={choices.machines} onChange={(machine) => set({ machine })} /> : null}
          <Select label="Harness" value={filter.harness} options={choices.harnesses} name={formatName} onChange={(harness) => set({ harness })} />
          <Select label="Project" value={filter.project} options={choices.projects} name={(project) => terminalSafeLine(shortProject(project))} onChange={(project) => set({ project })} />
          <Select label="Label" value={filter.label} options={choices.labels} onChange={(label) => set({ label })} />
          <Select label="Status" value={filter.status} options={STATUSES} onChange={(status) => set({ status })} />
          <label>
            From <input type="date" value={filter.from} onChange={(e) => set({ from: e.target.value })} />
          </label>
          <label>
            To <input type="date" value={filter.to} onChange={(e) => set({ to: e.target.value })} />
          </label>
          <label className={styles.search}>
            Subject <input type="search" placeholder="npm test, src/app.ts…" value={filter.subject} onChange={(e) => set({ subject: e.target.value })} />
          </label>
          {filter !== NO_FILTER ? (
            <button type="button" onClick={() => setFilter(NO_FILTER)}>
              Clear
            </button>
          ) : null}
        </form>
      </header>
      <div className={styles.body}>
        <section className={styles.sessions} aria-label="Sessions">
          <div className={`${styles.row} ${styles.columns}`}>
            {team ? header('machine', 'Machine') : null}
            {header('file', 'Session')}
            {header('format', 'Harness')}
            {header('project', 'Project')}
            {header('started', 'Start')}
            {header('duration', 'Duration', true)}
            {header('calls', 'Calls', true)}
            {header('failed', 'Failed', true)}
            {header('tokens', 'Tokens', true)}
          </div>
          <VirtualList
            className={styles.list}
            ariaLabel="Sessions"
            count={shown.length}
            estimate={ROW_HEIGHT}
            rowKey={(i) => (shown[i] ? rowKeyOf(shown[i]) : i)}
            renderRow={(i) => {
              const s = shown[i];
              if (!s) return null;
              const tokens = tokensOf(s);
              const href = hrefOf(s);
              return (
                <div className={styles.row} data-session-file={relative(s.file)} data-machine={s.machine} data-calls={s.calls} data-failed={s.failed}>
                  {team ? <span title={s.machine}>{s.machine}</span> : null}
                  {href !== null ? (
                    <a href={href} onClick={openOnClick(s.file)} className={styles.name} title={shownPath(s.file)}>
                      {s.title ?? shownPath(s.file)}
                      {now - s.modified_ms < LIVE_MS ? <span className={styles.live}>live</span> : null}
                    </a>
                  ) : (
                    <span className={styles.name} title={`Not on this machine: on ${whereOf(s)}`} data-elsewhere={whereOf(s)}>
                      {s.title ?? shownPath(s.file)} <span className={styles.muted}>· on {whereOf(s)}</span>
                    </span>
                  )}
                  <span>{formatName(s.format)}</span>
                  <span className={styles.clip} title={s.project === null ? undefined : terminalSafeLine(s.project)}>
                    {terminalSafeLine(shortProject(s.project))}
                  </span>
                  <span>{s.started_ms !== null ? <time dateTime={new Date(s.started_ms).toISOString()}>{new Date(s.started_ms).toLocaleString()}</time> : '—'}</span>
                  <span className={styles.num}>{formatDuration(durationOf(s))}</span>
                  <span className={styles.num}>{formatCount(s.calls)}</span>
                  <span className={`${styles.num} ${s.failed > 0 ? styles.bad : ''}`}>{formatCount(s.failed)}</span>
                  <span className={styles.num}>{tokens === null ? '—' : formatCount(tokens)}</span>
                </div>
              );
            }}
          />
        </section>
        <aside className={styles.stats} aria-label="Fleet stats">
          <h2>Calls per label</h2>
          {calls.state === 'loading' ? <p aria-busy="true">Reading the calls…</p> : null}
          {calls.state === 'failed' ? <p role="alert">Could not read the calls ({calls.why}).</p> : null}
          <table className={styles.table} aria-label="Calls per label">
            <TableHead columns={['Label', 'Calls', 'Failed', 'p50', 'p95']} />
            <tbody>
              {labelStats.map((l) => (
                <tr key={l.label} data-label={l.label} data-calls={l.calls} data-failed={l.failed}>
                  <th scope="row">
                    <button type="button" className={styles.link} title={`Show the sessions with ${l.label} calls`} onClick={() => set({ label: l.label })}>
                      {l.label}
                    </button>
                  </th>
                  <td className={styles.num}>{formatCount(l.calls)}</td>
                  <td className={styles.num}>
                    <button type="button" className={styles.link} title={`Show the sessions with failed ${l.label} calls`} onClick={() => set({ label: l.label, status: 'failed' })}>
                      {formatShare(l.failedShare)}
                    </button>
                  </td>
                  <td className={styles.num}>{formatDuration(l.p50Ms)}</td>
                  <td className={styles.num}>{formatDuration(l.p95Ms)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-label="" data-calls={callTotals.calls} data-failed={shown.reduce((sum, s) => sum + s.failed, 0)}>
                <th scope="row">All</th>
                <td className={styles.num}>{formatCount(callTotals.calls)}</td>
                <td className={styles.num} colSpan={3}>
                  {formatCount(shown.reduce((sum, s) => sum + s.failed, 0))} failed
                </td>
              </tr>
            </tfoot>
          </table>
          <h2>Tokens per day</h2>
          {days.length === 0 ? (
            <p>No session shown reports tokens.</p>
          ) : (
            <table className={styles.table} aria-label="Tokens per day">
              <TableHead columns={['Day', 'Sessions', 'Input', 'Output']} />
              <tbody>
                {days.map((d) => (
                  <tr key={d.day} data-day={d.day}>
                    <th scope="row">
                      <button type="button" className={styles.link} title={`Show the sessions of ${d.day}`} onClick={() => set({ from: d.day, to: d.day })}>
                        {d.day}
                      </button>
                    </th>
                    <td className={styles.num}>{formatCount(d.sessions)}</td>
                    <td className={styles.num}>{formatCount(d.inputTokens)}</td>
                    <td className={styles.num}>{formatCount(d.outputTokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Most failures</h2>
          {worst.length === 0 ? (
            <p>No failed calls in the sessions shown.</p>
          ) : (
            <ol className={styles.worst} aria-label="Sessions with the most failures">
              {worst.map((s) => (
                <li key={rowKeyOf(s)} data-worst={relative(s.file)}>
                  {hrefOf(s) !== null ? (
                    <a href={hrefOf(s)!} onClick={openOnClick(s.file)} title={shownPath(s.file)}>
                      {s.title ?? shownPath(s.file)}
                    </a>
                  ) : (
                    <span title={`Not on this machine: on ${whereOf(s)}`}>{s.title ?? shownPath(s.file)}</span>
                  )}{' '}
                  <span className={styles.bad}>{countOf(s.failed, 'failed call')}</span>
                  {dayOf(s.started_ms) ? <span className={styles.muted}> · {dayOf(s.started_ms)}</span> : null}
                </li>
              ))}
            </ol>
          )}
        </aside>
      </div>
    </div>
  );
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
    throw new Error(`${url.href} did not answer this page: the host must be reachable and allow it (CORS: Access-Control-Allow-Origin for ${location.origin})`);
  }
  if (!res.ok) throw new Error(`${url.href}: HTTP ${res.status}`);
  const listing = teamListingOf(await res.json().catch(() => null));
  if (!listing) throw new Error(`${url.href} is not a team's index.json (loupe index --machine NAME writes one)`);
  return { folder: '', unreadable: [], team: { base: url.href, here: null, partitions: listing.partitions, present: [] } };
}

const EMPTY_SESSIONS: FleetSession[] = [];
const EMPTY_CALLS: CallColumns = callColumnsOf([]);

/** A table's head: the first column names the row, the others are numbers. */
function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((title, i) => (
          <th key={title} scope="col" className={i > 0 ? styles.num : undefined}>
            {title}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}

function Select({ label, value, options, name = (o) => o, onChange }: { label: string; value: string; options: readonly string[]; name?: (option: string) => string; onChange: (value: string) => void }) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onChange(e.target.value)} data-filter={label.toLowerCase()}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {name(o)}
          </option>
        ))}
      </select>
    </label>
  );
}
