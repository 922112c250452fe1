import { describe, expect, it } from 'vitest';
import { NO_FILTER, readPageUrl, writePageUrl, type PageUrl } from './url';

const at = (address: string): PageUrl => {
  const hash = address.indexOf('#');
  return hash < 0 ? readPageUrl(address, '') : readPageUrl(address.slice(0, hash), address.slice(hash));
};
const session = (src: string, vs: string | null = null) => ({ page: 'session' as const, src, vs });

describe('page URL', () => {
  it.each([
    '',
    '?src=samples/a.jsonl',
    '?src=a.jsonl&label=Run%20Command&label=Read&status=failed&q=sleep%2045',
    '?src=a.jsonl&session=s-1&session=s%202#view=timeline&call=call-7',
    '?src=compare/a.jsonl&vs=session/b.jsonl#call=x&run=B',
    '?library',
    '?recordings',
    '?index=https%3A//team.example/index.json',
    '#view=stats',
  ])('%s round-trips: address → state → the same address', (address) => {
    expect(writePageUrl(at(address))).toBe(address);
  });

  it('round-trips the filter next to ?src', () => {
    const url: PageUrl = { route: session('samples/a.jsonl'), filter: { labels: ['Run Command', 'Read'], statuses: ['failed'], text: 'sleep 45' }, view: 'transcript', call: null };
    expect(at(writePageUrl(url))).toEqual(url);
    expect(writePageUrl({ ...url, filter: NO_FILTER })).toBe('?src=samples/a.jsonl');
  });

  it('round-trips call ids with awkward characters', () => {
    const url: PageUrl = { route: session('a.jsonl'), filter: NO_FILTER, view: 'transcript', call: { run: 'A', id: 'call-1 & #2' } };
    expect(at(writePageUrl(url)).call).toEqual({ run: 'A', id: 'call-1 & #2' });
    expect(at('?src=a.jsonl').call).toBeNull();
  });

  it('keeps the chosen sessions as session= and the view beside the call in the hash', () => {
    expect(at('?src=a.jsonl&session=s-1&session=s%202').filter).toEqual({ labels: [], statuses: [], text: '', sessions: ['s-1', 's 2'] });
    expect(at('?src=a.jsonl').filter).toEqual({ labels: [], statuses: [], text: '' });
    const url = at('?src=a.jsonl#view=timeline&call=call-7');
    expect([url.view, url.call?.id]).toEqual(['timeline', 'call-7']);
    expect(writePageUrl({ ...url, call: null, view: 'stats' })).toBe('?src=a.jsonl#view=stats');
    expect(writePageUrl({ ...url, call: null, view: 'transcript' })).toBe('?src=a.jsonl');
    expect(at('#view=bogus').view).toBe('transcript');
  });

  it('reads the run to compare with from ?vs=, kept when the filter is written', () => {
    const url = at('?src=a.jsonl&vs=b%20run.jsonl');
    expect(url.route).toEqual(session('a.jsonl', 'b run.jsonl'));
    expect(at(writePageUrl({ ...url, filter: { labels: ['Read'], statuses: [], text: '' } })).route).toEqual(session('a.jsonl', 'b run.jsonl'));
    expect(at('?src=a.jsonl').route).toEqual(session('a.jsonl'));
  });

  it("names the call opened in the compare view by run: A's as the view of A alone names it, B's with run=B", () => {
    const compared = at('?src=a.jsonl&vs=b.jsonl');
    expect(at(writePageUrl({ ...compared, call: { run: 'B', id: 'call 1 & #2' } })).call).toEqual({ run: 'B', id: 'call 1 & #2' });
    expect(writePageUrl({ ...compared, call: { run: 'A', id: 'call-7' } })).toBe('?src=a.jsonl&vs=b.jsonl#call=call-7');
    expect(at('?src=a.jsonl#call=call-7').call).toEqual({ run: 'A', id: 'call-7' });
  });

  it('reads the addresses older pages wrote: the search as URLSearchParams wrote it, %2F for a slash', () => {
    expect(at('?src=samples%2Fa.jsonl&label=Run+Command&q=sleep+45')).toEqual(at('?src=samples/a.jsonl&label=Run%20Command&q=sleep%2045'));
  });
});
