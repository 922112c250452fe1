// Computes line diffs off the main thread: a big Edit must not freeze the page.
import { computeLineDiff, type LineDiff } from './lineDiff';

export interface DiffRequest {
  id: number;
  oldText: string;
  newText: string;
}
export interface DiffResponse {
  id: number;
  diff: LineDiff;
}

const scope = self as unknown as {
  postMessage(msg: DiffResponse): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<DiffRequest>) => void): void;
};

scope.addEventListener('message', (e) => {
  const { id, oldText, newText } = e.data;
  scope.postMessage({ id, diff: computeLineDiff(oldText, newText) });
});
