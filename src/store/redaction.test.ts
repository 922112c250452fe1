import { describe, expect, it } from 'vitest';
import { countKinds } from '../share/exportMarkdown';
import { leakedSecrets, PLANTED_SECRETS, plantedSession } from '../share/testing/plantedCorpus';
import { corpusSession, leaked, secretVariants } from '../share/testing/secretCorpus';
import { loadedStore } from './testing/stores';

const loaded = (redact: boolean) => loadedStore({ kind: 'text', text: plantedSession(), redact });

describe('a session read redacted', () => {
  it('holds no planted secret and lists what was replaced', async () => {
    const store = await loaded(true);
    const snap = store.getSnapshot();
    expect(leakedSecrets(JSON.stringify([snap.items, snap.calls, snap.terminals]))).toEqual([]);
    expect(snap.redaction?.findings.size).toBeGreaterThan(PLANTED_SECRETS.length);
    // Searching for a secret finds nothing: its text is not in the page.
    store.setFilter({ text: PLANTED_SECRETS[0]!.value });
    expect(store.getSnapshot().shownRows).toEqual([]);
    store.setFilter({ text: '‹aws-access-key›' });
    expect(store.getSnapshot().shownRows.length).toBeGreaterThan(0);
  });

  it('is not marked redacted when read as it is', async () => {
    const snap = (await loaded(false)).getSnapshot();
    expect(snap.redaction).toBeNull();
    expect(leakedSecrets(JSON.stringify([snap.items, snap.calls, snap.terminals]))).not.toEqual([]);
  });
});

describe('the secret corpus read redacted', () => {
  const variants = secretVariants();

  it('shows no variant in any row, call or terminal: messages streamed in chunks and stderr lines read joined', async () => {
    const store = await loadedStore({ kind: 'text', text: corpusSession(), redact: true });
    const snap = store.getSnapshot();
    expect(leaked(JSON.stringify([snap.items, snap.calls, snap.terminals]), variants)).toEqual([]);
    // Each secret is counted once in the Secrets panel's list, in each of the four places (the
    // call's command and output are two), whichever records it was cut across.
    const kinds = countKinds(snap.redaction?.findings ?? []);
    expect(kinds.get('anthropic-oauth-token')).toBe(2 * 5);
    expect(kinds.get('telegram-bot-token')).toBe(5);
    // A message holds the kind where the secret was, once.
    const message = snap.items.find((item) => item.type === 'message' && item.text.includes('refresh with'));
    expect(message?.type === 'message' && message.text).toBe('Here is what I found:\nrefresh with ‹anthropic-oauth-token›');
  });
});
