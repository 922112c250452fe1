// A stable function that always runs the latest render's callback: what React 19.2's
// `useEffectEvent` does, written with a ref so hosts on React 18.3 (which `peerDependencies`
// accepts) get the same viewer. Call it from effects and event listeners, never during render.
import { useCallback, useLayoutEffect, useRef } from 'react';

export function useLatestCallback<Args extends unknown[], R>(callback: (...args: Args) => R): (...args: Args) => R {
  const latest = useRef(callback);
  // Layout effect: updated before any effect of the same commit can call it.
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
