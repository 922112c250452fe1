import { useSyncExternalStore } from 'react';
import type { SessionSnapshot, SessionStore } from '../store/createSessionStore';

export function useSessionSnapshot(store: SessionStore): SessionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

const QUERY = '(prefers-color-scheme: dark)';

function subscribeScheme(fn: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const mq = matchMedia(QUERY);
  mq.addEventListener('change', fn);
  return () => mq.removeEventListener('change', fn);
}

export function useSystemDark(): boolean {
  return useSyncExternalStore(
    subscribeScheme,
    () => typeof matchMedia === 'function' && matchMedia(QUERY).matches,
    () => false,
  );
}
