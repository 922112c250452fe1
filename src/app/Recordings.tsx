// The recordings `loupe tee` made, as `loupe open` (no PATH) serves them: newest first, the ones
// still being written marked live. Opening one loads `?src=recordings/NAME`, which the server
// keeps open while tee writes it. Below them, the sessions Claude Code and Codex logged themselves,
// grouped by project (`?src=sessions/ID/NAME`, followed while the agent still writes it).
import { useQuery } from '@tanstack/react-query';
import { formatName, shortProject } from '../embed';
import { formatBytes } from '../embed/format';
import { agentSessionsListingSchema, fetchListing, recordingsListingSchema, type AgentSessionEntry as AgentSession, type RecordingsListing as Listing } from '../routes/listings';
import { agentSessionPath, LISTING, recordingPath, sessionHref } from '../routes/page';
import { queryKeys } from '../routes/queries';
import './recordings.css';

/** Sessions by project, projects in the order of their newest session (the list comes newest first). */
function byProject(sessions: readonly AgentSession[]): [string, AgentSession[]][] {
  const groups = new Map<string, AgentSession[]>();
  for (const session of sessions) {
    const project = session.project ?? 'No project';
    groups.set(project, [...(groups.get(project) ?? []), session]);
  }
  return [...groups];
}

// While a recording is live, often enough that it grows and loses its badge as it ends. Without
// one, a new run still shows up (and at once when the tab is shown again: react-query refetches on focus).
export const LIVE_REFRESH_MS = 2_000;
export const IDLE_REFRESH_MS = 10_000;
// Listing the agents' sessions walks their folders: asked again on coming back to the tab, not more often than this.
const AGENT_SESSIONS_FRESH_MS = 30_000;

const anyLive = (listing: Listing | undefined) => listing?.recordings.some((r) => r.live) === true;

export function Recordings() {
  const { data: listing, error } = useQuery({
    queryKey: queryKeys.recordings,
    queryFn: () => fetchListing(LISTING.recordings, recordingsListingSchema, 'list of recordings'),
    refetchInterval: (query) => (anyLive(query.state.data) ? LIVE_REFRESH_MS : IDLE_REFRESH_MS),
  });
  // A server without them (or an answer not of their shape) lists none: the recordings stay.
  const { data: agentSessions = [] } = useQuery({
    queryKey: queryKeys.agentSessions,
    queryFn: () => fetchListing(LISTING.agentSessions, agentSessionsListingSchema, 'list of sessions'),
    select: (listing) => listing.sessions,
    staleTime: AGENT_SESSIONS_FRESH_MS,
  });

  return (
    <div className="loupe-app__landing loupe-recordings">
      <h1>Recordings</h1>
      {error ? (
        <p role="alert">
          Could not list the recordings ({error.message}). This page works when served by <code>loupe open</code>.
        </p>
      ) : null}
      {listing === undefined ? (
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
                <a href={sessionHref(recordingPath(r.name))}>
                  <span className="loupe-recordings__name">{r.title ?? r.name}</span>
                  {r.live ? <span className="loupe-recordings__live">live</span> : null}
                </a>
                <span className="loupe-recordings__meta">
                  {r.title ? <span>{r.name}</span> : null}
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
          <p>The sessions agents logged themselves on this machine, by project, newest first.</p>
          {byProject(agentSessions).map(([project, sessions]) => (
            <section key={project} aria-label={project} data-project={project}>
              <h3 className="loupe-recordings__name" title={project}>
                {shortProject(project)}
              </h3>
              <ul className="loupe-recordings__list" aria-label={`Sessions in ${project}`}>
                {sessions.map((s) => (
                  <li key={s.id} data-agent-session={s.name} data-live={s.live || undefined}>
                    <a href={sessionHref(agentSessionPath(s.id, s.name))}>
                      <span className="loupe-recordings__name">{s.title ?? s.name}</span>
                      {s.live ? <span className="loupe-recordings__live">live</span> : null}
                    </a>
                    <span className="loupe-recordings__meta">
                      {s.title ? <span>{s.name}</span> : null}
                      <span>{formatName(s.format)}</span>
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
