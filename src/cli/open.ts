// `loupe open [PATH | -] [--follow] [--port N] [--no-browser]`: the viewer on a local session,
// served from 127.0.0.1, following the file as it grows.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseCommandArgs } from './args';
import { capturesDir } from './captures';
import { defaultFolders } from './sessionWalk';
import { whyUnreadable } from './files';
import { buildIndex } from './indexBuild';
import { defaultIndexDir } from './indexCommand';
import { startServer, type LibraryOptions, type SessionInput } from './openServer';
import { partitionFiles, scanPartitions } from './teamIndex';
import { partitionDir } from './teamFolder';
import { machineNameOf, validMachineName } from '../analysis/teamIndex';
import { joinSubagents, subagentFilesOf } from './subagentFiles';
import type { CliIo } from './summarize';
import { terminalSafeLine } from '../model/terminalText';

const USAGE = 'usage: loupe open [PATH | DIR | BASE | -] [--follow] [--vs OTHER] [--machine NAME] [--port N] [--no-browser]';

const HELP = `${USAGE}

Serves the viewer on 127.0.0.1 and opens PATH in it. Prints the page's address (it carries a
secret token: only this address can read the session) and opens the default browser.

  PATH           a session file (ACP JSONL, a loupe tee capture, a ledger export, a Claude Code
                 or Codex log, ...); a Claude Code session's sub-agent files are read with it
  DIR            a folder of sessions, as a library: indexes it (loupe index, kept in
                 ${'$'}XDG_CACHE_HOME/loupe/index/folders/, refreshed on each open) and lists every
                 session with its harness, project, start, duration, calls, failures and tokens,
                 filtered and sorted, with stats across them; a session opens in the viewer
  BASE           a team's index (a folder loupe index --machine NAME wrote into, holding
                 machine=NAME/ partitions): the library of every machine's sessions as one, with
                 a Machine column and filter; not indexed again. A session of this machine's
                 opens when its file is here; another machine's says where it lives
  -              read the session from stdin until it ends, showing it as it arrives
  (no PATH)      the library of every session on this machine: where each harness keeps its
                 own (Claude Code, Codex, ...; see loupe ls --help) and loupe tee's recordings,
                 indexed as loupe index does (the same index, refreshed on each open); a
                 recording whose tee still runs opens live
  --follow       keep reading PATH as it grows, like tail -f (a tee capture: until tee exits)
  --vs OTHER     compare PATH with OTHER, another run of the same task, step by step: OTHER's
                 steps beside PATH's, aligned, the first divergence marked (with --follow the
                 comparison grows as PATH does: is the new run going the way the old one went?)
  --machine NAME with BASE: which partition is this machine's (default: the host name, as
                 loupe index names it)
  --port N       listen on port N (default: any free port)
  --no-browser   only print the address

Runs until Ctrl-C.`;

export interface OpenDeps {
  /** The built viewer (dist/app). */
  appDir: string;
  capturesDir: string;
  /** Where agents keep their own logs: listed beside the recordings when no PATH is given. */
  agentLogDirs: readonly string[];
  /** Every folder a harness keeps sessions in: the library `loupe open` without a path shows. */
  machineFolders: readonly string[];
  /** Where the library of the whole machine is indexed (`loupe index`'s own index). */
  machineIndexDir: string;
  stdin: Readable;
  openBrowser: (url: string, io: CliIo) => void;
  /** Stops the server when aborted; by default SIGINT, SIGTERM or SIGHUP do. */
  stop?: AbortSignal;
  /** Where a folder's index is kept (`loupe open DIR`). */
  indexDirOf: (folder: string) => string;
}

