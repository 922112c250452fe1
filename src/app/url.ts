// The page URL holds what to show: ?src= (and ?vs=, a second run compared with it), the filter (label=, status=, q=, session=) and
// #view=<view>&call=<id>.
import { VIEWS, type Filter, type ViewName } from '../embed';

export function readSrc(search: string): string | null {
  return new URLSearchParams(search).get('src');
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
