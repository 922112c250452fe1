import { useEffect, type RefObject } from 'react';
import { useLatestCallback } from './useLatestCallback';

/**
 * With `scope` 'document', keys typed with nothing focused (the page body) reach `onKeyDown` too:
 * a full-page viewer. Keys another control handles, and keys while the view is hidden, do not.
 */
export function useDocumentKeys(scope: 'viewer' | 'document', rootRef: RefObject<HTMLElement | null>, onKeyDown: (e: KeyboardEvent) => void): void {
  const onDocumentKey = useLatestCallback((e: KeyboardEvent) => {
    // Only keys nobody else is handling: focus on the page body, not in another control.
    if (e.defaultPrevented || (e.target !== document.body && e.target !== document.documentElement)) return;
    if (rootRef.current?.closest('[hidden]')) return;
    onKeyDown(e);
  });
  useEffect(() => {
    if (scope !== 'document') return;
    const listener = (e: KeyboardEvent) => onDocumentKey(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [scope, onDocumentKey]);
}
