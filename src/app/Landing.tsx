// The page a first visit sees: what Loupe reads, where agents keep their own logs, and samples of
// each kind, each a file the app serves.
import { sessionHref } from '../routes/page';

export const SAMPLES: { href: string; title: string; about: string }[] = [
  { href: 'samples/grok-esc-interrupt.updates.jsonl', title: 'Grok Build: interrupted command', about: 'persisted ACP updates; a sleep 45 cut short by Esc' },
  { href: 'samples/gemini-cli-live-turn.jsonl', title: 'Gemini CLI: live turn', about: 'recorded ACP stdio traffic, both directions' },
  { href: 'samples/golden-p0.ledger.jsonl', title: 'Ledger export', about: 'hash-chained ledger JSONL' },
  {
    href: 'samples/claude-code-2.1.83.jsonl',
    title: 'Claude Code: its own log',
    about: 'a session as Claude Code 2.1.83 wrote it in ~/.claude/projects (the same run as an ACP capture, ten calls)',
  },
];

export function Landing() {
  return (
    <div className="loupe-app__landing">
      <h1>Loupe</h1>
      <p>
        View a coding-agent session: the logs Claude Code and Codex keep of every session, ACP event streams (<code>loupe tee</code>{' '}
        captures, JSON-RPC, Zed exports, Grok Build updates) and ledger JSONL.
      </p>
      <p>Drop one or more files anywhere on this page, pick them with “Open files…”, paste JSONL text, or load a URL with <code>?src=</code>.</p>
      <h2>Your agents’ own sessions</h2>
      <p>Each agent keeps a log of every session on your machine, one file each:</p>
      <ul data-testid="agent-logs">
        <li>
          Claude Code: <code>~/.claude/projects/&lt;project&gt;/&lt;session&gt;.jsonl</code> (<code>$CLAUDE_CONFIG_DIR</code> moves it)
        </li>
        <li>
          Codex: <code>~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl</code> (<code>$CODEX_HOME</code> moves it)
        </li>
        <li>
          Gemini CLI: <code>~/.gemini/tmp/&lt;project&gt;/chats/</code>
        </li>
      </ul>
      <p>
        Open one here (those folders are hidden: in the file picker, type the path or show hidden files), or from a terminal with{' '}
        <code>loupe open PATH</code>; <code>loupe open</code> with no path lists them all, newest first, and <code>loupe ls</code> prints
        them.
      </p>
      <h2>Samples</h2>
      <ul>
        {SAMPLES.map((s) => (
          <li key={s.href}>
            <a href={sessionHref(s.href)}>{s.title}</a> — {s.about}
          </li>
        ))}
      </ul>
    </div>
  );
}
