// The app's state (shell.ts) held for React: each action reduced at once, its address written to
// the history as the reducer says (push or replace, in the order the actions came), and Back,
// Forward and an edited #fragment read back in.
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { initialShell, reduceShell, type ShellAction, type ShellState } from './shell';
import { writePageUrl } from './url';

let nextKey = 1;

/** A key for a session newly opened: each viewer is mounted afresh. */
export const newKey = (): number => nextKey++;

export function useShell(): [ShellState, (action: ShellAction) => void] {
  const [state, setState] = useState(() => initialShell(location.search, location.hash, newKey()));
  // The state the next action applies to: actions come faster than renders (a view switched, then
  // a call opened), and each writes its own history entry in turn.
  const latest = useRef(state);

  const dispatch = useCallback((action: ShellAction) => {
    const { state: next, history: write } = reduceShell(latest.current, action);
    if (next === latest.current) return;
    latest.current = next;
    if (write === 'push') history.pushState(null, '', `${location.pathname}${writePageUrl(next.url)}`);
    if (write === 'replace') history.replaceState(null, '', `${location.pathname}${writePageUrl(next.url)}`);
    // Opening mounts a whole viewer: a transition renders it in slices, so picking or dropping a
    // file does not block the page in one long task.
    if (action.type === 'opened') startTransition(() => setState(next));
    else setState(next);
  }, []);

  useEffect(() => {
    const onHash = () => dispatch({ type: 'hashChanged', hash: location.hash });
    const onPop = () => dispatch({ type: 'navigated', search: location.search, hash: location.hash, key: newKey() });
    window.addEventListener('hashchange', onHash);
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('popstate', onPop);
    };
  }, [dispatch]);

  return [state, dispatch];
}
