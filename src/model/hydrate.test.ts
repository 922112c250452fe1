import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { blobReader, hydrateCall, ingest } from './index';

test('a light call, opened, has the content, raw output and inputs the full reading has', async () => {
  const bytes = readFileSync('fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
  const full = await ingest(bytes, { detail: 'full' });
  const light = await ingest(bytes, { detail: 'light' });
  const read = blobReader(new Blob([bytes]));
  expect(light.calls.size).toBe(full.calls.size);
  for (const [key, lightCall] of light.calls) {
    const fullCall = full.calls.get(key)!;
    expect(lightCall.content).toBeUndefined();
    const read_ = await hydrateCall(lightCall, read);
    if (!read_.ok) throw new Error(read_.error);
    const opened = read_.value;
    expect(opened.content).toEqual(fullCall.content);
    expect(opened.rawInput).toEqual(fullCall.rawInput);
    expect(opened.rawOutput).toEqual(fullCall.rawOutput);
    expect(opened.permission).toEqual(fullCall.permission);
    expect([opened.label, opened.subject, opened.status]).toEqual([fullCall.label, fullCall.subject, fullCall.status]);
  }
  // The diffs the Edit view draws come back from the source.
  expect([...full.calls.values()].some((call) => call.content?.some((c) => c.type === 'diff'))).toBe(true);
});

test('a light call whose lines cannot be read, or no longer hold it, says why instead of coming back as it was', async () => {
  const bytes = readFileSync('fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl');
  const light = await ingest(bytes, { detail: 'light' });
  const call = [...light.calls.values()][0]!;
  const unreadable = await hydrateCall(call, () => Promise.reject(new Error('the file was moved')));
  expect(unreadable).toEqual({ ok: false, error: 'the file was moved' });
  const changed = await hydrateCall(call, () => '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"other","update":{"sessionUpdate":"plan","entries":[]}}}');
  expect(changed.ok).toBe(false);
  if (!changed.ok) expect(changed.error).toContain(`no longer hold call ${call.id}`);
});