export async function main(argv: readonly string[], io: CliIo, overrides: Partial<OpenDeps> = {}): Promise<number> {
  const parsed = parseOpenArgs(argv);
  if ('error' in parsed) {
    io.err(`loupe open: ${parsed.error}`);
    return 2;
  }
  if (parsed.help) {
    io.out(HELP);
    return 0;
  }
  const deps: OpenDeps = {
    appDir: overrides.appDir ?? findAppDir(),
    capturesDir: overrides.capturesDir ?? capturesDir(),
    agentLogDirs: overrides.agentLogDirs ?? defaultFolders().filter((dir) => resolve(dir) !== resolve(capturesDir())),
    machineFolders: overrides.machineFolders ?? defaultFolders(),
    machineIndexDir: overrides.machineIndexDir ?? defaultIndexDir(),
    stdin: overrides.stdin ?? process.stdin,
    openBrowser: overrides.openBrowser ?? openInBrowser,
    ...(overrides.stop ? { stop: overrides.stop } : {}),
    indexDirOf: overrides.indexDirOf ?? libraryIndexDir,
  };

  // Listened for from here: a signal while a sub-agent copy is joined, or stdin spooled, still
  // removes what was written.
  const stopped = untilStopped(deps.stop);
  let session: SessionInput | undefined;
  /** Sessions (PATH, --vs OTHER) joined with their sub-agents' files, each in a folder of its own removed on exit. */
  const joinedFiles: string[] = [];
  const removeJoined = async () => {
    for (const joined of joinedFiles.splice(0)) await rm(join(joined, '..'), { recursive: true, force: true });
  };
  let library: LibraryOptions | undefined;
  /** A folder holding a partition is a team's library (`loupe open BASE`). */
  const teamPartitions = parsed.path !== undefined && parsed.path !== '-' && (await stat(parsed.path).catch(() => null))?.isDirectory() ? await scanPartitions(parsed.path) : [];
  if (parsed.path === '-') session = { kind: 'stream', stream: deps.stdin };
  else if (parsed.path !== undefined && teamPartitions.length > 0) {
    const base = resolve(parsed.path);
    const here = parsed.machine ?? machineNameOf(hostname());
    const files = await partitionFiles(partitionDir(base, here));
    const partitions = teamPartitions;
    io.err(
      `loupe open: ${partitions.reduce((n, p) => n + (p.sessions ?? 0), 0)} sessions on ${partitions.length} machine${partitions.length === 1 ? '' : 's'} in ${terminalSafeLine(base)} ` +
        `(this machine: ${here}${partitions.some((p) => p.machine === here) ? '' : ', which has no partition there'})`,
    );
    library = { folder: sep, indexDir: base, files, unreadable: [], team: { base, here } };
  } else if (parsed.path === undefined || (await stat(parsed.path).catch(() => null))?.isDirectory()) {
    const folder = parsed.path;
    const wholeMachine = folder === undefined;
    const dirs = folder === undefined ? deps.machineFolders : [folder];
    const indexDir = folder === undefined ? deps.machineIndexDir : deps.indexDirOf(folder);
    const where = folder === undefined ? 'the folders where agents keep their sessions' : terminalSafeLine(folder);
    try {
      // A folder named is served: only what lies inside it is read.
      const result = await buildIndex({ dirs, out: indexDir, inside: !wholeMachine });
      for (const { file, why } of result.unreadable) io.err(terminalSafeLine(`loupe open: skipped ${file}: ${why}`));
      for (const { path, why } of result.leftOut) io.err(terminalSafeLine(`loupe open: left out ${path}: ${why}`));
      io.err(`loupe open: ${result.sessions} session${result.sessions === 1 ? '' : 's'} in ${where} (${result.parsed} read, ${result.reused} unchanged since the last index)`);
      library = { folder: folder ?? commonFolder(dirs), indexDir, files: result.indexed, unreadable: result.unreadable, wholeMachine };
    } catch (error) {
      io.err(`loupe open: cannot index ${where} into ${terminalSafeLine(indexDir)} (${error instanceof Error ? error.message : String(error)})`);
      stopped.cancel();
      return 1;
    }
  } else if (parsed.path !== undefined) {
    const problem = await whyUnreadable(parsed.path, 'give a session file inside it (or no PATH for every session on this machine)');
    if (problem) {
      io.err(`loupe open: ${problem}`);
      stopped.cancel();
      return 1;
    }
    session = { kind: 'file', path: parsed.path, follow: parsed.follow };
    // A Claude Code session's sub-agents are in files of their own (CONTRACTS §10): read with it, as one
    // input. Followed, the server sends them with it as they all grow (tailSession.ts).
    const subagents = parsed.follow ? [] : await subagentFilesOf(parsed.path);
    if (subagents.length > 0) {
      const joined = await joinSubagents(parsed.path, subagents);
      joinedFiles.push(joined);
      session = { kind: 'file', path: joined, follow: false };
      io.err(`loupe open: reading ${subagents.length} sub-agent file${subagents.length === 1 ? '' : 's'} with the session`);
    }
  }
  let compareWith = parsed.vs;
  if (parsed.vs !== undefined) {
    const problem = await whyUnreadable(parsed.vs);
    if (problem) {
      io.err(`loupe open: --vs: ${problem}`);
      await removeJoined();
      stopped.cancel();
      return 1;
    }
    // The other run's sub-agents too, or its steps would lack theirs (CONTRACTS §11).
    const subagents = await subagentFilesOf(parsed.vs);
    if (subagents.length > 0) {
      compareWith = await joinSubagents(parsed.vs, subagents);
      joinedFiles.push(compareWith);
      io.err(`loupe open: --vs: reading ${subagents.length} sub-agent file${subagents.length === 1 ? '' : 's'} with ${terminalSafeLine(parsed.vs)}`);
    }
  }
  if (!existsSync(join(deps.appDir, 'index.html'))) {
    // An installed package carries dist/app ("files" in package.json): only a checkout that was
    // never built lacks it.
    io.err(`loupe open: the viewer is missing (${join(deps.appDir, 'index.html')}); in a checkout of Loupe, run npm run build first; an installed Loupe is broken: install it again`);
    await removeJoined();
    stopped.cancel();
    return 1;
  }

  let server;
  try {
    server = await startServer({
      appDir: deps.appDir, capturesDir: deps.capturesDir, agentLogDirs: deps.agentLogDirs, port: parsed.port, ...(session ? { session } : {}), ...(library ? { library } : {}),
      ...(compareWith !== undefined ? { compareWith } : {}),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') io.err(`loupe open: port ${parsed.port} is in use`);
    else if (code === 'EACCES') io.err(`loupe open: not allowed to listen on port ${parsed.port}`);
    else io.err(`loupe open: cannot listen on 127.0.0.1:${parsed.port}: ${err instanceof Error ? err.message : String(err)}`);
    await removeJoined();
    stopped.cancel();
    return 1;
  }
  io.out(server.url);
  // Not the printed address: the browser's command line is readable by every local user.
  if (!parsed.noBrowser) deps.openBrowser(server.oneTimeUrl(), io);
  await stopped.done;
  await server.close();
  await removeJoined();
  return 0;
}

type ParsedArgs = { help: true } | { help: false; path: string | undefined; follow: boolean; port: number; noBrowser: boolean; vs?: string; machine?: string };

export function parseOpenArgs(argv: readonly string[]): ParsedArgs | { error: string } {
  const parsed = parseCommandArgs(argv, {
    follow: { type: 'boolean', short: 'f' },
    port: { type: 'string', short: 'p' },
    'no-browser': { type: 'boolean' },
    vs: { type: 'string' },
    machine: { type: 'string' },
  });
  if ('error' in parsed) return { error: `${parsed.error} (${USAGE})` };
  if (parsed.help) return { help: true };
  const { values, positionals } = parsed;
  if (positionals.length > 1) return { error: `one session at a time, got ${positionals.length} paths (${USAGE})` };
  if (values.vs !== undefined && positionals.length === 0) return { error: '--vs: --vs compares with PATH: give PATH too' };
  let port = 0;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) return { error: `--port must be a whole number from 0 to 65535, not ${values.port}` };
    port = Number(values.port);
  }
  if (values.machine !== undefined && validMachineName(values.machine) === null) return { error: `--machine takes a name of letters, digits, '.', '_' and '-', not ${values.machine}` };
  return {
    help: false, path: positionals[0], follow: values.follow ?? false, port, noBrowser: values['no-browser'] ?? false, ...(values.vs !== undefined ? { vs: values.vs } : {}),
    ...(values.machine !== undefined ? { machine: values.machine } : {}),
  };
}

