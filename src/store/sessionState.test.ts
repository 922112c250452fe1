// The store's reducer, event by event: what each event changes, that it leaves the state it was
// given as it was, and that an event that changes nothing gives back the same state.
import { describe, expect, it } from 'vitest';
import type { CallStatus, ToolCall } from '../model';
import { arrivalOf, initialSessionState, reduceSession, type SessionEvent, type SessionState } from './sessionState';
import { agentMessage, delta } from './testing/stores';

const loc = (line: number) => ({ line, offset: 0, length: 0 });
const call = (id: string, status: CallStatus, label = 'Run Command', line = 1): ToolCall => ({
  key: `s:${id}`, id, sessionId: 's', ordinal: id.charCodeAt(0) - 97, firstLine: line, status, label, subject: null, invalidEnvelopes: 0, detail: 'full', meta: {}, history: [],
});
const callItem = (id: string, line: number) => ({ type: 'call' as const, loc: loc(line), callKey: `s:${id}` });
const usageItem = (line: number) => ({ type: 'usage' as const, loc: loc(line), sessionId: 's', usage: { inputTokens: 10, outputTokens: 2 } });

/** The states after each event in turn, from the initial state. */
function run(...events: SessionEvent[]): SessionState {
  return events.reduce(reduceSession, initialSessionState());
}

/** A session of two calls (one running, one done) after a message and a usage report. */
const twoCalls: SessionEvent = {
  type: 'delta',
  now: 1000,
  delta: delta({
    items: [agentMessage('hello'), usageItem(2), callItem('a', 3), callItem('b', 4)],
    calls: [
      { call: call('a', 'in_progress', 'Run Command', 3), historyFrom: 0 },
      { call: call('b', 'completed', 'Edit', 4), historyFrom: 0 },
    ],
    counts: { lines: 4, events: 4, unknown: 0, bad: 0 },
    progress: { bytesRead: 400, records: 4 },
  }),
};

