import { describe, expect, it } from 'vitest';
import { serverRouteOf, type ServerRoute } from './server';

describe('a request after the token', () => {
  it.each<[string[], ServerRoute]>([
    [[''], { kind: 'page' }],
    [['session'], { kind: 'session' }],
    [['session', 'run.jsonl'], { kind: 'session' }],
    [['compare', 'a.jsonl'], { kind: 'compare' }],
    [['library'], { kind: 'libraryListing' }],
    [['library', 'calls.parquet'], { kind: 'libraryTable', table: 'calls.parquet' }],
    [['library', 'machine=ci-1', 'sessions.parquet'], { kind: 'teamTable', dir: 'machine=ci-1', table: 'sessions.parquet' }],
    [['library', 'file', 'sub', 'b.jsonl'], { kind: 'libraryFile', path: ['sub', 'b.jsonl'] }],
    [['recordings'], { kind: 'recordingsListing' }],
    [['recordings', 'x.jsonl'], { kind: 'recording', name: 'x.jsonl' }],
    [['sessions'], { kind: 'agentSessionsListing' }],
    [['sessions', 'AAA'], { kind: 'agentSession', id: 'AAA' }],
    [['sessions', 'AAA', 's.jsonl'], { kind: 'agentSession', id: 'AAA' }],
    [['assets', 'index-1.js'], { kind: 'asset', path: ['assets', 'index-1.js'] }],
  ])('%j is %j', (segments, route) => {
    expect(serverRouteOf(segments)).toEqual(route);
  });

  it('names nothing of the library or the lists for a path they do not hold, and the rest is a file of the viewer', () => {
    for (const segments of [['library', 'notes.json'], ['library', 'file'], ['library', 'machine=../x', 'calls.parquet'], ['library', 'machine=a', 'index.json']]) {
      expect(serverRouteOf(segments), segments.join('/')).toEqual({ kind: 'notInLibrary' });
    }
    expect(serverRouteOf(['recordings', 'a', 'b'])).toEqual({ kind: 'notListed' });
    expect(serverRouteOf(['sessions', 'a', 'b', 'c'])).toEqual({ kind: 'notListed' });
    expect(serverRouteOf(['session', 'a', 'b'])).toEqual({ kind: 'asset', path: ['session', 'a', 'b'] });
  });
});
