// Test helpers for the store: a store with a source read into it, and deltas made by hand.
import { createInThreadLoader } from '../../worker/loader';
import type { PumpOptions } from '../../worker/pump';
import type { LoadSource, SessionDelta } from '../../worker/protocol';
import { createSessionController } from '../sessionController';
import { createSessionStore, type SessionStore } from '../createSessionStore';
import type { Filter } from '../filter';

/** A new store with `source` (text, or any load source) read into it through the in-thread loader. */
export async function loadedStore(source: string | LoadSource, options: { initialFilter?: Partial<Filter>; loader?: PumpOptions } = {}): Promise<SessionStore> {
  const store = createSessionStore(options.initialFilter ? { initialFilter: options.initialFilter } : {});
  const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0, ...options.loader }));
  await ctl.load(typeof source === 'string' ? { kind: 'text', text: source } : source);
  return store;
}

/** A delta the way the pump sends one (nothing in it but what `over` gives), for driving the store by hand. */
export function delta(over: Partial<SessionDelta>): SessionDelta {
  return {
    itemsFrom: 0, items: [], calls: [], terminals: [], counts: { lines: 0, events: 0, unknown: 0, bad: 0 }, format: 'acp-updates',
    chain: null, sessionIdsFrom: 0, sessionIds: [], badFrom: 0, bad: [], warningsFrom: 0, warnings: [], ended: false,
    progress: { bytesRead: 0, records: 0 }, ...over,
  };
}

const loc = (line: number) => ({ line, offset: 0, length: 0 });

/** An agent message item at `line`. */
export const agentMessage = (text: string, line = 1) => ({ type: 'message' as const, role: 'agent' as const, loc: loc(line), sessionId: null, blocks: [], text });
