import { describe, expect, it } from 'vitest';
import { leakedSecrets, PLANTED_SECRETS, plantedSession } from '../share/redact/plantedCorpus';
import { createInThreadLoader } from '../worker/loader';
import { createSessionController } from './controller';
import { createSessionStore } from './createSessionStore';

async function loaded(redact: boolean) {
  const store = createSessionStore();
  const ctl = createSessionController(store, () => createInThreadLoader({ throttleMs: 0 }));
  await ctl.load({ kind: 'text', text: plantedSession(), redact });
  return store;
}

describe('a session read redacted', () => {
  it('holds no planted secret and lists what was replaced', async () => {
    const store = await loaded(true);
    const snap = store.getSnapshot();
    expect(leakedSecrets(JSON.stringify([snap.items, snap.calls, snap.terminals]))).toEqual([]);
    expect(snap.redaction?.findings.size).toBeGreaterThan(PLANTED_SECRETS.length);
    // Searching for a secret finds nothing: its text is not in the page.
    store.setFilter({ text: PLANTED_SECRETS[0]!.value });
    expect(store.getSnapshot().view).toEqual([]);
    store.setFilter({ text: '‹aws-access-key›' });
    expect(store.getSnapshot().view.length).toBeGreaterThan(0);
  });

  it('is not marked redacted when read as it is', async () => {
    const snap = (await loaded(false)).getSnapshot();
    expect(snap.redaction).toBeNull();
    expect(leakedSecrets(JSON.stringify([snap.items, snap.calls, snap.terminals]))).not.toEqual([]);
  });
});
