import { useDeferredValue, useEffect, useRef, useState } from 'react';
import type { SessionSnapshot } from '../../store/createSessionStore';

/** Below this many calls every snapshot is derived at once; above, a read in progress is sampled. */
const SAMPLE_FROM_CALLS = 5_000;
/** How often a large session still being read is derived again (each pass is O(calls)). */
const SAMPLE_MS = 750;

/**
 * The snapshot the insight views derive from. While a large session is read, snapshots arrive
 * every few frames and each stats or timeline pass walks every call, so they are sampled; once the
 * read ends (or for a small session) every snapshot is used. Deferred, so input is never held up.
 */
export function useLiveSnapshot(snap: SessionSnapshot): SessionSnapshot {
  const sampling = snap.load.state === 'loading' && snap.calls.size >= SAMPLE_FROM_CALLS;
  const [sampled, setSampled] = useState(snap);
  const lastSample = useRef(-Infinity);
  useEffect(() => {
    if (!sampling) return;
    const wait = Math.max(0, lastSample.current + SAMPLE_MS - performance.now());
    const timer = setTimeout(() => {
      lastSample.current = performance.now();
      setSampled(snap);
    }, wait);
    return () => clearTimeout(timer);
  }, [snap, sampling]);
  // The filter and cursor are the person's, and always current.
  const shown = sampling ? { ...sampled, filter: snap.filter, cursor: snap.cursor, shownRows: snap.shownRows } : snap;
  return useDeferredValue(shown);
}
