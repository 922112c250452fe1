// `loupe index [DIR...] [--out DIR] [--json] [--jobs N] [--row-group N]`: every session on this machine (or under
// DIRs) as Parquet tables any engine queries.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readCommandArgs } from './args';
import { whyNotListable } from './files';
import { buildIndex, type IndexResult } from './indexBuild';
import { DEFAULT_ROW_GROUP_ROWS } from './indexStore';
import { defaultRoots } from './sessions';
import type { CliIo } from './summarize';
import { terminalSafeJson, terminalSafeLine } from '../model/terminalText';

const USAGE = 'usage: loupe index [DIR...] [--out DIR] [--json] [--jobs N] [--row-group N]';

const HELP = `${USAGE}

Reads every session file under the folders (by default every place \`loupe ls\` looks: tee
recordings, Claude Code's and Codex's sessions) with the viewer's own ingest, one thread per core,
and writes two Parquet tables that DuckDB, Spark, Trino, ClickHouse or pandas query:
  calls.parquet      one row per call: file, format, session, call_id, label, subject, status,
                     started_ms, duration_ms, permission, exit_code, turn_input_tokens,
                     turn_output_tokens
  sessions.parquet   one row per file: file, format, session, project, started_ms, ended_ms,
                     calls, failed, input_tokens, output_tokens, cost, cost_unit, bytes,
                     bad_lines, modified_ms
Run it again and only new or changed files are read (manifest.json says what each file was);
files that are gone drop out. The tables are not written again: a new file's rows are added after
the last run's row groups, and for a changed or gone file only the row groups from the first that
holds its rows on are rewritten (a session an agent is still writing is read last, so its rows
come last). A file that cannot be read is listed with why; it does not stop the
index. Unknown values are null.

  --out DIR   where the tables go (default ${'$'}XDG_CACHE_HOME/loupe/index, else ~/.cache/loupe/index)
  --json      print {sessions, calls, parsed, reused, ms, skipped, unreadable, threads, out}
  --jobs N    threads to read with (default: one per core)
  --row-group N
              rows per Parquet row group (default ${DEFAULT_ROW_GROUP_ROWS.toLocaleString('en')}; an engine skips a group by its
              statistics, so smaller groups skip finer and compress less)

Example: duckdb -c "select label, count(*) from '~/.cache/loupe/index/calls.parquet' group by 1"`;

/** Where the index goes when --out is not given. */
export function defaultIndexDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME && env.HOME.startsWith('/') ? env.HOME : homedir();
  const cache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
  return join(cache, 'loupe', 'index');
}

export interface IndexDeps {
  env: NodeJS.ProcessEnv;
}

export async function main(argv: readonly string[], io: CliIo, overrides: Partial<IndexDeps> = {}): Promise<number> {
  const parsed = readCommandArgs(argv, io, { command: 'index', usage: USAGE, help: HELP }, { json: { type: 'boolean' }, out: { type: 'string' }, jobs: { type: 'string' }, 'row-group': { type: 'string' } });
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
  const roots = defaultRoots(env);
  const dirs = parsed.positionals.length > 0 ? parsed.positionals : [roots.captures, roots.claude, roots.codex];
  const out = parsed.values.out ?? defaultIndexDir(env);
  let result: IndexResult;
  try {
    result = await buildIndex({ dirs, out, jobs, ...(rowGroupRows !== undefined ? { rowGroupRows } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    io.err(`loupe index: cannot write the index in ${terminalSafeLine(out)} (${code ?? (error instanceof Error ? error.message : String(error))})`);
    return 1;
  }
  for (const { file, why } of result.unreadable) io.err(terminalSafeLine(`loupe index: skipped ${file}: ${why}`));
  if (parsed.values.json) {
    const { sessions, calls, parsed: read, reused, ms, skipped, unreadable, threads } = result;
    io.out(terminalSafeJson(JSON.stringify({ sessions, calls, parsed: read, reused, ms, skipped, unreadable, threads, out: result.out })));
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
