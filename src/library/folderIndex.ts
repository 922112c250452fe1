// "Open folder…": the picked folder's files indexed in a worker into the same rows `loupe index`
// writes, kept in memory; the library reads them as it reads the server's tables (the calls as
// the same columns), so its filters and stats are one code path.
import type { FleetCall, FleetSession } from '../analysis/fleet';
import { HARNESSES, isSessionFile, parentSessionFileOf } from '../model';
import { callColumnsOf, type CallColumns } from './callColumns';
import type { FolderWorkerAnswer } from './folder.worker';
import type { FileRows } from '../analysis/fileRows';
import { indexPickedFile, type FolderFile } from './folderFile';


export interface FolderIndex {
  folder: string;
  sessions: FleetSession[];
  calls: CallColumns;
  unreadable: { file: string; why: string }[];
  /** The picked files by their path in the folder: a row opens its own File. */
  files: ReadonlyMap<string, File>;
}

export interface FolderProgress {
  done: number;
  total: number;
}

/** The files of a picked folder worth reading, named by their path inside it. */
export function pickedFiles(files: readonly File[]): { folder: string; files: FolderFile[] } {
  const withPath = files.map((file) => ({ file, full: file.webkitRelativePath || file.name }));
  const folder = withPath[0]?.full.includes('/') ? (withPath[0].full.split('/')[0] ?? '') : '';
  const inside = (full: string) => (folder !== '' && full.startsWith(`${folder}/`) ? full.slice(folder.length + 1) : full);
  const byPath = new Map(withPath.map(({ file, full }) => [full, file]));
  const sessions = withPath
    // The files `loupe index` would read in this folder (ingest/harnesses): other files (images, lock files, a harness's settings) are not.
    .filter(({ full }) => isSessionFile(`/${full}`))
    .map(({ file, full }): FolderFile => {
      const picked: FolderFile = { path: inside(full), file };
      // A database's log beside it (OpenCode's `opencode.db-wal`) is read with it.
      const wal = byPath.get(`${full}-wal`);
      if (wal) picked.wal = wal;
      // The file a harness keeps beside a session for its head (Cline's `<id>.json`), as its registry names it.
      for (const harness of HARNESSES) {
        const beside = harness.headFileOf?.(`/${full}`);
        const blob = beside === undefined || beside === null ? undefined : byPath.get(beside.slice(1));
        if (blob) picked.headFile = { format: harness.id, blob };
      }
      return picked;
    })
    .sort((a, b) => a.path.localeCompare(b.path));
  return { folder, files: withSubagentFiles(sessions) };
}

/**
 * A sub-agent's own file (Claude Code's `<session>/subagents/agent-*.jsonl`, CONTRACTS §10) read
 * with its session's file, as `loupe index` reads them: one session whose Task calls are the
 * sub-agents' calls' parents, not a session of its own.
 */
function withSubagentFiles(files: readonly FolderFile[]): FolderFile[] {
  const byPath = new Map(files.map((file) => [`/${file.path}`, file]));
  const subagentsOf = new Map<string, File[]>();
  const joined = new Set<string>();
  for (const { path, file } of files) {
    const parent = parentSessionFileOf(`/${path}`);
    if (parent === null || !byPath.has(parent)) continue;
    subagentsOf.set(parent, [...(subagentsOf.get(parent) ?? []), file]);
    joined.add(path);
  }
  return files
    .filter(({ path }) => !joined.has(path))
    .map((picked) => {
      const subagents = subagentsOf.get(`/${picked.path}`);
      if (!subagents) return picked;
      const { file } = picked;
      // A newline between the parts: a file that does not end in one keeps its last line whole.
      const parts: BlobPart[] = [file];
      for (const subagent of subagents) parts.push('\n', subagent);
      return { ...picked, file: new File(parts, file.name, { type: file.type, lastModified: file.lastModified }) };
    });
}

/** Indexes the files off the page's thread, telling `onProgress` after each one. */
export async function indexFolder(picked: { folder: string; files: FolderFile[] }, onProgress: (progress: FolderProgress) => void): Promise<FolderIndex> {
  const sessions: FleetSession[] = [];
  const calls: FleetCall[] = [];
  const unreadable: { file: string; why: string }[] = [];
  const take = (path: string, results: FileRows[]) => {
    for (const result of results) {
      if (!result.ok) unreadable.push({ file: path, why: result.error });
      else if (result.value !== null) {
        sessions.push(result.value.session);
        for (const call of result.value.calls) calls.push(call);
      }
    }
  };
  onProgress({ done: 0, total: picked.files.length });
  const worker = startWorker();
  if (worker) {
    const running = worker;
    try {
      await new Promise<void>((resolve, reject) => {
        running.onmessage = (event: MessageEvent<FolderWorkerAnswer>) => {
          const answer = event.data;
          if (answer.kind === 'end') return resolve();
          take(answer.path, answer.results);
          onProgress({ done: answer.done, total: answer.total });
        };
        running.onerror = (event) => reject(new Error(event.message || 'the folder reader stopped'));
        running.postMessage(picked.files);
      });
    } finally {
      running.terminate();
    }
  } else {
    for (const [index, file] of picked.files.entries()) {
      take(file.path, await indexPickedFile(file));
      onProgress({ done: index + 1, total: picked.files.length });
    }
  }
  return { folder: picked.folder, sessions, calls: callColumnsOf(calls), unreadable, files: new Map(picked.files.map((f) => [f.path, f.file])) };
}

/** The folder reader, or null where a worker cannot start (the files are then read on the page). */
function startWorker(): Worker | null {
  try {
    return new Worker(new URL('./folder.worker.ts', import.meta.url), { type: 'module', name: 'loupe-library-folder' });
  } catch {
    return null;
  }
}
