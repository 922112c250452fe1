// The harness registry: every harness and recorder Loupe reads, and the questions the lister, the
// index, the head reader and the pages ask of them. A new harness is one module added to HARNESSES.
import { loupeTee, otherAcpRecorders } from './acp';
import { claudeCode } from './claudeCode';
import { cline } from './cline';
import { codex } from './codex';
import { geminiCli } from './geminiCli';
import { pi } from './pi';
import { openCode } from './opencode';
import { basenameOf } from './paths';
import { qwenCode } from './qwenCode';
import type { JsonObject } from '../json';
import type { Harness, HarnessEnv } from './types';

export type { Harness, HarnessEnv, SessionHead } from './types';

/** Those with folders of their own first: the order `loupe ls` walks them in. */
export const HARNESSES: readonly Harness[] = [loupeTee, claudeCode, codex, geminiCli, qwenCode, pi, openCode, cline, ...otherAcpRecorders];

const BY_ID = new Map(HARNESSES.map((harness) => [harness.id, harness]));

export function harnessOfFormat(format: string): Harness | undefined {
  return BY_ID.get(format);
}

/** How a person names a format: "Claude Code", "loupe tee"; a format no harness names keeps its id. */
export function formatName(format: string): string {
  if (format === 'mixed') return 'mixed';
  return BY_ID.get(format)?.name ?? format;
}

/** Every folder a harness keeps sessions in by default, as the environment moves them. */
export function defaultSessionFolders(env: HarnessEnv): string[] {
  return HARNESSES.flatMap((harness) => harness.folders(env));
}

/** Where each harness with folders of its own keeps its sessions, for help texts: `~/.claude/projects ($CLAUDE_CONFIG_DIR moves it)`. */
export function harnessFolderLines(): { name: string; where: string }[] {
  return HARNESSES.filter((harness) => harness.folders({ home: '~', vars: {} }).length > 0).map((harness) => {
    const folders = harness.folders({ home: '~', vars: {} }).join(', ');
    const moved = harness.folderVars.map((name) => `$${name}`).join(', ');
    return { name: harness.name, where: moved === '' ? folders : `${folders} (${moved} moves it)` };
  });
}

/** The extensions session files have when no harness's layout says otherwise. */
const SESSION_FILE_NAME = /\.(jsonl|ndjson|json|log)$/i;
/** Folders never entered: a repository's history and a package tree hold no sessions and many files. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', '.hg', '.svn']);

/** Whether a file is read as a session: the harness whose layout it is in decides, else its extension. */
export function isSessionFile(path: string): boolean {
  for (const harness of HARNESSES) {
    const verdict = harness.ownsFile(path);
    if (verdict !== undefined) return verdict;
  }
  return SESSION_FILE_NAME.test(basenameOf(path));
}

/** Whether a folder walk enters a folder of this name. */
export function entersFolder(name: string): boolean {
  return !SKIPPED_FOLDERS.has(name);
}

/** For a sub-agent's own file: its session's file, as its harness lays them out; else null. */
export function parentSessionFileOf(path: string): string | null {
  for (const harness of HARNESSES) {
    const parent = harness.parentFileOf?.(path);
    if (parent) return parent;
  }
  return null;
}

/** Where a session file's sub-agents' files are, and which names there are theirs; null when no harness keeps them apart. */
export function subagentLayoutOf(sessionPath: string): { folder: string; isSubagentFile: (name: string) => boolean } | null {
  // The harness whose folders the file is in answers first (a Qwen chat is a `.jsonl` Claude Code's rule would also answer for).
  const owners = HARNESSES.filter((harness) => harness.ownsFile(sessionPath) === true);
  for (const harness of [...owners, ...HARNESSES]) {
    const folder = harness.subagentFolderOf?.(sessionPath);
    if (folder && harness.isSubagentFile) return { folder, isSubagentFile: harness.isSubagentFile };
  }
  return null;
}

/** The file beside a session file that says more of its head (Harness.headFileOf), as the harness whose format it is names it; else null. */
export function headFileOf(format: string, sessionPath: string): string | null {
  return BY_ID.get(format)?.headFileOf?.(sessionPath) ?? null;
}

/** Whether a file's name is a sub-agent's file of some harness (a dropped file has no folder to go by). */
export function isSubagentFileName(name: string): boolean {
  return HARNESSES.some((harness) => harness.isSubagentFile?.(name) === true);
}

/**
 * The release that wrote a line, when it is newer than every release its harness was tested with:
 * what is known is read, and the diagnostics say which release it was. Null when the line names no
 * release, or one no newer.
 */
export function untestedRelease(format: string, value: JsonObject): { name: string; version: string; tested: readonly string[] } | null {
  const harness = BY_ID.get(format);
  const version = harness?.versionOf?.(value);
  if (!harness?.testedVersions?.length || !version) return null;
  const newest = harness.testedVersions.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
  return compareVersions(version, newest) > 0 ? { name: harness.name, version, tested: harness.testedVersions } : null;
}

/** Dotted release numbers compared part by part (`2.1.100` after `2.1.83`); a part that is not a number counts as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const pb = b.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
