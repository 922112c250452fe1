// The page URL holds what to show: ?src= (and ?vs=, a second run compared with it), the filter (label=, status=, q=, session=) and
// #view=<view>&call=<id>.
import { VIEWS, type CompareCall, type Filter, type ViewName } from '../embed';

export function readSrc(search: string): string | null {
  return new URLSearchParams(search).get('src');
}

/** A team's index on a static web host (`?index=URL` of its index.json): the library, read with no Loupe server. */
export function readIndex(search: string): string | null {
  return new URLSearchParams(search).get('index');
}

/** The run compared with ?src= (issue 20): `?src=A&vs=B` shows A and B aligned step by step. */
export function readVs(search: string): string | null {
  return new URLSearchParams(search).get('vs');
}

export function readFilter(search: string): Partial<Filter> {
  const p = new URLSearchParams(search);
  return {
    labels: p.getAll('label'),
    statuses: p.getAll('status') as Filter['statuses'],
    text: p.get('q') ?? '',
    ...(p.has('session') ? { sessions: p.getAll('session') } : {}),
  };
}

export function writeFilter(search: string, f: Filter): string {
  const p = new URLSearchParams(search);
  p.delete('label');
  p.delete('status');
  p.delete('q');
  p.delete('session');
  for (const l of f.labels) p.append('label', l);
  for (const s of f.statuses) p.append('status', s);
  if (f.text) p.set('q', f.text);
  for (const s of f.sessions ?? []) p.append('session', s);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function readCallId(hash: string): string | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const v = new URLSearchParams(h).get('call');
  return v || null;
}

export function writeCallId(id: string | null, view: ViewName = 'transcript'): string {
  const p = new URLSearchParams();
  if (view !== 'transcript') p.set('view', view);
  if (id) p.set('call', id);
  const s = p.toString();
  return s ? `#${s}` : '';
}

export function readView(hash: string): ViewName {
  const v = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get('view');
  return VIEWS.find((name) => name === v) ?? 'transcript';
}

/**
 * The call opened in the compare view (?src=A&vs=B): `#call=ID` is run A's, as in the view of A
 * alone (so a link made there opens the same call beside B), `#call=ID&run=B` run B's.
 */
export function readCompareCall(hash: string): CompareCall | null {
  const p = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const id = p.get('call');
  return id ? { run: p.get('run') === 'B' ? 'B' : 'A', id } : null;
}

export function writeCompareCall(call: CompareCall | null): string {
  if (call === null) return '';
  const p = new URLSearchParams({ call: call.id });
  if (call.run === 'B') p.set('run', 'B');
  return `#${p.toString()}`;
}

/** `search` with ?vs= set to `vs`, or without it (null). */
export function writeVs(search: string, vs: string | null): string {
  const p = new URLSearchParams(search);
  if (vs === null) p.delete('vs');
  else p.set('vs', vs);
  const s = p.toString();
  return s ? `?${s}` : '';
}
