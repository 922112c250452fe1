import { describe, expect, it } from 'vitest';
import { readCallId, readFilter, readSrc, writeCallId, writeFilter } from './url';

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
});
