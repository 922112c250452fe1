// What a filter keeps (`filterRows`: the rules), and the counts shown beside each filter option.
import type { Map as PMap } from 'immutable';
import { sessionOfItem } from '../analysis/insights';
import { callSearchText } from '../model/search';
import { displayStatus, isDisplayStatus } from '../model/status';
import type { CallSummary, DisplayStatus, TerminalState, TranscriptItem } from '../model';
import type { SessionState } from './sessionState';

export interface Filter {
  /** Keep calls with one of these labels (empty: any label). */
  labels: string[];
  /** Keep calls with one of these display statuses (empty: any status). */
  statuses: DisplayStatus[];
  /** Case-insensitive text over subjects, titles, and each call's input and output. */
  text: string;
  /**
   * Keep the rows of these sessions (absent or empty: every session); `NO_SESSION` stands for rows
   * that name none. Absent rather than empty in a normalized filter.
   */
  sessions?: string[];
}

/** The session id a filter uses for rows that name no session. */
export const NO_SESSION = '';

export const EMPTY_FILTER: Filter = { labels: [], statuses: [], text: '', sessions: [] };

export function isFilterActive(f: Filter): boolean {
  return f.labels.length > 0 || f.statuses.length > 0 || f.text.trim() !== '' || (f.sessions?.length ?? 0) > 0;
}

export function normalizeFilter(f: Partial<Filter> | undefined): Filter {
  const statuses = (f?.statuses ?? []).filter(isDisplayStatus);
  const sessions = [...new Set(f?.sessions ?? [])];
  return { labels: [...new Set(f?.labels ?? [])], statuses: [...new Set(statuses)], text: f?.text ?? '', ...(sessions.length > 0 ? { sessions } : {}) };
}

/** What the filter reads of a session's state. */
export type FilterInput = Pick<SessionState, 'items' | 'rows' | 'calls' | 'terminals' | 'ended' | 'filter' | 'searchHits'>;

/**
 * The rows the filter keeps, as item indices in order; every row when no filter is active. Each
 * filter the function returns keeps the lower-cased text it searched, so a keystroke does not
 * read every call again: a call's text is kept with the call object (a call that changes is a new
 * object) and read again when the terminals change (their output is part of it).
 */
export function createRowFilter(): (state: FilterInput) => readonly number[] {
  let callTexts = new WeakMap<CallSummary, string>();
  let textsOfTerminals: PMap<string, TerminalState> | null = null;
  // Keyed by the item object: a message that grows is a new object, so its text is read again.
  const itemTexts = new WeakMap<TranscriptItem, string | null>();

  const callText = (call: CallSummary, terminals: PMap<string, TerminalState>): string => {
    if (terminals !== textsOfTerminals) {
      callTexts = new WeakMap();
      textsOfTerminals = terminals;
    }
    let h = callTexts.get(call);
    if (h === undefined) {
      // Everything the free-text filter searches for one call: its names, input and output.
      h = callSearchText(call, terminals);
      callTexts.set(call, h);
    }
    return h;
  };
  const itemText = (item: TranscriptItem): string | null => {
    let h = itemTexts.get(item);
    if (h === undefined) {
      h = itemHaystack(item);
      itemTexts.set(item, h);
    }
    return h;
  };

  return ({ items, rows, calls, terminals, ended, filter, searchHits }) => {
    if (!isFilterActive(filter)) return rows.indices();
    const labels = new Set(filter.labels);
    const statuses = new Set(filter.statuses);
    const text = filter.text.trim().toLowerCase();
    const callsOnly = labels.size > 0 || statuses.size > 0;
    const sessions = new Set(filter.sessions);
    const out: number[] = [];
    let i = -1;
    for (const it of items) {
      i++;
      if (!isRow(it)) continue;
      if (sessions.size > 0 && !sessions.has(sessionOfItem(it, calls) ?? NO_SESSION)) continue;
      if (it.type === 'call') {
        const call = calls.get(it.callKey);
        if (!call) continue;
        if (labels.size > 0 && !labels.has(call.label)) continue;
        if (statuses.size > 0 && !statuses.has(displayStatus(call, ended))) continue;
        if (text && !callText(call, terminals).includes(text) && !(searchHits.text === text && searchHits.keys.has(call.key))) continue;
        out.push(i);
      } else if (!callsOnly && !text) {
        // Only a session is chosen: its messages, plans and turns are shown with its calls.
        out.push(i);
      } else if (!callsOnly && text) {
        const h = itemText(it);
        if (h !== null && h.includes(text)) out.push(i);
      }
    }
    return out;
  };
}

/** Whether an item is a transcript row: every kind but usage reports (the meter and the Usage view show those). */
export function isRow(item: TranscriptItem): boolean {
  return item.type !== 'usage';
}

export function itemHaystack(item: TranscriptItem): string | null {
  switch (item.type) {
    case 'message':
      return item.text.toLowerCase();
    case 'plan':
      return item.entries.map((e) => e.content).join('\n').toLowerCase();
    case 'event':
      // An agent's stderr line and a tee text line that is not JSON: the event is that text.
      return typeof item.raw === 'string' && item.summary !== undefined ? item.summary.toLowerCase() : null;
    default:
      return null;
  }
}

export interface Facets {
  labels: { label: string; count: number }[];
  statuses: Record<DisplayStatus, number>;
  total: number;
}

export function facetsFrom(labels: Iterable<[string, number]>, statuses: Record<DisplayStatus, number>, total: number): Facets {
  return {
    // Code-unit order for ties, not localeCompare: this runs on every delta, over every label
    // (50,000 of them in a hostile file), and localeCompare is many times slower.
    labels: [...labels].map(([label, count]) => ({ label, count })).sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)),
    statuses: { ...statuses },
    total,
  };
}
