// `loupe ls [--json] [DIR...]`: the sessions on this machine, newest first.
import { defaultRoots, findSessions, type FoundSession } from './sessions';
import type { CliIo } from './summarize';
import { terminalSafeJson, terminalSafeLine } from '../model/terminalText';
import { readCommandArgs } from './args';
import { whyNotListable } from './files';

const USAGE = 'usage: loupe ls [--json] [DIR...]';

const HELP = `${USAGE}

Lists the agent sessions on this machine, the most recently written first:
  - recordings made by \`loupe tee\` (${'$'}XDG_STATE_HOME/loupe/captures, else ~/.local/state/loupe/captures)
  - Claude Code's sessions (~/.claude/projects/<project>/<session>.jsonl; ${'$'}CLAUDE_CONFIG_DIR moves it)
  - Codex's sessions (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl; ${'$'}CODEX_HOME moves it)
Each with its format, session id, project (the directory the agent worked in), when it started,
when it was last written, its size, and "live" when it was written in the last minute.

  DIR      list the sessions under DIR instead (files of any format Loupe reads)
  --json   an array of objects: path, format, sessionId, project, startedAt, lastWriteAt,
           size, live, subagents (a Claude session's sub-agent files)`;

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
  const roots = defaultRoots(overrides.env ?? process.env);
  const dirs = parsed.positionals.length > 0 ? parsed.positionals : [roots.captures, roots.claude, roots.codex];
  const sessions = await findSessions(dirs, overrides.now ?? Date.now());
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

function formatTable(sessions: FoundSession[]): string[] {
  const rows = sessions.map((s) => [
    s.lastWriteAt.replace('T', ' ').slice(0, 19),
    s.live ? 'live' : '',
    s.format,
    formatSize(s.size),
    s.project ?? '—',
    s.subagents.length > 0 ? `${s.path} (+${s.subagents.length} sub-agent${s.subagents.length === 1 ? '' : 's'})` : s.path,
  ]);
  const header = ['LAST WRITE (UTC)', '', 'FORMAT', 'SIZE', 'PROJECT', 'PATH'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
