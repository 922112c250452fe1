import { describe, expect, it } from 'vitest';
import { readCallId, readCompareCall, readFilter, readSrc, readView, readVs, writeCallId, writeCompareCall, writeFilter, writeVs } from './url';

describe('page URL', () => {
  it('round-trips the filter next to ?src', () => {
    const search = writeFilter('?src=samples/a.jsonl', { labels: ['Run Command', 'Read'], statuses: ['failed'], text: 'sleep 45' });
    expect(readSrc(search)).toBe('samples/a.jsonl');
    expect(readFilter(search)).toEqual({ labels: ['Run Command', 'Read'], statuses: ['failed'], text: 'sleep 45' });
    expect(writeFilter(search, { labels: [], statuses: [], text: '' })).toBe('?src=samples%2Fa.jsonl');
  });

  it('round-trips call ids with awkward characters', () => {
    const id = 'call-1 & #2';
    expect(readCallId(writeCallId(id))).toBe(id);
    expect(readCallId('')).toBeNull();
  });

  it('keeps the chosen sessions as session= and the view beside the call in the hash', () => {
    const search = writeFilter('?src=a.jsonl', { labels: [], statuses: [], text: '', sessions: ['s-1', 's 2'] });
    expect(readFilter(search)).toEqual({ labels: [], statuses: [], text: '', sessions: ['s-1', 's 2'] });
    expect(readFilter('?src=a.jsonl')).toEqual({ labels: [], statuses: [], text: '' });
    const hash = writeCallId('call-7', 'timeline');
    expect([readView(hash), readCallId(hash)]).toEqual(['timeline', 'call-7']);
    expect(writeCallId(null, 'stats')).toBe('#view=stats');
    expect(writeCallId(null, 'transcript')).toBe('');
    expect(readView('#view=bogus')).toBe('transcript');
  });

  it('reads the run to compare with from ?vs=, kept when the filter is written', () => {
    const search = writeFilter('?src=a.jsonl&vs=b%20run.jsonl', { labels: ['Read'], statuses: [], text: '' });
    expect([readSrc(search), readVs(search)]).toEqual(['a.jsonl', 'b run.jsonl']);
    expect(readVs('?src=a.jsonl')).toBeNull();
  });

  it("names the call opened in the compare view by run: A's as the view of A alone names it, B's with run=B", () => {
    expect(readCompareCall(writeCompareCall({ run: 'B', id: 'call 1 & #2' }))).toEqual({ run: 'B', id: 'call 1 & #2' });
    expect(writeCompareCall({ run: 'A', id: 'call-7' })).toBe(writeCallId('call-7'));
    expect(readCompareCall(writeCallId('call-7'))).toEqual({ run: 'A', id: 'call-7' });
    expect(readCompareCall('')).toBeNull();
    expect(writeVs('?src=a.jsonl&vs=b.jsonl&label=Read', null)).toBe('?src=a.jsonl&label=Read');
    expect(readVs(writeVs('?src=a.jsonl', 'b run.jsonl'))).toBe('b run.jsonl');
  });
});
