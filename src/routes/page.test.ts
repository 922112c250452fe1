import { describe, expect, it } from 'vitest';
import { agentSessionPath, comparePath, libraryFilePath, pageSearch, readPageRoute, recordingPath, sessionHref, sessionPath, type PageRoute } from './page';
import { segmentsOf, serverRouteOf } from './server';

describe('the page a ?… names', () => {
  it.each<[string, PageRoute]>([
    ['', { page: 'landing' }],
    ['?src=samples/a.jsonl', { page: 'session', src: 'samples/a.jsonl', vs: null }],
    ['?src=compare/old%20run.jsonl&vs=session/new.jsonl', { page: 'session', src: 'compare/old run.jsonl', vs: 'session/new.jsonl' }],
    ['?library', { page: 'library' }],
    ['?index=https%3A//team.example/loupe/index.json', { page: 'team', index: 'https://team.example/loupe/index.json' }],
    ['?recordings', { page: 'recordings' }],
  ])('%s round-trips: address → route → the same address', (search, route) => {
    expect(readPageRoute(search)).toEqual(route);
    expect(pageSearch(route)).toBe(search);
  });

  it('reads the addresses people and older pages wrote: %2F, + for a space, ?library=, a session before the rest', () => {
    expect(readPageRoute('?src=recordings%2Fb_gemini_2.jsonl')).toEqual({ page: 'session', src: 'recordings/b_gemini_2.jsonl', vs: null });
    expect(readPageRoute('?src=a+b.jsonl&label=Read')).toEqual({ page: 'session', src: 'a b.jsonl', vs: null });
    expect(readPageRoute('?library=')).toEqual({ page: 'library' });
    expect(readPageRoute('?recordings&src=x.jsonl')).toEqual({ page: 'session', src: 'x.jsonl', vs: null });
    // An empty ?src= names no session.
    expect(readPageRoute('?src=&recordings')).toEqual({ page: 'recordings' });
  });

  it('writes a name with &, #, = and spaces so that it reads back the same', () => {
    const src = 'sessions/AAA/a & b #1 = ok.jsonl';
    const href = sessionHref(src, 'http://h.example/x?y=1');
    expect(href).not.toMatch(/#/);
    expect(readPageRoute(href)).toEqual({ page: 'session', src, vs: 'http://h.example/x?y=1' });
  });
});

describe("the server's addresses the page asks for", () => {
  it('each reads back on the server as the route that serves it', () => {
    expect(serverRouteOf(segmentsOf(sessionPath('run.jsonl')))).toEqual({ kind: 'session' });
    expect(serverRouteOf(segmentsOf(comparePath('old run.jsonl')))).toEqual({ kind: 'compare' });
    expect(serverRouteOf(segmentsOf(recordingPath('2026_gemini_1.jsonl')))).toEqual({ kind: 'recording', name: '2026_gemini_1.jsonl' });
    expect(serverRouteOf(segmentsOf(agentSessionPath('AAA', 's.jsonl')))).toEqual({ kind: 'agentSession', id: 'AAA' });
    expect(serverRouteOf(segmentsOf(libraryFilePath('proj/2026%2F12/a b.jsonl')))).toEqual({ kind: 'libraryFile', path: ['proj', '2026%2F12', 'a b.jsonl'] });
  });

  it("a name the viewer could not read back from its address is made safe, and the page's address keeps it", () => {
    expect(sessionPath('50% #2?.jsonl')).toBe('session/50_ _2_.jsonl');
    expect(readPageRoute(sessionHref(sessionPath('a b.jsonl')))).toEqual({ page: 'session', src: 'session/a b.jsonl', vs: null });
  });
});
