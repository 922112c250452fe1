// The `loupe` command: a module per subcommand (loaded only when it runs). src/cli/loupe.ts runs it.
import { version } from '../../package.json';
import type { CliIo } from './summarize';

/** The installed package's version, bundled into the CLI when it is built (not read from a file beside it). */
export const VERSION: string = version;

const HELP = `loupe: record and view coding-agent sessions (agents' own logs, ACP traffic, ledger exports)

  loupe tee [--out FILE] -- AGENT [ARGS...]   run AGENT, recording its ACP stdio traffic
  loupe open [PATH | DIR | -] [--follow] [--vs OTHER] [--port N] [--no-browser]
                                              open a session in the viewer (live with --follow;
                                              beside OTHER, step by step, with --vs), or a
                                              folder of sessions as a library
  loupe ls [--json] [DIR...]                  the sessions on this machine (tee recordings, Claude
                                              Code, Codex), newest first
  loupe index [DIR...] [--out DIR] [--json]  every session on this machine (or under DIRs) as
                                              Parquet tables (calls, sessions) any engine queries
  loupe summarize FILE [--json] [--strict]    a plain-text or JSON summary of a session (--strict:
                                              exit 1 when empty, unreadable as a session, on bad
                                              lines or a broken chain)
  loupe diff A B [--json] [--md] [--session ID] [--redact]
                                              two runs of one task compared step by step: where
                                              they first part, the alignment, each label's counts
                                              (exit 0 agree, 1 diverge, 2 unreadable)
  loupe export FILE --format jsonl|html|md [--redact] [--notes NOTES.json] [--out OUT]
                                              a session ready to share, secrets replaced with --redact

  loupe --version                             the version of Loupe installed

Where agents keep their own sessions (\`loupe open PATH\` opens one, \`loupe open\` lists them all):
  Claude Code   ~/.claude/projects/<project>/<session>.jsonl
  Codex         ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
  Gemini CLI    ~/.gemini/tmp/<project>/chats/

\`loupe COMMAND --help\` says more.`;

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'tee':
      return (await import('./tee')).main(rest, io);
    case 'open':
      return (await import('./open')).main(rest, io);
    case 'ls':
      stopQuietlyWhenStdoutCloses();
      return (await import('./ls')).main(rest, io);
    case 'index':
      stopQuietlyWhenStdoutCloses();
      return (await import('./indexCommand')).main(rest, io);
    case 'summarize':
      stopQuietlyWhenStdoutCloses();
      return (await import('./summarize')).main(argv, io);
    case 'diff':
      stopQuietlyWhenStdoutCloses();
      return (await import('./diff')).main(rest, io);
    case 'export':
      stopQuietlyWhenStdoutCloses();
      return (await import('./export')).main(rest, io);
    case undefined:
      // No command is a usage error: the help goes where errors go.
      io.err(HELP);
      return 2;
    case '--help':
    case '-h':
    case 'help':
      io.out(HELP);
      return 0;
    case '--version':
    case '-V':
    case 'version':
      io.out(`loupe ${VERSION}`);
      return 0;
    default:
      io.err(`loupe: unknown command ${command}\n\n${HELP}`);
      return 2;
  }
}

/**
 * `loupe summarize FILE | head`, `loupe export … | head`: when the reader closes the pipe, stop quietly, as cat and grep
 * do, instead of dying on an unhandled EPIPE with a stack trace.
 */
function stopQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}
