// The recordings `loupe tee` made, as `loupe open` (no PATH) serves them: newest first, the ones
// still being written marked live. Opening one loads `?src=recordings/NAME`, which the server
// keeps open while tee writes it.
import { useEffect, useState } from 'react';
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

// Often enough that a new run shows up and a finished one loses its badge while the page is open.
const REFRESH_MS = 2000;

export function Recordings() {
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);

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
    </div>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
