// What a filter keeps, and the counts shown beside each filter option.
import type { DisplayStatus, TranscriptItem } from '../model';

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

export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['pending', 'running', 'done', 'failed', 'unfinished'];

export function isFilterActive(f: Filter): boolean {
  return f.labels.length > 0 || f.statuses.length > 0 || f.text.trim() !== '' || (f.sessions?.length ?? 0) > 0;
}

export function normalizeFilter(f: Partial<Filter> | undefined): Filter {
  const statuses = (f?.statuses ?? []).filter((s): s is DisplayStatus => DISPLAY_STATUSES.includes(s));
  const sessions = [...new Set(f?.sessions ?? [])];
  return { labels: [...new Set(f?.labels ?? [])], statuses: [...new Set(statuses)], text: f?.text ?? '', ...(sessions.length > 0 ? { sessions } : {}) };
}

export function itemHaystack(item: TranscriptItem): string | null {
  switch (item.type) {
    case 'message':
      return item.text.toLowerCase();
    case 'plan':
      return item.entries.map((e) => e.content).join('\n').toLowerCase();
    default:
      return null;
  }
}

export interface Facets {
  labels: { label: string; count: number }[];
  statuses: Record<DisplayStatus, number>;
  total: number;
}

export function facetsFrom(labels: ReadonlyMap<string, number>, statuses: Record<DisplayStatus, number>, total: number): Facets {
  return {
    // Code-unit order for ties, not localeCompare: this runs on every delta, over every label
    // (50,000 of them in a hostile file), and localeCompare is many times slower.
    labels: [...labels].map(([label, count]) => ({ label, count })).sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)),
    statuses: { ...statuses },
    total,
  };
}
