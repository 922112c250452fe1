import { describe, expect, it } from 'vitest';
import { leakedSecrets, PLANTED_SECRETS, plantedSession } from '../share/testing/plantedCorpus';
import { createLineRedactor } from '../share/redact/redactLine';
import { pump } from './pump';
import type { LoaderEvent, LoadSource, SessionDelta } from './protocol';

async function read(source: LoadSource): Promise<SessionDelta[]> {
  const events: LoaderEvent[] = [];
  await pump(source, (e) => events.push(e), new AbortController().signal, { throttleMs: 0, redactor: () => Promise.resolve(createLineRedactor) });
  expect(events.at(-1)).toEqual({ type: 'done' });
  return events.flatMap((e) => (e.type === 'delta' ? [e.delta] : []));
}

const planted = plantedSession();

describe('a redacted load', () => {
  it('sends the page no planted secret, in rows, calls, terminals or diagnostics', async () => {
    const plain = await read({ kind: 'text', text: planted });
    // The same session unredacted does show them: the check below can fail.
    expect(leakedSecrets(JSON.stringify(plain))).not.toEqual([]);
    const deltas = await read({ kind: 'blob', blob: new Blob([planted]), redact: true });
    expect(leakedSecrets(JSON.stringify(deltas))).toEqual([]);
    expect(JSON.stringify(deltas)).toContain('‹aws-access-key›');
    // Redaction keeps lines where they were: the same calls, the same line count.
    expect(deltas.at(-1)?.counts).toEqual(plain.at(-1)?.counts);
  });

  it('lists each secret replaced with its kind, its line and the call it was in', async () => {
    const deltas = await read({ kind: 'text', text: planted, redact: true });
    const findings = deltas.flatMap((d) => d.findings ?? []);
    expect(deltas.every((d, i) => d.findingsFrom === deltas.slice(0, i).reduce((n, p) => n + (p.findings?.length ?? 0), 0))).toBe(true);
    for (const kind of ['aws-access-key', 'private-key', 'jwt', 'github-token']) expect(findings.map((f) => f.kind)).toContain(kind);
    const lines = planted.split('\n');
    const linesWithSecrets = lines.flatMap((line, index) => (leakedSecrets(line).length ? [index + 1] : []));
    expect([...new Set(findings.map((f) => f.line))].sort((a, b) => a - b)).toEqual(linesWithSecrets);
    // A secret in a tool call's title is in that call.
    const titleLine = lines.findIndex((line) => line.includes('"toolCallId":"title-3"')) + 1;
    expect(titleLine).toBeGreaterThan(0);
    expect(findings.find((f) => f.line === titleLine)?.callKey).toContain('title-3');
  });

  it('redacts records given already parsed', async () => {
    const records = planted.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    const deltas = await read({ kind: 'records', records, redact: true });
    expect(leakedSecrets(JSON.stringify(deltas))).toEqual([]);
    expect(deltas.flatMap((d) => d.findings ?? []).length).toBeGreaterThan(PLANTED_SECRETS.length);
  });

  it('sends no findings for a load that did not ask to redact', async () => {
    const deltas = await read({ kind: 'text', text: planted });
    expect(deltas.some((d) => d.findings !== undefined)).toBe(false);
  });
});

it('fails a redacted load where no ruleset can be loaded, showing nothing unredacted', async () => {
  const events: LoaderEvent[] = [];
  await pump({ kind: 'text', text: planted, redact: true }, (e) => events.push(e), new AbortController().signal, { throttleMs: 0 });
  expect(events.at(-1)).toEqual({ type: 'error', message: 'redaction is not available in this viewer' });
  expect(leakedSecrets(JSON.stringify(events))).toEqual([]);
});

describe('the content hash', () => {
  const hashOf = async (source: LoadSource) => (await read(source)).at(-1)?.contentHash;
  it('names the input: the same bytes however read (redacted too), other bytes another name', async () => {
    const plain = await hashOf({ kind: 'text', text: planted });
    expect(plain).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashOf({ kind: 'blob', blob: new Blob([planted]), redact: true })).toBe(plain);
    expect(await hashOf({ kind: 'text', text: `${planted}\n` })).not.toBe(plain);
  });
});
