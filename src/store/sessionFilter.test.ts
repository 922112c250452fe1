// The transcript shows one session or all: the store's `sessions` filter.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingest } from '../model';
import { sessionOfItem } from '../analysis/insights';
import { loadedStore } from './testing/stores';
import { EMPTY_FILTER } from './filter';

const CODEX = readFileSync(new URL('../../fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl', import.meta.url), 'utf8');

const loaded = (text: string) => loadedStore(text);

describe('session filter', () => {
  it('keeps every row of the chosen session (calls, messages, plans) and nothing of the others', async () => {
    const store = await loaded(CODEX);
    const model = await ingest(CODEX);
    // The session with the most rows, so the test covers messages as well as calls.
    const rowsOf = new Map<string | null, number>();
    for (const it of model.items) rowsOf.set(sessionOfItem(it, model.calls), (rowsOf.get(sessionOfItem(it, model.calls)) ?? 0) + 1);
    const [chosen, rows] = [...rowsOf].filter(([id]) => id !== null).sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
    expect(rows).toBeGreaterThan(1);
    store.setFilter({ sessions: [chosen ?? ''] });
    const s = store.getSnapshot();
    expect(s.filter.sessions).toEqual([chosen]);
    expect(s.shownRows).toHaveLength(rows);
    const calls = s.calls;
    expect(new Set(s.shownRows.map((i) => { const it = s.items.get(i); return it ? sessionOfItem(it, calls) : undefined; }))).toEqual(new Set([chosen]));
    expect(new Set(s.shownRows.map((i) => s.items.get(i)?.type)).size).toBeGreaterThan(1);
  });

  it('combines with a label filter, and clearing filters shows every session again', async () => {
    const store = await loaded(CODEX);
    const all = store.getSnapshot().items.size;
    const first = store.getSnapshot().calls.first();
    expect(first?.sessionId).toBeTruthy();
    store.setFilter({ sessions: [first?.sessionId ?? ''], labels: [first?.label ?? ''] });
    const s = store.getSnapshot();
    const expected = [...s.calls.values()].filter((c) => c.sessionId === first?.sessionId && c.label === first?.label).length;
    expect(s.shownRows).toHaveLength(expected);
    store.setFilter(EMPTY_FILTER);
    // Every row: every item but the usage reports (the header's meter and the Usage view show them).
    const usageReports = [...store.getSnapshot().items].filter((it) => it.type === 'usage').length;
    expect(store.getSnapshot().shownRows).toHaveLength(all - usageReports);
    expect(store.getSnapshot().filter).toEqual({ labels: [], statuses: [], text: '' });
  });
});
