// The recordings `loupe tee` made, as `loupe open` (no PATH) serves them: newest first, the ones
// still being written marked live. Opening one loads `?src=recordings/NAME`, which the server
// keeps open while tee writes it. Below them, the sessions Claude Code and Codex logged themselves,
// grouped by project (`?src=sessions/ID/NAME`, followed while the agent still writes it).
import { useEffect, useState } from 'react';
import { formatBytes } from '../embed/format';
import './recordings.css';

interface Recording {
  name: string;
  bytes: number;
  mtimeMs: number;
  live: boolean;
  agent?: string;
}

interface Listing {
  folder: string;
  recordings: Recording[];
}

interface AgentSession {
  id: string;
  name: string;
  format: string;
  project: string | null;
  lastWriteAt: string;
  bytes: number;
  live: boolean;
}

const FORMAT_NAMES: Record<string, string> = { 'claude-code': 'Claude Code', codex: 'Codex', 'gemini-cli': 'Gemini CLI' };

/** The server's answer, read defensively: anything not shaped like a session is left out. */
function agentSessionsOf(value: unknown): AgentSession[] {
  const sessions = typeof value === 'object' && value !== null ? (value as { sessions?: unknown }).sessions : undefined;
  if (!Array.isArray(sessions)) return [];
  return sessions.filter((s): s is AgentSession => {
    const o = s as Partial<AgentSession> | null;
    return typeof o?.id === 'string' && typeof o.name === 'string' && typeof o.format === 'string' && typeof o.lastWriteAt === 'string' && typeof o.bytes === 'number';
  });
}

/** Sessions by project, projects in the order of their newest session (the list comes newest first). */
function byProject(sessions: readonly AgentSession[]): [string, AgentSession[]][] {
  const groups = new Map<string, AgentSession[]>();
  for (const session of sessions) {
    const project = session.project ?? 'No project';
    groups.set(project, [...(groups.get(project) ?? []), session]);
  }
  return [...groups];
}

// Often enough that a new run shows up and a finished one loses its badge while the page is open.
const REFRESH_MS = 2000;

export function Recordings() {
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [agentSessions, setAgentSessions] = useState<AgentSession[]>([]);

  useEffect(() => {
    // Listed once: finding them walks the agents' folders (a reload lists them again).
    let stopped = false;
    fetch('sessions', { cache: 'no-store' })
      .then(async (res) => (res.ok ? agentSessionsOf(await res.json()) : []))
      .then((sessions) => void (stopped || setAgentSessions(sessions)))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, []);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const res = await fetch('recordings', { cache: 'no-store' });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const next = (await res.json()) as Listing;
        if (!stopped) {
          setListing(next);
          setError(null);
        }
      } catch (err) {
        if (!stopped) setError(err instanceof Error ? err.message : String(err));
      }
      if (!stopped) timer = setTimeout(() => void load(), REFRESH_MS);
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  return (
    <div className="loupe-app__landing loupe-recordings">
      <h1>Recordings</h1>
      {error ? (
        <p role="alert">
          Could not list the recordings ({error}). This page works when served by <code>loupe open</code>.
        </p>
      ) : null}
      {listing === null ? (
        error ? null : <p aria-busy="true">Loading…</p>
      ) : listing.recordings.length === 0 ? (
        <p>
          No recordings yet. Run your agent through <code>loupe tee -- AGENT [ARGS...]</code> (for example in your editor's agent
          settings) and its sessions are recorded in <code>{listing.folder}</code>.
        </p>
      ) : (
        <>
          <p>
            Made by <code>loupe tee</code>, in <code>{listing.folder}</code>. A live recording opens following the session as it
            happens.
          </p>
          <ul className="loupe-recordings__list" aria-label="Recordings">
            {listing.recordings.map((r) => (
              <li key={r.name} data-recording={r.name} data-live={r.live || undefined}>
                <a href={`?src=${encodeURIComponent(`recordings/${r.name}`)}`}>
                  <span className="loupe-recordings__name">{r.name}</span>
                  {r.live ? <span className="loupe-recordings__live">live</span> : null}
                </a>
                <span className="loupe-recordings__meta">
                  {r.agent ? <span>{r.agent}</span> : null}
                  <span>{formatBytes(r.bytes)}</span>
                  <time dateTime={new Date(r.mtimeMs).toISOString()}>{new Date(r.mtimeMs).toLocaleString()}</time>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {agentSessions.length > 0 ? (
        <section aria-label="Agent sessions">
          <h2>Agent sessions</h2>
          <p>The sessions Claude Code and Codex logged on this machine, by project, newest first.</p>
          {byProject(agentSessions).map(([project, sessions]) => (
            <section key={project} aria-label={project} data-project={project}>
              <h3 className="loupe-recordings__name">{project}</h3>
              <ul className="loupe-recordings__list" aria-label={`Sessions in ${project}`}>
                {sessions.map((s) => (
                  <li key={s.id} data-agent-session={s.name} data-live={s.live || undefined}>
                    <a href={`?src=${encodeURIComponent(`sessions/${s.id}/${s.name}`)}`}>
                      <span className="loupe-recordings__name">{s.name}</span>
                      {s.live ? <span className="loupe-recordings__live">live</span> : null}
                    </a>
                    <span className="loupe-recordings__meta">
                      <span>{FORMAT_NAMES[s.format] ?? s.format}</span>
                      <span>{formatBytes(s.bytes)}</span>
                      <time dateTime={s.lastWriteAt}>{new Date(s.lastWriteAt).toLocaleString()}</time>
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </section>
      ) : null}
    </div>
  );
}
