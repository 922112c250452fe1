// What Loupe knows of one harness (an agent that keeps its own sessions, or a recorder of ACP
// traffic), as data and pure functions: where its sessions live, which files they are, how its
// sub-agents' files relate to their session's, and what a file's first lines say about it. The
// lister (`loupe ls`), the index (`loupe index`, "Open folder…"), the head reader and the names the
// pages show all read it from here (index.ts), so a new harness is one module.
import type { JsonObject } from '../json';

/** The variables the harnesses honour, and the home folder they default to. */
export interface HarnessEnv {
  home: string;
  vars: Readonly<Record<string, string | undefined>>;
}

/** What a session file's first lines say about it. */
export interface SessionHead {
  /** The shape of the first line of a known shape (`claude-code`, `acp-capture`, …), else `unknown`. */
  format: string;
  sessionId: string | null;
  /** The directory the agent worked in, where the file says. */
  cwd: string | null;
  /** The earliest time the lines read give. */
  startMs: number | undefined;
  /** The first prompt a person typed, on one line, without the harness's boilerplate. */
  title: string | null;
  /** The title is a slash command: a later plain prompt names the session better. */
  titleIsCommand: boolean;
}

export interface Harness {
  /** The format id its lines are read as (`claude-code`), or the recorder's (`acp-capture`). */
  id: string;
  /** As a person names it: "Claude Code". */
  name: string;
  /** Where it keeps its sessions when nothing moves them, as absolute paths. */
  folders(env: HarnessEnv): string[];
  /** The variables that move those folders, as its documentation names them. */
  folderVars: readonly string[];
  /**
   * Whether `path` (absolute, `/`-separated) is one of its session files, by name and place: true
   * or false inside its own layout (`~/.claude` holds settings and todos too), undefined for a
   * path that is none of its business (the registry's generic rule decides those).
   */
  ownsFile(path: string): boolean | undefined;
  /** For a sub-agent's own file: the path of its session's file; null for any other file. */
  parentFileOf?(path: string): string | null;
  /** The folder a session file's sub-agents' files are in, when the harness keeps them apart. */
  subagentFolderOf?(sessionPath: string): string | null;
  /** Whether a file in that folder is a sub-agent's session file (not its metadata). */
  isSubagentFile?: (name: string) => boolean;
  /**
   * A small file beside a session file whose JSON says what its first lines do not (Cline's
   * `<id>.json`: the directory the agent worked in); its object is given to `noteHead`.
   */
  headFileOf?(sessionPath: string): string | null;
  /** Adds what one of its own lines says to `head` (only what is still unknown). */
  noteHead(head: SessionHead, value: JsonObject): void;
  /** The releases whose own files Loupe was tested with (its recordings in fixtures/native). */
  testedVersions?: readonly string[];
  /** The release that wrote a line of its own, where the line says (Claude Code's `version`). */
  versionOf?: (value: JsonObject) => string | null;
  /** The project when the file says no directory: a folder name in the file's path. */
  projectFromPath?(path: string): string | null;
}
