// `loupe ls [--json] [DIR...]`: the sessions on this machine, newest first.
import { formatBytes } from '../analysis/formatBytes';
import { shortProject } from '../analysis/projectName';
import { formatName, harnessFolderLines } from '../ingest/harnesses';
import { findSessions, type FoundSession } from './sessions';
import { defaultFolders, type LeftOut } from './sessionWalk';
import type { CliIo } from './summarize';
import { terminalSafeJson, terminalSafeLine } from '../model/terminalText';
import { readCommandArgs } from './args';
import { whyNotListable } from './listable';

const USAGE = 'usage: loupe ls [--json] [DIR...]';

const HELP = `${USAGE}

Lists the agent sessions on this machine, the most recently written first, from where each
harness keeps them:
${harnessFolderLines().map(({ name, where }) => `  - ${name}: ${where}`).join('\n')}
Each with its harness, title (the first prompt), project (the directory the agent worked in),
when it was last written, its size, and "live" while it is being written.

  DIR      list the sessions under DIR instead (files of any format Loupe reads; dot-folders
           are entered, .git and node_modules are not)
  --json   an array of objects: path, format, sessionId, title, project, startedAt,
           lastWriteAt, size, live, subagents (a session's sub-agent files)`;

export interface LsDeps {
  env: NodeJS.ProcessEnv;
  now: number;
}

export async function main(argv: readonly string[], io: CliIo, overrides: Partial<LsDeps> = {}): Promise<number> {
  const parsed = readCommandArgs(argv, io, { command: 'ls', usage: USAGE, help: HELP }, { json: { type: 'boolean' } });
  if (typeof parsed === 'number') return parsed;
  for (const dir of parsed.positionals) {
    const problem = await whyNotListable(dir);
    if (problem !== null) {
      io.err(`loupe ls: ${terminalSafeLine(problem)}`);
      return 1;
    }
  }
  const dirs = parsed.positionals.length > 0 ? parsed.positionals : defaultFolders(overrides.env ?? process.env);
  const leftOut: LeftOut[] = [];
  const sessions = await findSessions(dirs, overrides.now ?? Date.now(), leftOut);
  for (const { path, why } of leftOut) io.err(terminalSafeLine(`loupe ls: left out ${path}: ${why}`));
  if (parsed.values.json) {
    io.out(terminalSafeJson(JSON.stringify(sessions, null, 1)));
    return 0;
  }
  if (sessions.length === 0) {
    io.out(`no sessions found in ${dirs.join(', ')}`);
    return 0;
  }
  for (const line of formatTable(sessions)) io.out(terminalSafeLine(line));
  return 0;
}

const TITLE_CHARS = 48;

function formatTable(sessions: FoundSession[]): string[] {
  const rows = sessions.map((s) => [
    s.lastWriteAt.replace('T', ' ').slice(0, 16),
    s.live ? 'live' : '',
    formatName(s.format),
    formatBytes(s.size),
    shortProject(s.project),
    clip(s.title ?? '—', TITLE_CHARS),
    s.subagents.length > 0 ? `${s.path} (+${s.subagents.length} sub-agent${s.subagents.length === 1 ? '' : 's'})` : s.path,
  ]);
  const header = ['LAST WRITE (UTC)', '', 'HARNESS', 'SIZE', 'PROJECT', 'TITLE', 'PATH'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}
