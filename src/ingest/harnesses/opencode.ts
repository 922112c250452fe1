// OpenCode: every session of the machine in one SQLite database, `~/.local/share/opencode/opencode.db`
// ($XDG_DATA_HOME moves `~/.local/share`; a build of another channel than latest, beta or prod
// names it `opencode-<channel>.db`; $OPENCODE_DB names another file). A sub-agent is a child
// session in the same database. Older releases kept JSON files under `storage/` instead: not read.
import { noteTitle } from './headFields';
import { absoluteVar, basenameOf, joinPath, segmentsOf } from './paths';
import type { OpenCodeSession } from '../formats/opencode';
import type { Harness, SessionHead } from './types';

/** OpenCode's database by its name: `opencode.db`, or `opencode-<channel>.db`. */
const DATABASE_NAME = /^opencode(-[A-Za-z0-9._-]+)?\.db$/;

/** The folders OpenCode keeps in its data folder besides the database. */
const DATA_FOLDERS = new Set(['log', 'storage', 'snapshot', 'tool-output', 'bin', 'repos']);

export const openCode: Harness = {
  id: 'opencode',
  name: 'OpenCode',
  folderVars: ['XDG_DATA_HOME', 'OPENCODE_DB'],
  folders: ({ home, vars }) => {
    const folder = joinPath(absoluteVar(vars.XDG_DATA_HOME, joinPath(home, '.local', 'share')), 'opencode');
    // OPENCODE_DB: an absolute path is that file; a relative one is inside the data folder.
    const named = vars.OPENCODE_DB;
    return named !== undefined && named.startsWith('/') ? [folder, named] : [folder];
  },
  ownsFile(path) {
    const segments = segmentsOf(path);
    // Its name is OpenCode's own wherever it lies (a copy, a folder a person names).
    if (DATABASE_NAME.test(basenameOf(path))) return true;
    // Beside the database OpenCode keeps its credentials (auth.json), the -wal, logs, snapshots (git
    // objects), tool output and, in older releases, its JSON storage; its config folder is
    // `~/.config/opencode`: none of them a session file.
    if (segments.at(-2) === 'opencode') return false;
    for (let i = 0; i < segments.length - 2; i++) if (segments[i] === 'opencode' && DATA_FOLDERS.has(segments[i + 1]!)) return false;
    return undefined;
  },
  // Its file is a database, not lines: its head is read by `headOfOpenCodeDatabase`.
  noteHead() {},
};

/**
 * What a database says as one file's head: the session changed last among those a person started
 * (not a sub-agent's), its directory and title (OpenCode's own title, else the first prompt while
 * the title is still its placeholder), and the earliest start of any session in it.
 */
export async function headOfOpenCodeDatabase(main: Uint8Array, wal?: Uint8Array): Promise<SessionHead> {
  const head: SessionHead = { format: 'unknown', sessionId: null, cwd: null, startMs: undefined, title: null, titleIsCommand: false };
  const { openCodeSessions } = await import('../formats/opencode');
  let sessions;
  try {
    sessions = await openCodeSessions(main, wal);
  } catch {
    return head;
  }
  head.format = 'opencode';
  for (const session of sessions) if (session.createdMs !== undefined && (head.startMs === undefined || session.createdMs < head.startMs)) head.startMs = session.createdMs;
  const roots = sessions.filter((session) => session.parentId === null);
  const latest = (roots.length > 0 ? roots : sessions).reduce<(typeof sessions)[number] | undefined>(
    (best, session) => (best === undefined || (session.updatedMs ?? 0) >= (best.updatedMs ?? 0) ? session : best),
    undefined,
  );
  if (latest === undefined) return head;
  return { ...headOfOpenCodeSession(latest), startMs: head.startMs };
}

/** The title OpenCode gives a session until its title is written (`New session - 2026-12-02T03:50:59.102Z`, `Child session - …`). */
export function isPlaceholderTitle(title: string): boolean {
  return /^(New|Child) session - \d{4}-\d{2}-\d{2}T/.test(title);
}

/** What one session says as a head: its id, directory, start and title (OpenCode's own, else the first prompt while the title is still its placeholder). */
export function headOfOpenCodeSession(session: OpenCodeSession): SessionHead {
  const head: SessionHead = { format: 'opencode', sessionId: session.id, cwd: session.directory, startMs: session.createdMs, title: null, titleIsCommand: false };
  if (session.title !== null && !isPlaceholderTitle(session.title)) noteTitle(head, session.title);
  else if (session.prompt !== null) noteTitle(head, session.prompt);
  return head;
}
