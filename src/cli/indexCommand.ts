// `loupe index [DIR...] [--out DIR] [--json] [--jobs N] [--row-group N]`: every session on this machine (or under
// DIRs) as Parquet tables any engine queries.
import { lstat } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { readCommandArgs } from './args';
import { whyNotListable } from './listable';
import { buildIndex, type IndexResult } from './indexBuild';
import { DEFAULT_ROW_GROUP_ROWS } from './indexOutput';
import { defaultFolders } from './sessionWalk';
import { looksLikeTeamBase, partitionDir } from './teamFolder';
import { machineNameOf, validMachineName } from '../analysis/teamIndex';
import type { CliIo } from './summarize';
import { terminalSafeJson, terminalSafeLine } from '../model/terminalText';

const USAGE = 'usage: loupe index [DIR...] [--out DIR] [--machine NAME [--publish]] [--json] [--jobs N] [--row-group N]';

const HELP = `${USAGE}

Reads every session file under the folders (by default every place \`loupe ls\` looks: tee
recordings, Claude Code's and Codex's sessions) with the viewer's own ingest, one thread per core,
and writes two Parquet tables that DuckDB, Spark, Trino, ClickHouse or pandas query:
  calls.parquet      one row per call: file, format, session, call_id, label, subject, status,
                     started_ms, duration_ms, permission, exit_code, turn_input_tokens,
                     turn_output_tokens, parent_call_id
  sessions.parquet   one row per file (a database, OpenCode's: per session a person started):
                     file, format, session, project, started_ms, ended_ms,
                     calls, failed, input_tokens, output_tokens, cost, cost_unit, bytes,
                     bad_lines, modified_ms
Run it again and only new or changed files are read (manifest.json says what each file was;
of a database, only the sessions whose rows changed); files that are gone drop out. The tables
are not written again: a new file's rows are added after the last run's row groups, and for a
changed or gone file only the row groups from the first that holds its rows on are rewritten (a
session an agent is still writing is read last, so its rows come last). A file that cannot be
read is listed with why; it does not stop the index. Unknown values are null.

  --out DIR   where the tables go (default ${'$'}XDG_CACHE_HOME/loupe/index, else ~/.cache/loupe/index)
  --machine NAME
              a team's index: the tables go into DIR/machine=NAME/ (Hive partitioning), so every
              machine points --out at one shared folder and engines read the union as one table
              with a machine column: read_parquet('DIR/*/calls.parquet', hive_partitioning = true).
              DIR/index.json lists the partitions (tables, bytes, rows, when written). NAME:
              letters, digits, '.', '_', '-'. Once DIR holds a partition (or index.json), a run
              without --machine writes this machine's: NAME is then the host name (${machineNameOf(hostname())})
  --publish   with a team's index: copy the session files its table names beside it, into
              DIR/machine=NAME/files/<path> (as they are: publish only where your team alone
              reads), so the app opened with ?index= on a web host serving DIR opens them
  --json      print {sessions, calls, parsed, reused, ms, skipped, unreadable, threads, out}
  --jobs N    threads to read with, this one among them (default: one per core; a few small
              files, 8 MB in all, are read in this thread alone, sooner than a thread starts)
  --row-group N
              rows per Parquet row group (default ${thousands(DEFAULT_ROW_GROUP_ROWS)}; an engine skips a group by its
              statistics, so smaller groups skip finer and compress less)

Example: duckdb -c "select label, count(*) from '~/.cache/loupe/index/calls.parquet' group by 1"`;

/**
 * `10,000`: what toLocaleString('en') writes, without it. Its first call loads ICU's number
 * formats (20 ms), and the help text is made on every run, most of which never show it.
 */
function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Where the index goes when --out is not given. */
export function defaultIndexDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME && env.HOME.startsWith('/') ? env.HOME : homedir();
  const cache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
  return join(cache, 'loupe', 'index');
}

export interface IndexDeps {
  env: NodeJS.ProcessEnv;
  /** This machine's name in a team's folder (default: the host name, made a folder's name). */
  machine: string;
}