describe('the session reducer', () => {
  it('a delta adds its items, rows (not usage reports), calls, counts and usage, and leaves the state it was given as it was', () => {
    const before = initialSessionState();
    const after = reduceSession(before, twoCalls);
    expect(after.items.size).toBe(4);
    expect(after.rows.indices()).toEqual([0, 2, 3]);
    expect([...after.calls.keys()]).toEqual(['s:a', 's:b']);
    expect(after.statusCounts).toMatchObject({ running: 1, done: 1 });
    expect([...after.labelCounts]).toEqual([['Run Command', 1], ['Edit', 1]]);
    expect(after.idToKey.get('a')).toBe('s:a');
    expect(arrivalOf(after.arrivals, after.calls.get('s:b')!)).toBe(1000);
    expect(after.usage.get('s')).toMatchObject({ reports: 1, inputTokens: 10, outputTokens: 2 });
    expect(after.load.progress.bytesRead).toBe(400);
    expect(after.counts.lines).toBe(4);
    expect(before).toEqual(initialSessionState());
  });

  it('a later delta updates a call: it is counted under its new status and keeps when it first arrived', () => {
    const after = run(twoCalls, { type: 'delta', now: 5000, delta: delta({ itemsFrom: 4, calls: [{ call: call('a', 'failed'), historyFrom: 0 }] }) });
    expect(after.calls.get('s:a')?.status).toBe('failed');
    expect(after.statusCounts).toMatchObject({ running: 0, done: 1, failed: 1 });
    expect(arrivalOf(after.arrivals, after.calls.get('s:a')!)).toBe(1000);
    expect(after.items.size).toBe(4);
  });

  it('a call new in a later delta arrived when that delta did; the calls before keep their time', () => {
    const after = run(twoCalls, { type: 'delta', now: 7000, delta: delta({ itemsFrom: 4, items: [callItem('c', 5)], calls: [{ call: call('c', 'pending', 'Read', 5), historyFrom: 0 }] }) });
    expect(['a', 'b', 'c'].map((id) => arrivalOf(after.arrivals, after.calls.get(`s:${id}`)!))).toEqual([1000, 1000, 7000]);
  });

  it('the end of the input turns the calls still open unfinished', () => {
    const after = run(twoCalls, { type: 'delta', now: 0, delta: delta({ itemsFrom: 4, ended: true }) });
    expect(after.ended).toBe(true);
    expect(after.statusCounts).toMatchObject({ running: 0, unfinished: 1, done: 1 });
  });

  it('a delta that sends items again from an index replaces them, and takes back a usage report it replaced', () => {
    const after = run(twoCalls, { type: 'delta', now: 0, delta: delta({ itemsFrom: 1, items: [agentMessage('instead', 2)] }) });
    expect(after.items.map((it) => it.type).toArray()).toEqual(['message', 'message']);
    expect(after.rows.indices()).toEqual([0, 1]);
    expect(after.usage.size).toBe(0);
  });

  it('reset gives the initial state, keeping the filter', () => {
    const after = run(twoCalls, { type: 'filter', filter: { text: 'x' } }, { type: 'reset' });
    expect(after).toEqual(initialSessionState({ text: 'x' }));
  });

  it('a load state keeps the progress read so far, with the error when there is one', () => {
    const after = run(twoCalls, { type: 'loadState', state: 'error', error: 'gone' });
    expect(after.load).toEqual({ state: 'error', error: 'gone', progress: { bytesRead: 400, records: 4 } });
    expect(reduceSession(after, { type: 'loadState', state: 'done' }).load).toEqual({ state: 'done', progress: { bytesRead: 400, records: 4 } });
  });

  it('a call read again replaces the row only if no delta changed it since it was asked for', () => {
    const state = run(twoCalls);
    const row = state.calls.get('s:a')!;
    const whole = { ...call('a', 'in_progress'), rawOutput: 'all of it' };
    expect(reduceSession(state, { type: 'callRead', call: whole, basedOn: row }).calls.get('s:a')).toBe(whole);
    const changed = reduceSession(state, { type: 'delta', now: 0, delta: delta({ itemsFrom: 4, calls: [{ call: call('a', 'completed'), historyFrom: 0 }] }) });
    expect(reduceSession(changed, { type: 'callRead', call: whole, basedOn: row })).toBe(changed);
    expect(reduceSession(state, { type: 'callRead', call: call('zz', 'completed'), basedOn: row })).toBe(state);
  });

  it('keeps why a call could not be read again, and what the file search found', () => {
    const state = run(twoCalls, { type: 'detailError', key: 's:a', message: 'file gone' }, { type: 'searchHits', text: 'needle', keys: ['s:b'] });
    expect(state.detailErrors.get('s:a')).toBe('file gone');
    expect(state.searchHits.text).toBe('needle');
    expect([...state.searchHits.keys]).toEqual(['s:b']);
  });

  it('a filter is normalized and drops the focus; the same filter again changes nothing', () => {
    const focused = run(twoCalls, { type: 'focus', item: 2 });
    const filtered = reduceSession(focused, { type: 'filter', filter: { labels: ['Edit', 'Edit'], statuses: ['bogus' as never] } });
    expect(filtered.filter).toEqual({ labels: ['Edit'], statuses: [], text: '' });
    expect(filtered.focus).toBeNull();
    expect(reduceSession(filtered, { type: 'filter', filter: { labels: ['Edit'] } })).toBe(filtered);
  });

  it('focus and opened rows are item indices; the same again changes nothing', () => {
    const state = run(twoCalls, { type: 'focus', item: 3 }, { type: 'expand', item: 3, open: true }, { type: 'expand', item: 0, open: true });
    expect(state.focus).toBe(3);
    expect([...state.expanded]).toEqual([3, 0]);
    expect(reduceSession(state, { type: 'focus', item: 3 })).toBe(state);
    expect(reduceSession(state, { type: 'expand', item: 3, open: true })).toBe(state);
    const closed = reduceSession(state, { type: 'expand', item: 3, open: false });
    expect([...closed.expanded]).toEqual([0]);
    expect([...state.expanded]).toEqual([3, 0]);
  });
});