/** dist/app beside the built CLI (dist/cli/…), or the project's dist/app when run from source. */
function findAppDir(): string {
  const candidates = ['../app/', '../../app/', '../../dist/app/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
}

/** Ctrl-C, kill, or the terminal closing (`cmd | loupe open -` in a window that is closed): each stops the server and removes the stdin spool. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function untilStopped(stop: AbortSignal | undefined): { done: Promise<void>; cancel: () => void } {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const cancel = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, stopNow);
    stop?.removeEventListener('abort', stopNow);
  };
  const stopNow = () => {
    cancel();
    finish();
  };
  if (stop) {
    if (stop.aborted) finish();
    else stop.addEventListener('abort', stopNow, { once: true });
  } else {
    for (const signal of STOP_SIGNALS) process.once(signal, stopNow);
  }
  return { done, cancel };
}

function openInBrowser(url: string, io: CliIo): void {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const note = (why: string) => io.err(`loupe open: could not open a browser (${why}); open the address above`);
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', (err) => note(err.message));
    child.unref();
  } catch (err) {
    note(err instanceof Error ? err.message : String(err));
  }
}

/** A folder's own index, beside the default one: opening it again reads only what changed. */
function libraryIndexDir(folder: string): string {
  return join(defaultIndexDir(), 'folders', createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 16));
}

/** The deepest folder that holds all of `dirs` (the library's rows are named by their path inside it). */
export function commonFolder(dirs: readonly string[]): string {
  const split = dirs.map((dir) => resolve(dir).split(sep));
  const common: string[] = [];
  for (let i = 0; split.every((parts) => parts.length > i && parts[i] === split[0]![i]); i++) common.push(split[0]![i]!);
  return common.length <= 1 ? sep : common.join(sep);
}