export async function main(argv: readonly string[], io: CliIo, overrides: Partial<IndexDeps> = {}): Promise<number> {
  const parsed = readCommandArgs(argv, io, { command: 'index', usage: USAGE, help: HELP }, { json: { type: 'boolean' }, out: { type: 'string' }, machine: { type: 'string' }, publish: { type: 'boolean' }, jobs: { type: 'string' }, 'row-group': { type: 'string' } });
  if (typeof parsed === 'number') return parsed;
  const env = overrides.env ?? process.env;
  let jobs: number | undefined;
  if (parsed.values.jobs !== undefined) {
    jobs = Number(parsed.values.jobs);
    if (!Number.isInteger(jobs) || jobs < 0) {
      io.err(`loupe index: --jobs must be a whole number of threads, 0 or more (0 reads without threads), not ${terminalSafeLine(parsed.values.jobs)}\n${USAGE}`);
      return 2;
    }
  }
  let rowGroupRows: number | undefined;
  if (parsed.values['row-group'] !== undefined) {
    rowGroupRows = Number(parsed.values['row-group']);
    if (!Number.isInteger(rowGroupRows) || rowGroupRows < 1) {
      io.err(`loupe index: --row-group must be a whole number of rows, 1 or more, not ${terminalSafeLine(parsed.values['row-group'])}\n${USAGE}`);
      return 2;
    }
  }
  // Before anything is written: a mistyped DIR must not leave empty tables (and a manifest) behind.
  for (const dir of parsed.positionals) {
    const problem = await whyNotListable(dir);
    if (problem !== null) {
      io.err(`loupe index: ${terminalSafeLine(problem)}`);
      return 1;
    }
  }
  const dirs = parsed.positionals.length > 0 ? parsed.positionals : defaultFolders(env);
  const base = parsed.values.out ?? defaultIndexDir(env);
  let machine: string | null = null;
  if (parsed.values.machine !== undefined) {
    machine = validMachineName(parsed.values.machine);
    if (machine === null) {
      io.err(`loupe index: --machine takes a name of letters, digits, '.', '_' and '-' (not starting with '.', at most 64), got ${terminalSafeLine(parsed.values.machine)}\n${USAGE}`);
      return 2;
    }
  } else if (await looksLikeTeamBase(base)) {
    machine = overrides.machine ?? machineNameOf(hostname());
  }
  if (parsed.values.publish && machine === null) {
    io.err(`loupe index: --publish publishes a team's partition: give --machine NAME too\n${USAGE}`);
    return 2;
  }
  const out = machine === null ? base : partitionDir(base, machine);
  let result: IndexResult;
  let published: Awaited<ReturnType<typeof import('./teamIndex').publishPartitionFiles>> | null = null;
  try {
    // Written through a link, a team's tables would land wherever it points.
    if (machine !== null && (await lstat(base).catch(() => null))?.isSymbolicLink()) throw new Error(`${resolve(base)} is a symbolic link: give the folder it points to, or another`);
    result = await buildIndex({ dirs, out, jobs, ...(rowGroupRows !== undefined ? { rowGroupRows } : {}), ...(machine !== null ? { skipUnder: base } : {}) });
    if (machine !== null) {
      // Loaded for a team's folder only: it reads the partitions' tables.
      const team = await import('./teamIndex');
      if (parsed.values.publish) published = await team.publishPartitionFiles(out);
      await team.writeTeamListing(resolve(base), machine);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    io.err(`loupe index: cannot write the index in ${terminalSafeLine(out)} (${code ?? (error instanceof Error ? error.message : String(error))})`);
    return 1;
  }
  for (const { file, why } of result.unreadable) io.err(terminalSafeLine(`loupe index: skipped ${file}: ${why}`));
  for (const { path, why } of result.leftOut) io.err(terminalSafeLine(`loupe index: left out ${path}: ${why}`));
  for (const { file, why } of published?.failed ?? []) io.err(terminalSafeLine(`loupe index: not published ${file}: ${why}`));
  if (parsed.values.json) {
    const { sessions, calls, parsed: read, reused, ms, skipped, unreadable, threads } = result;
    io.out(terminalSafeJson(JSON.stringify({ sessions, calls, parsed: read, reused, ms, skipped, unreadable, threads, out: result.out, ...(machine !== null ? { machine } : {}), ...(published ? { published: { copied: published.copied, kept: published.kept, failed: published.failed.length } } : {}) })));
    return 0;
  }
  io.out(
    terminalSafeLine(
      `indexed ${result.sessions} session${result.sessions === 1 ? '' : 's'} (${result.calls} calls) into ${result.out}: ` +
        `${result.parsed} read, ${result.reused} unchanged${result.unreadable.length > 0 ? `, ${result.unreadable.length} unreadable` : ''} ` +
        `in ${(result.ms / 1000).toFixed(1)} s`,
    ),
  );
  return 0;
}
