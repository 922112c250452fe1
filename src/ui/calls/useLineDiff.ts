import { useEffect, useState } from 'react';
import type { DiffRequest, DiffResponse } from './diff.worker';
import { replacedBlockDiff, type LineDiff } from './lineDiff';
import { spawnDiffWorker } from './spawnDiffWorker';

// One worker for the page, started with the first large diff.
let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (diff: LineDiff | null) => void>();

function diffWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = typeof Worker === 'undefined' ? null : spawnDiffWorker();
  } catch {
    worker = null;
  }
  if (worker) {
    worker.addEventListener('message', (e: MessageEvent<DiffResponse>) => {
      waiting.get(e.data.id)?.(e.data.diff);
      waiting.delete(e.data.id);
    });
    // A worker that cannot start (CSP, a failed load) answers every request with the linear diff.
    worker.addEventListener('error', () => {
      worker = null;
      for (const done of waiting.values()) done(null);
      waiting.clear();
    });
  }
  return worker;
}

/** The line diff of two texts, computed off the main thread; null until it arrives. */
export function useLineDiff(oldText: string, newText: string): LineDiff | null {
  const [result, setResult] = useState<{ oldText: string; newText: string; diff: LineDiff } | null>(null);
  useEffect(() => {
    let live = true;
    const settle = (diff: LineDiff | null): void => {
      if (live) setResult({ oldText, newText, diff: diff ?? replacedBlockDiff(oldText, newText) });
    };
    const w = diffWorker();
    if (!w) {
      settle(null);
      return () => {
        live = false;
      };
    }
    const id = nextId++;
    waiting.set(id, settle);
    w.postMessage({ id, oldText, newText } satisfies DiffRequest);
    return () => {
      live = false;
      waiting.delete(id);
    };
  }, [oldText, newText]);
  return result && result.oldText === oldText && result.newText === newText ? result.diff : null;
}
