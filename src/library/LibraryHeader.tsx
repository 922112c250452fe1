// The library's head: how many sessions are shown of how many, where they are, the files that
// could not be read, and the filters.
import { shortProject } from '../analysis/projectName';
import { formatName } from '../model';
import { terminalSafeLine } from '../model/terminalText';
import type { TeamView } from '../routes/listings';
import { pageSearch } from '../routes/page';
import { countOf } from '../ui/format';
import { formatCount } from '../ui/insights/format';
import { NO_FILTER, type LibraryFilter } from './fleetData';
import styles from './Library.module.css';

const STATUSES = ['done', 'failed', 'unfinished', 'running', 'pending'];

export interface FilterChoices {
  machines: string[];
  harnesses: string[];
  projects: string[];
  labels: string[];
}

export interface LibraryHeaderProps {
  /** The sessions table is still being read. */
  loading: boolean;
  callsLoading: boolean;
  /** Sessions shown, of `total`. */
  shown: number;
  total: number;
  folder: string | null;
  team: TeamView | null;
  /** Every session on the machine: the recordings list is a page of its own beside it. */
  wholeMachine: boolean;
  unreadable: readonly { file: string; why: string }[];
  shownPath: (file: string) => string;
  filter: LibraryFilter;
  choices: FilterChoices;
  /** Changes part of the filter; `NO_FILTER` clears it. */
  set: (change: Partial<LibraryFilter>) => void;
  setFilter: (filter: LibraryFilter) => void;
}

export function LibraryHeader({ loading, callsLoading, shown, total, folder, team, wholeMachine, unreadable, shownPath, filter, choices, set, setFilter }: LibraryHeaderProps) {
  return (
    <header className={styles.head}>
      <h1>Library</h1>
      <p>
        {loading ? (
          <span aria-busy="true">Reading the index…</span>
        ) : (
          <>
            <span data-shown={shown}>{formatCount(shown)}</span> of {countOf(total, 'session')}
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
            {callsLoading ? <span aria-busy="true"> · reading the calls…</span> : null}
            {wholeMachine ? (
              <>
                {' '}
                · <a href={pageSearch({ page: 'recordings' })}>Recordings and agents' folders, as they are written</a>
              </>
            ) : null}
          </>
        )}
      </p>
      {unreadable.length > 0 ? (
        <details className={styles.unreadable}>
          <summary>{countOf(unreadable.length, 'file')} could not be read</summary>
          <ul>
            {unreadable.map((u) => (
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
  );
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
