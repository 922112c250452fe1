import { useEffect, useState } from 'react';
import { formatDuration } from '../format';

/**
 * How long a running call has been running, ticking once a second. Only rows on screen mount it,
 * so a session with thousands of running calls still runs a handful of timers.
 */
export function Elapsed({ since, className }: { since: number; className?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className={className} data-elapsed title="running for">
      {formatDuration(Math.max(0, now - since))}
    </span>
  );
}
