// The app's state: the address (one `PageUrl`), the sessions open in it, and a folder picked to
// browse. It changes only in `reduceShell`, a pure function of the state and an action, which also
// says how the change goes into the browser's history (a step of its own, or in place).
import type { CompareCall, Filter, SessionSource, ViewName } from '../embed';
import { LANDING } from '../routes/page';
import { NO_FILTER, readPageUrl, type PageUrl } from './url';

/** A session open in a tab of the app. */
export interface OpenSession {
  key: number;
  name: string;
  source: SessionSource;
  /** A second run shown aligned with this one, step by step (?vs=, or "Compare with…"). */
  compareWith?: { name: string; source: SessionSource };
}

export interface ShellState {
  url: PageUrl;
  open: OpenSession[];
  /** The tab shown. */
  active: number;
  /** The ?src= the open sessions came from; null when they were dropped, picked or pasted (or none). */
  openedSrc: string | null;
  /** The files of the folder picked with "Open folder…": its library stays (hidden) while a session of it is open. */
  folder: { key: number; files: File[] } | null;
  /** The filter a newly opened viewer starts with. */
  initialFilter: Partial<Filter>;
  /**
   * The call the viewer is asked to open and scroll to: the address's, when the page starts, on
   * Back and Forward and as a comparison closes. One the viewer opened itself is only written to
   * the address (`url.call`): the viewer is not sent to it again.
   */
  focus: CompareCall | null;
}

export type ShellAction =
  /** Files dropped, picked or pasted: they replace whatever ?src= named, and its filter and call. */
  | { type: 'opened'; sessions: OpenSession[] }
  | { type: 'folderPicked'; folder: { key: number; files: File[] } }
  /** "Library": back to the picked folder's rows. */
  | { type: 'libraryShown' }
  | { type: 'tabChosen'; index: number }
  /** Back, Forward or an edited address: `key` names a session the address opens. */
  | { type: 'navigated'; search: string; hash: string; key: number }
  /** The #fragment edited (its view and call). */
  | { type: 'hashChanged'; hash: string }
  | { type: 'viewChosen'; view: ViewName }
  | { type: 'filterChanged'; filter: Filter }
  /** A call opened (or closed: null) in the single view, or in either run of a comparison. */
  | { type: 'callOpened'; call: CompareCall | null }
  /** "Compare with…": a file picked as run B beside the session shown. */
  | { type: 'compareChosen'; compareWith: { name: string; source: SessionSource } }
  | { type: 'compareClosed' };

/** How a change goes into the history: a step Back undoes, or in place of the current entry. */
export type HistoryWrite = 'push' | 'replace' | null;

export interface ShellStep {
  state: ShellState;
  history: HistoryWrite;
}

/** The state a page starts in from its address; `key` names the session ?src= opens. */
export function initialShell(search: string, hash: string, key: number): ShellState {
  const url = readPageUrl(search, hash);
  const src = srcOf(url);
  return { url, open: sessionsOf(url, key), active: 0, openedSrc: src, folder: null, initialFilter: url.filter, focus: url.call };
}

export function reduceShell(state: ShellState, action: ShellAction): ShellStep {
  switch (action.type) {
    case 'opened':
      if (action.sessions.length === 0) return unchanged(state);
      // The view stays; the call and filter were the other source's.
      return {
        state: { ...state, open: action.sessions, active: 0, openedSrc: null, initialFilter: {}, focus: null, url: { route: LANDING, filter: NO_FILTER, view: state.url.view, call: null } },
        history: 'replace',
      };
    case 'folderPicked':
      return {
        state: { ...state, folder: action.folder, open: [], openedSrc: null, url: { route: LANDING, filter: NO_FILTER, view: state.url.view, call: null } },
        history: 'replace',
      };
    case 'libraryShown':
      return { state: { ...state, open: [] }, history: null };
    case 'tabChosen':
      return { state: { ...state, active: action.index }, history: null };
    case 'navigated':
      return { state: navigated(state, readPageUrl(action.search, action.hash), action.key), history: null };
    case 'hashChanged': {
      const { view, call } = readPageUrl('', action.hash);
      return { state: { ...state, url: { ...state.url, view, call }, focus: call }, history: null };
    }
    case 'viewChosen':
      // Each view switched to is a history entry: Back returns to the view before.
      if (action.view === state.url.view) return unchanged(state);
      return { state: { ...state, url: { ...state.url, view: action.view } }, history: 'push' };
    case 'filterChanged':
      return { state: { ...state, url: { ...state.url, filter: action.filter } }, history: 'replace' };
    case 'callOpened':
      return { state: { ...state, url: { ...state.url, call: action.call } }, history: 'replace' };
    case 'compareChosen':
      return { state: withCompare(state, action.compareWith), history: null };
    case 'compareClosed':
      return compareClosed(state);
  }
}

const unchanged = (state: ShellState): ShellStep => ({ state, history: null });

function srcOf(url: PageUrl): string | null {
  return url.route.page === 'session' ? url.route.src : null;
}

function sessionsOf(url: PageUrl, key: number): OpenSession[] {
  const { route } = url;
  if (route.page !== 'session') return [];
  return [{ key, name: route.src, source: route.src, ...(route.vs !== null ? { compareWith: { name: route.vs, source: route.vs } } : {}) }];
}

/**
 * Back and Forward: the view and call follow the address. What is open stays open unless the
 * address names another source: entries the app made (a view switched, a call opened, a filter
 * set) keep the file they were made on, and a dropped file has no address to come back from, so
 * reading the address again would close it.
 */
function navigated(before: ShellState, url: PageUrl, key: number): ShellState {
  const state = { ...before, url, focus: url.call };
  const src = srcOf(url);
  if (src !== null && src !== state.openedSrc) return { ...state, openedSrc: src, initialFilter: url.filter, open: sessionsOf(url, key), active: 0 };
  if (src === null || url.route.page !== 'session') return state;
  // The same run A: Back and Forward go between it alone and it compared (?vs= added or dropped).
  const { vs } = url.route;
  // A file picked to compare with has no address to come back from: it stays.
  const stays = (s: OpenSession) => (vs === null ? s.compareWith === undefined || typeof s.compareWith.source !== 'string' : s.compareWith?.source === vs);
  return { ...state, open: state.open.map((s) => (stays(s) ? s : withoutCompare(s, vs === null ? undefined : { name: vs, source: vs }))) };
}

function withoutCompare(session: OpenSession, compareWith: OpenSession['compareWith']): OpenSession {
  const { compareWith: _dropped, ...rest } = session;
  return compareWith === undefined ? rest : { ...rest, compareWith };
}

function withCompare(state: ShellState, compareWith: OpenSession['compareWith']): ShellState {
  return { ...state, open: state.open.map((s, i) => (i === state.active ? withoutCompare(s, compareWith) : s)) };
}

/** Closing a comparison the address names is a step of its own: Back returns to it. A call of run B's is not A's to open. */
function compareClosed(state: ShellState): ShellStep {
  const closed = withCompare(state, undefined);
  const { route, call } = state.url;
  if (route.page !== 'session' || route.vs === null) return { state: closed, history: null };
  const callOfA = call?.run === 'A' ? call : null;
  return { state: { ...closed, url: { ...state.url, route: { ...route, vs: null }, call: callOfA }, focus: callOfA }, history: 'push' };
}
