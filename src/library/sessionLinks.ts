// How a row of the library names its session's file and opens it: a path relative to the folder
// (a team's are whole paths, each on its machine), a link the app opens with `?src=`, or none
// where the file lives on another machine.
import type { MouseEvent } from 'react';
import type { FleetSession } from '../analysis/fleet';
import { PUBLISHED_DIR, publishedPath } from '../analysis/teamIndex';
import { terminalSafeLine } from '../model/terminalText';
import type { TeamView } from '../routes/listings';
import { libraryFilePath, sessionHref } from '../routes/page';

export interface SessionLinks {
  /** The file as the rows show it: relative to the folder. */
  relative: (file: string) => string;
  /** `relative`, its terminal escapes (ESC, BEL) shown escaped, as the CLI prints them. */
  shownPath: (file: string) => string;
  /**
   * In a team's index, a session opens only when it is this machine's and its file is here, or (a
   * static host's) when its partition publishes its files beside the tables; null: it lives elsewhere.
   */
  hrefOf: (s: FleetSession) => string | null;
  /** `machine:path`, for a session on another machine. */
  whereOf: (s: FleetSession) => string;
  /** Why a session without a link does not open: its file is on another machine, or not published beside a host's index. */
  elsewhere: string;
  /** A picked folder's session opens from its own File (there is no server to ask): the click handler that does. */
  openOnClick: (file: string) => ((event: MouseEvent) => void) | undefined;
}

export function sessionLinksOf({ folder, team, present, open, remote = false }: {
  folder: string | null;
  team: TeamView | null;
  present: ReadonlySet<string>;
  open: ((file: string) => void) | undefined;
  /** The team's index is on a static host (`?index=URL`), not this machine's server. */
  remote?: boolean;
}): SessionLinks {
  const relative = (file: string) => (folder !== null && file.startsWith(`${folder}/`) ? file.slice(folder.length + 1) : file);
  const shownPath = (file: string) => terminalSafeLine(relative(file));
  const published = new Map((team?.partitions ?? []).filter((p) => p.published === true).map((p) => [p.machine, p.dir]));
  return {
    relative,
    shownPath,
    elsewhere: remote ? 'Not published beside the index' : 'Not on this machine',
    hrefOf: (s) => {
      if (team && remote) {
        const dir = published.get(s.machine ?? '');
        const path = dir === undefined ? null : publishedPath(s.file);
        if (dir === undefined || path === null) return null;
        return sessionHref(new URL(`${encodeURIComponent(dir)}/${PUBLISHED_DIR}/${path.split('/').map(encodeURIComponent).join('/')}`, team.base).href);
      }
      if (team && (s.machine !== team.here || !present.has(s.file))) return null;
      return sessionHref(libraryFilePath(team ? s.file.replace(/^\/+/, '') : relative(s.file)));
    },
    whereOf: (s) => `${s.machine ?? ''}:${shownPath(s.file)}`,
    openOnClick: (file) =>
      open
        ? (event) => {
            event.preventDefault();
            open(file);
          }
        : undefined,
  };
}
