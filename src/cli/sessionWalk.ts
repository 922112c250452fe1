// The walk for session files: every file under some folders that a harness's layout (or its
// extension) says is a session. `loupe ls`, `loupe open` and `loupe index` walk with it; it is apart
// from sessions.ts, which reads each file's head with the classifier, so that a run of `loupe index`
// with nothing changed loads only the harnesses' path rules (indexBuild.ts says why).
import { statSync, type Dirent, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { defaultSessionFolders, entersFolder, isSessionFile, type HarnessEnv } from '../ingest/harnesses';
import { isIndexFolder } from './indexOutput';

/** The harnesses' variables and home as this process (or a test's scratch HOME) has them. */
export function harnessEnv(env: NodeJS.ProcessEnv = process.env): HarnessEnv {
  return { home: env.HOME && env.HOME.startsWith('/') ? env.HOME : homedir(), vars: env };
}

/** Every folder a harness keeps sessions in, tee's captures first. */
export function defaultFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return defaultSessionFolders(harnessEnv(env));
}

/** Deep enough for `~/.claude/projects/<p>/<s>/subagents/` and `~/.codex/sessions/YYYY/MM/DD/` from a home folder. */
const MAX_DEPTH = 7;

/** A file or folder the walk did not read, and why (a link out of the folder, a loop, a name it cannot open). */
export interface LeftOut {
  path: string;
  why: string;
}

export interface WalkOptions {
  /**
   * Only what lies inside the named folders: a link to a file or folder elsewhere, and a file
   * with other names (a hard link, which may be a file from elsewhere), are left out. `loupe open
   * DIR` serves what it finds, so it asks this.
   */
  inside?: boolean;
}

/**
 * Every session file under `dirs` (files or folders), sub-agents' files included. Dot-folders are
 * entered (the harnesses keep sessions in `~/.claude`, `~/.codex`, …), repositories' and package
 * trees' folders and Loupe's own index folders are not; a folder or file reached twice (a link
 * loop, two links to one place) is read once, known by device and inode.
 */
export async function sessionFilesUnder(dirs: readonly string[], options: WalkOptions = {}, leftOut: LeftOut[] = []): Promise<Set<string>> {
  const files = new Set<string>();
  const seen = new Set<string>();
  for (const dir of dirs) {
    const root = resolve(dir);
    const realRoot = await realpath(root).catch(() => null);
    if (realRoot === null) continue;
    const walker = new Walker(root, realRoot, options, seen, leftOut);
    for (const file of await walker.walk(root, 0)) files.add(file);
  }
  return files;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

class Walker {
  constructor(
    private readonly root: string,
    private readonly realRoot: string,
    private readonly options: WalkOptions,
    private readonly seen: Set<string>,
    private readonly leftOut: LeftOut[],
  ) {}

  /** `known`: the path's stat, where the folder above asked for its entries' together. */
  async walk(path: string, depth: number, known?: Stats | null): Promise<string[]> {
    const info = known !== undefined ? known : await stat(path).catch(() => null);
    if (info === null) return [];
    if (this.options.inside && path !== this.root && !(await this.isInside(path))) return [];
    const key = `${info.dev}:${info.ino}`;
    if (this.seen.has(key)) return [];
    if (info.isFile()) {
      this.seen.add(key);
      if (this.options.inside && info.nlink > 1) {
        this.leftOut.push({ path, why: 'it has other names (a hard link), which may lie outside the folder' });
        return [];
      }
      return path === this.root || isSessionFile(path) ? [path] : [];
    }
    if (!info.isDirectory() || depth > MAX_DEPTH) return [];
    this.seen.add(key);
    let entries: Dirent[];
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch {
      return [];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names = entries.map((entry) => entry.name);
    // A folder `loupe index` wrote: its manifest is JSON, not a session.
    if (isIndexFolder(names)) return [];
    // What is really here before what links lead to: a session reached both ways is named by its own path.
    const ordered = [...entries.filter((entry) => !entry.isSymbolicLink()), ...entries.filter((entry) => entry.isSymbolicLink())].map((entry) => entry.name);
    const entered = ordered.filter(entersFolder);
    const children = entered.map((name) => join(path, name));
    // Every entry's stat first, then each entry walked in order (the first path to a file names it).
    // Synchronously: a stat of a local file is a few microseconds, and the thread pool's round trip
    // for each was most of it (1,000 sessions: 23–57 ms asked one by one together, 12–19 ms thus).
    const infos = children.map(statOrNull);
    const out: string[] = [];
    for (const [index, child] of children.entries()) {
      const info = infos[index] ?? null;
      if (entered[index]!.includes('\uFFFD') && !info) {
        this.leftOut.push({ path: child, why: 'its name is not valid UTF-8' });
        continue;
      }
      out.push(...(await this.walk(child, depth + 1, info)));
    }
    return out;
  }

  /** Whether the real path of `path` lies in the real folder the walk started from; says why not. */
  private async isInside(path: string): Promise<boolean> {
    const real = await realpath(path).catch(() => null);
    if (real === null) return false;
    if (real === this.realRoot || real.startsWith(this.realRoot.endsWith(sep) ? this.realRoot : this.realRoot + sep)) return true;
    this.leftOut.push({ path, why: `it is a link to ${real}, outside ${this.root}` });
    return false;
  }
}
