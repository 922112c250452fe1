// @vitest-environment jsdom
// The harness's bookkeeping lines in a native log stay events in the accounting, but a run of them
// is one quiet row that opens to list them; a slash command is shown as the command it is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import type { TranscriptItem } from '../../model';
import type { SessionSnapshot } from '../../store/createSessionStore';
import { loadedStore } from '../../store/testing/stores';
import { ItemRow } from './ItemRow';

afterEach(cleanup);

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../../fixtures/native', name), 'utf8');

/** Each shown row: a run of bookkeeping as its size, an event by its name, anything else by its kind. */
function rows(snap: SessionSnapshot): string[] {
  return snap.shownRows.map((index) => {
    const item = snap.items.get(index)!;
    const run = snap.bookkeeping.get(index);
    if (run) return `bookkeeping ×${run.length}`;
    return item.type === 'event' ? `event ${item.name}: ${item.summary ?? ''}` : item.type === 'message' ? `${item.role}` : item.type;
  });
}

test('Claude Code: queue-operations, the caveat, hook progress and last-prompt fold into quiet rows; /model is a command; every line is still an event', async () => {
  const snap = (await loadedStore(fixture('claude-code-2.1.83_via-claude-agent-acp.jsonl'))).getSnapshot();
  expect(snap.counts).toEqual({ lines: 47, events: 47, unknown: 0, bad: 0 });
  const shown = rows(snap);
  // Two queue-operations and the command caveat, before the command.
  expect(shown.slice(0, 4)).toEqual(['bookkeeping ×3', 'event command: /model default', 'event command stdout: Set model to claude-sonnet-4-6', 'user']);
  expect(shown.filter((row) => row.startsWith('event progress') || row.startsWith('event queue-operation'))).toEqual([]);
  const folded = [...snap.bookkeeping.values()].reduce((sum, run) => sum + run.length, 0);
  expect(folded).toBeGreaterThanOrEqual(3 + 14 + 1);
  expect(shown.length).toBeLessThan(snap.items.size - folded + snap.bookkeeping.size + 1);
});

test('Codex: session_meta, turn_context, task_started and the harness context fold into one row', async () => {
  const snap = (await loadedStore(fixture('codex-0.137.0_rollout.jsonl'))).getSnapshot();
  const first = snap.shownRows[0]!;
  const names = snap.bookkeeping.get(first)?.map((index) => {
    const item = snap.items.get(index)!;
    return item.type === 'event' ? item.name : item.type;
  });
  expect(names).toContain('session_meta');
  expect(names).toContain('turn_context');
  expect(names).toContain('event_msg/task_started');
});

test('the row says how many entries it stands for, and lists them when opened', () => {
  const event = (line: number, name: string): TranscriptItem => ({ type: 'event', loc: { line, offset: 0, length: 0 }, name, raw: {}, bookkeeping: true });
  const entries = [event(1, 'queue-operation'), event(2, 'queue-operation'), event(3, 'progress')];
  const props = { item: entries[0]!, call: undefined, ended: true, focused: false, terminals: new Map(), dark: false, onToggle: () => undefined, bookkeeping: entries };
  const closed = render(<ItemRow {...props} open={false} />);
  expect(closed.container.querySelector('[data-kind="bookkeeping"]')?.textContent).toBe('3 bookkeeping entriesqueue-operation, progress');
  cleanup();
  const open = render(<ItemRow {...props} open />);
  expect([...open.container.querySelectorAll('li')].map((li) => li.getAttribute('data-line'))).toEqual(['1', '2', '3']);
});
