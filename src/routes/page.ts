// What the page's address (?…) names, and the addresses on a `loupe open` server the page reads
// sessions and listings from. Declared once: the server builds the address it prints and parses
// the requests it answers with these, the page reads its address and makes its links with them.

/** The page a `?…` names; a session (`?src=`) first, as the app has always read it. */
export type PageRoute =
  | { page: 'landing' }
  /** `?src=A` (and `&vs=B`, a second run compared with it step by step). */
  | { page: 'session'; src: string; vs: string | null }
  /** `?library`: `loupe open DIR`'s library, from its server. */
  | { page: 'library' }
  /** `?index=URL`: a team's index.json on a static web host, read with no Loupe server. */
  | { page: 'team'; index: string }
  /** `?recordings`: what `loupe open` with no path lists (tee's recordings, agents' own logs). */
  | { page: 'recordings' };

export const LANDING: PageRoute = { page: 'landing' };

/** The page `search` names; an empty `?src=` names none. */
export function readPageRoute(search: string): PageRoute {
  const params = new URLSearchParams(search);
  const src = params.get('src');
  if (src) return { page: 'session', src, vs: params.get('vs') };
  if (params.has('library')) return { page: 'library' };
  const index = params.get('index');
  if (index !== null) return { page: 'team', index };
  if (params.has('recordings')) return { page: 'recordings' };
  return LANDING;
}

/** A query's parameters in order; a null value writes the bare key (`?library`). */
export type QueryParams = readonly (readonly [key: string, value: string | null])[];

/** The parameters naming `route`, in the order its address has them. */
export function routeParams(route: PageRoute): QueryParams {
  switch (route.page) {
    case 'landing':
      return [];
    case 'session':
      return route.vs === null ? [['src', route.src]] : [['src', route.src], ['vs', route.vs]];
    case 'library':
      return [['library', null]];
    case 'team':
      return [['index', route.index]];
    case 'recordings':
      return [['recordings', null]];
  }
}

/**
 * `?k=v&…`, or '' for none. Values are encoded as components, `/` left as it is (a query may hold
 * it), so an address stays readable: `?src=session/run.jsonl`.
 */
export function formatQuery(params: QueryParams): string {
  if (params.length === 0) return '';
  const encode = (text: string) => encodeURIComponent(text).replaceAll('%2F', '/');
  return `?${params.map(([key, value]) => (value === null ? encode(key) : `${encode(key)}=${encode(value)}`)).join('&')}`;
}

/** The address of `route`: `formatQuery(routeParams(route))`. */
export function pageSearch(route: PageRoute): string {
  return formatQuery(routeParams(route));
}

/** A link to a session the page reads from `src` (a URL, or a path on its server). */
export function sessionHref(src: string, vs: string | null = null): string {
  return pageSearch({ page: 'session', src, vs });
}

// ---------------------------------------------------------------------------------------------
// The server's addresses, relative to the page (`http://127.0.0.1:PORT/TOKEN/`).

/** The listings the page fetches (their shapes are in listings.ts). */
export const LISTING = { library: 'library', recordings: 'recordings', agentSessions: 'sessions' } as const;

/** The index's tables, served under `library/` (and `library/machine=NAME/` in a team's index). */
export const LIBRARY_TABLES = ['sessions.parquet', 'calls.parquet'] as const;
export type LibraryTable = (typeof LIBRARY_TABLES)[number];

/**
 * Characters a name in an address would not read back as: `%`, `#`, `?` and `\`. The viewer names
 * what it shows after the last segment of its address, so a name is made safe, not encoded twice.
 */
const addressName = (name: string): string => name.replace(/[%#?\\]/g, '_');

/** The session `loupe open FILE` serves; NAME only labels it. */
export const sessionPath = (name: string): string => `session/${addressName(name)}`;
/** The run it is compared with (`loupe open B --vs A`). */
export const comparePath = (name: string): string => `compare/${addressName(name)}`;
/** A recording `loupe tee` made, by its file name in the recordings folder. */
export const recordingPath = (name: string): string => `recordings/${name}`;
/** A session an agent logged itself, by the id its listing gave it; NAME only labels it. */
export const agentSessionPath = (id: string, name: string): string => `sessions/${id}/${name}`;
/** A file of the library's folder, by its path in it (`/`-separated); each segment is encoded, so a `/` inside a name stays one segment. */
export const libraryFilePath = (path: string): string => `library/file/${path.split('/').map(encodeURIComponent).join('/')}`;
