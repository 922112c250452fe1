// The page's address as one value (`PageUrl`): the page its `?…` names (src/routes/page.ts: `?src=`
// and `?vs=`, `?library`, `?index=`, `?recordings`), the viewer's filter beside it (label=,
// status=, q=, session=), and in the #fragment the view and the call opened
// (#view=<view>&call=<id>, `&run=B` for a call of run B in a comparison). Read and written here
// only, as pure functions.
import { VIEWS, type CompareCall, type Filter, type ViewName } from '../embed';
import { formatQuery, readPageRoute, routeParams, type PageRoute, type QueryParams } from '../routes/page';

export interface PageUrl {
  route: PageRoute;
  /** The viewer's filter, as the address keeps it. */
  filter: Filter;
  view: ViewName;
  /** The call opened: run A's (the session's, when there is no comparison) or run B's. */
  call: CompareCall | null;
}

export const NO_FILTER: Filter = { labels: [], statuses: [], text: '' };

export function readPageUrl(search: string, hash: string): PageUrl {
  return { route: readPageRoute(search), filter: readFilter(search), view: readView(hash), call: readCall(hash) };
}

/** `?…#…` of `url` (either part left out when empty); `readPageUrl` reads it back the same. */
export function writePageUrl(url: PageUrl): string {
  return `${formatQuery([...routeParams(url.route), ...filterParams(url.filter)])}${writeHash(url.view, url.call)}`;
}

function readFilter(search: string): Filter {
  const p = new URLSearchParams(search);
  return {
    labels: p.getAll('label'),
    statuses: p.getAll('status') as Filter['statuses'],
    text: p.get('q') ?? '',
    ...(p.has('session') ? { sessions: p.getAll('session') } : {}),
  };
}

function filterParams(f: Filter): QueryParams {
  return [
    ...f.labels.map((label) => ['label', label] as const),
    ...f.statuses.map((status) => ['status', status] as const),
    ...(f.text ? [['q', f.text] as const] : []),
    ...(f.sessions ?? []).map((session) => ['session', session] as const),
  ];
}

const hashParams = (hash: string) => new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);

function readView(hash: string): ViewName {
  const v = hashParams(hash).get('view');
  return VIEWS.find((name) => name === v) ?? 'transcript';
}

/** `#call=ID` is run A's, as in the view of A alone (so a link made there opens the same call beside B); `&run=B` makes it B's. */
function readCall(hash: string): CompareCall | null {
  const p = hashParams(hash);
  const id = p.get('call');
  return id ? { run: p.get('run') === 'B' ? 'B' : 'A', id } : null;
}

function writeHash(view: ViewName, call: CompareCall | null): string {
  const p = new URLSearchParams();
  if (view !== 'transcript') p.set('view', view);
  if (call) p.set('call', call.id);
  if (call?.run === 'B') p.set('run', 'B');
  const s = p.toString();
  return s ? `#${s}` : '';
}
