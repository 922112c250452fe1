// The page URL holds what to show: ?src=, the filter (label=, status=, q=) and #call=<id>.
import type { Filter } from '../embed';

export function readSrc(search: string): string | null {
  return new URLSearchParams(search).get('src');
}

export function readFilter(search: string): Partial<Filter> {
  const p = new URLSearchParams(search);
  return {
    labels: p.getAll('label'),
    statuses: p.getAll('status') as Filter['statuses'],
    text: p.get('q') ?? '',
  };
}

export function writeFilter(search: string, f: Filter): string {
  const p = new URLSearchParams(search);
  p.delete('label');
  p.delete('status');
  p.delete('q');
  for (const l of f.labels) p.append('label', l);
  for (const s of f.statuses) p.append('status', s);
  if (f.text) p.set('q', f.text);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function readCallId(hash: string): string | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const v = new URLSearchParams(h).get('call');
  return v || null;
}

export function writeCallId(id: string | null): string {
  return id ? `#${new URLSearchParams({ call: id }).toString()}` : '';
}
