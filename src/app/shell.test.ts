import { describe, expect, it } from 'vitest';
import { initialShell, reduceShell, type ShellAction, type ShellState } from './shell';
import { writePageUrl } from './url';

/** The actions in turn from `state`: the last state, and each history write with the address it wrote. */
function run(state: ShellState, ...actions: ShellAction[]): { state: ShellState; writes: string[] } {
  const writes: string[] = [];
  for (const action of actions) {
    const step = reduceShell(state, action);
    state = step.state;
    if (step.history) writes.push(`${step.history} ${writePageUrl(state.url)}`);
  }
  return { state, writes };
}

const dropped = (name: string, key = 10) => ({ key, name, source: { text: `{"name":"${name}"}` } });

describe('the app shell', () => {
  it('opens what the address names, its filter and call with it', () => {
    const state = initialShell('?src=a.jsonl&vs=b.jsonl&label=Read', '#call=c1&run=B', 1);
    expect(state.open).toEqual([{ key: 1, name: 'a.jsonl', source: 'a.jsonl', compareWith: { name: 'b.jsonl', source: 'b.jsonl' } }]);
    expect(state.initialFilter).toEqual({ labels: ['Read'], statuses: [], text: '' });
    expect(state.focus).toEqual({ run: 'B', id: 'c1' });
    expect(initialShell('?library', '', 1).open).toEqual([]);
  });

  it('a file dropped replaces what ?src= named, its filter and call, in place in the history', () => {
    const { state, writes } = run(initialShell('?src=a.jsonl&q=x', '#call=c1', 1), { type: 'opened', sessions: [dropped('d.jsonl')] });
    expect(state.open.map((s) => s.name)).toEqual(['d.jsonl']);
    expect([state.initialFilter, state.focus, state.openedSrc]).toEqual([{}, null, null]);
    expect(writes).toEqual(['replace ']);
  });

  it('each view switched to is a step Back undoes, and Back keeps a dropped file open', () => {
    const start = run(initialShell('', '', 1), { type: 'opened', sessions: [dropped('d.jsonl')] }).state;
    const { state, writes } = run(start, { type: 'viewChosen', view: 'stats' }, { type: 'viewChosen', view: 'stats' }, { type: 'callOpened', call: { run: 'A', id: 'c 1' } }, { type: 'viewChosen', view: 'usage' });
    expect(writes).toEqual(['push #view=stats', 'replace #view=stats&call=c+1', 'push #view=usage&call=c+1']);
    // Back: the browser is at the entry before; the file stays, the view and call follow.
    const back = reduceShell(state, { type: 'navigated', search: '', hash: '#view=stats&call=c+1', key: 99 });
    expect(back.history).toBeNull();
    expect(back.state.open).toBe(state.open);
    expect([back.state.url.view, back.state.focus]).toEqual(['stats', { run: 'A', id: 'c 1' }]);
  });

  it('a call the viewer opened goes into the address, and the viewer is not sent to it again', () => {
    const { state } = run(initialShell('?src=a.jsonl', '', 1), { type: 'callOpened', call: { run: 'A', id: 'c2' } });
    expect(state.url.call).toEqual({ run: 'A', id: 'c2' });
    expect(state.focus).toBeNull();
  });

  it('a filter set rewrites the address in place and leaves the viewer as it is', () => {
    const start = initialShell('?src=a.jsonl&vs=b.jsonl', '', 1);
    const { state, writes } = run(start, { type: 'filterChanged', filter: { labels: ['Run Command'], statuses: ['failed'], text: 'npm test' } });
    expect(writes).toEqual(['replace ?src=a.jsonl&vs=b.jsonl&label=Run%20Command&status=failed&q=npm%20test']);
    expect(state.open).toBe(start.open);
    expect(state.initialFilter).toBe(start.initialFilter);
  });

  it('closing a comparison the address names is a step Back undoes; a call of A stays open, one of B does not', () => {
    const compared = initialShell('?src=a.jsonl&vs=b.jsonl', '#call=c1', 1);
    const closed = run(compared, { type: 'compareClosed' });
    expect(closed.writes).toEqual(['push ?src=a.jsonl#call=c1']);
    expect(closed.state.open[0]?.compareWith).toBeUndefined();
    expect(closed.state.focus).toEqual({ run: 'A', id: 'c1' });
    expect(run(initialShell('?src=a.jsonl&vs=b.jsonl', '#call=c1&run=B', 1), { type: 'compareClosed' }).writes).toEqual(['push ?src=a.jsonl']);
    // Back: the same run A, compared again (its viewer kept, so A is not read again).
    const back = reduceShell(closed.state, { type: 'navigated', search: '?src=a.jsonl&vs=b.jsonl', hash: '#call=c1', key: 2 }).state;
    expect(back.open).toEqual([{ key: 1, name: 'a.jsonl', source: 'a.jsonl', compareWith: { name: 'b.jsonl', source: 'b.jsonl' } }]);
    // Forward: alone again.
    expect(reduceShell(back, { type: 'navigated', search: '?src=a.jsonl', hash: '#call=c1', key: 3 }).state.open[0]?.compareWith).toBeUndefined();
  });

  it('a file picked to compare with stays through Back and Forward, and closing it writes nothing', () => {
    const file = { name: 'b.jsonl', source: { text: 'b' } };
    const { state, writes } = run(initialShell('?src=a.jsonl', '', 1), { type: 'compareChosen', compareWith: file });
    expect(writes).toEqual([]);
    expect(reduceShell(state, { type: 'navigated', search: '?src=a.jsonl', hash: '#view=stats', key: 2 }).state.open[0]?.compareWith).toBe(file);
    expect(reduceShell(state, { type: 'compareClosed' }).history).toBeNull();
  });

  it('an address naming another source opens it in place of what was open', () => {
    const start = run(initialShell('?src=a.jsonl', '', 1), { type: 'opened', sessions: [dropped('d.jsonl'), dropped('e.jsonl', 11)] }, { type: 'tabChosen', index: 1 }).state;
    const next = reduceShell(start, { type: 'navigated', search: '?src=a.jsonl&label=Read', hash: '', key: 5 }).state;
    expect(next.open).toEqual([{ key: 5, name: 'a.jsonl', source: 'a.jsonl' }]);
    expect([next.active, next.openedSrc, next.initialFilter]).toEqual([0, 'a.jsonl', { labels: ['Read'], statuses: [], text: '' }]);
  });

  it('a folder picked shows its library; "Library" comes back to it from a session of it', () => {
    const folder = { key: 7, files: [] };
    const picked = run(initialShell('?src=a.jsonl', '', 1), { type: 'folderPicked', folder });
    expect(picked.writes).toEqual(['replace ']);
    expect([picked.state.folder, picked.state.open]).toEqual([folder, []]);
    const back = run(picked.state, { type: 'opened', sessions: [dropped('d.jsonl')] }, { type: 'libraryShown' }).state;
    expect([back.folder, back.open]).toEqual([folder, []]);
  });
});
