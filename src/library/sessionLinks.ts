// How a row of the library names its session's file and opens it: a path relative to the folder
// (a team's are whole paths, each on its machine), a link the app opens with `?src=`, or none
// where the file lives on another machine.
import type { MouseEvent } from 'react';
import type { FleetSession } from '../analysis/fleet';
import { terminalSafeLine } from '../model/terminalText';
import type { TeamView } from '../routes/listings';
import { libraryFilePath, sessionHref } from '../routes/page';

export interface SessionLinks {
  /** The file as the rows show it: relative to the folder. */
  relative: (file: string) => string;
  /** `relative`, its terminal escapes (ESC, BEL) shown escaped, as the CLI prints them. */
  shownPath: (file: string) => string;
  /** In a team's index, a session opens only when it is this machine's and its file is here; null: it lives elsewhere. */
  hrefOf: (s: FleetSession) => string | null;
  /** `machine:path`, for a session on another machine. */
  whereOf: (s: FleetSession) => string;
  /** A picked folder's session opens from its own File (there is no server to ask): the click handler that does. */
  openOnClick: (file: string) => ((event: MouseEvent) => void) | undefined;
}

export function sessionLinksOf({ folder, team, present, open }: { folder: string | null; team: TeamView | null; present: ReadonlySet<string>; open: ((file: string) => void) | undefined }): SessionLinks {
  const relative = (file: string) => (folder !== null && file.startsWith(`${folder}/`) ? file.slice(folder.length + 1) : file);
  const shownPath = (file: string) => terminalSafeLine(relative(file));
  return {
    relative,
    shownPath,
    hrefOf: (s) => {
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
