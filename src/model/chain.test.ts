// The ledger chain's verifier (CONTRACTS §9): every way a chain breaks is named the same whether
// the builder verifies it in place, in any chunking, or sends its lines in batches to a verifier
// elsewhere; a verifier that stops leaves the chain verified here or plainly marked unverified.
import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, test } from 'vitest';
import { SessionBuilder } from './builder';
import { ChainBatcher, ChainVerifier, verifyBatch, type ChainBatch, type ChainReply } from './chain';
import { ingest } from './readSession';
import type { ChainState } from './types';

const ZEROS = '0'.repeat(64);
const hasher = await createBLAKE3();
const hex = (line: string) => hasher.init().update(line).digest('hex');
const short = (hash: string) => `${hash.slice(0, 12)}…`;

/** Ledger lines whose `prev` each name the line before, as an exporter writes them. */
function ledger(count: number): string[] {
  const out: string[] = [];
  let prev = ZEROS;
  for (let seq = 0; seq < count; seq++) {
    const line = JSON.stringify({ v: 2, run: 'r', seq, prev, t: seq, who: 'w', kind: 'note', data: { text: `n${seq}` } });
    out.push(line);
    prev = hex(line);
  }
  return out;
}

const chain = ledger(5);
const [l1, l2, l3, l4, l5] = chain as [string, string, string, string, string];
const withPrev = (line: string, prev: string | undefined) => {
  const value = JSON.parse(line) as Record<string, unknown>;
  if (prev === undefined) delete value.prev;
  else value.prev = prev;
  return JSON.stringify(value);
};
const altered = l2.replace('"n1"', '"N1"');

/** Each case: the lines of a file, and the chain state a reader must report for it. */
const cases: [string, string[], ChainState][] = [
  ['intact', chain, { state: 'intact', lines: 5 }],
  ['an altered line: broken at the line after it', [l1, altered, l3, l4, l5], { state: 'broken', lines: 5, line: 3, reason: `prev is ${short(hex(l2))}, but line 2 hashes to ${short(hex(altered))}` }],
  ['a deleted line', [l1, l3, l4, l5], { state: 'broken', lines: 4, line: 2, reason: `prev is ${short(hex(l2))}, but line 1 hashes to ${short(hex(l1))}` }],
  ['two swapped lines', [l1, l3, l2, l4, l5], { state: 'broken', lines: 5, line: 2, reason: `prev is ${short(hex(l2))}, but line 1 hashes to ${short(hex(l1))}` }],
  ['a forged first line', [withPrev(l1, 'ab'.repeat(32)), l2], { state: 'broken', lines: 2, line: 1, reason: `the first ledger line's prev is ${'ab'.repeat(6)}…, not 64 zeros` }],
  ['the first lines lost', chain.slice(2), { state: 'broken', lines: 3, line: 1, reason: `the first ledger line's prev is ${short(hex(l2))}, not 64 zeros` }],
  ['a line without prev', [l1, withPrev(l2, undefined), l3], { state: 'broken', lines: 3, line: 2, reason: `prev is missing, but line 1 hashes to ${short(hex(l1))}` }],
  ['a garbage line inserted', [l1, l2, 'garbage', l3, l4], { state: 'broken', lines: 4, line: 4, reason: 'line 3 is not part of the chain: it was inserted between ledger lines 2 and 4' }],
  ['a record of another shape inserted', [l1, '{"jsonrpc":"2.0","method":"x"}', l2], { state: 'broken', lines: 2, line: 3, reason: 'line 2 is not part of the chain: it was inserted between ledger lines 1 and 3' }],
  ['blank lines are not part of it', [l1, '', '  ', l2, l3], { state: 'intact', lines: 3 }],
];

const text = (lines: string[]) => `${lines.join('\n')}\n`;
const bytes = (lines: string[]) => new TextEncoder().encode(text(lines));

/**
 * A builder whose chain is verified elsewhere: batches are verified a turn later, as a worker
 * answers them, and each answer is the session's chain (as the parser's pump makes it).
 */
async function remote() {
  const verifier = new ChainVerifier();
  const ready = verifier.init();
  const posted: { batch: ChainBatch; transfer: boolean }[] = [];
  const batcher = new ChainBatcher((batch, transfer) => {
    posted.push({ batch, transfer });
    void ready.then(() => {
      verifyBatch(verifier, batch);
      batcher.receive({ seq: batch.seq, state: verifier.state && { ...verifier.state }, warnings: [] });
    });
  }, (state) => void (builder.session.chain = state));
  const builder = new SessionBuilder({ chain: batcher });
  await builder.init();
  return { builder, batcher, posted };
}

/** Reads `input` with the chain verified elsewhere, sending a batch after every `chunk` bytes. */
async function readRemotely(input: Uint8Array, chunk: number) {
  const { builder, batcher, posted } = await remote();
  for (let at = 0; at < input.length; at += chunk) {
    builder.push(input.subarray(at, at + chunk));
    batcher.send();
  }
  builder.end();
  await batcher.drain();
  return { session: builder.session, posted };
}

describe('the chain verifier', () => {
  test.each(cases)('%s: the same state read whole, in 7-byte chunks, and verified elsewhere', async (_name, lines, expected) => {
    expect((await ingest(bytes(lines))).chain).toEqual(expected);
    expect((await ingest(bytes(lines), { chunkSize: 7 })).chain).toEqual(expected);
    for (const chunk of [5, 64, 1 << 20]) {
      const { session } = await readRemotely(bytes(lines), chunk);
      expect(session.chain).toEqual(expected);
    }
  });

  test('a truncated last line is reported as such and does not break what came before', async () => {
    const input = `${l1}\n${l2}\n${l3.slice(0, 40)}`;
    const whole = await ingest(input);
    expect(whole.chain).toEqual({ state: 'intact', lines: 2 });
    expect(whole.diagnostics.bad.map((bad) => [bad.line, bad.reason.split(':')[0]])).toEqual([[3, 'truncated last line (no newline at the end)']]);
    expect((await readRemotely(new TextEncoder().encode(input), 11)).session.chain).toEqual({ state: 'intact', lines: 2 });
  });

  test('a JSON-array export is chained over its elements, each element\'s exact text', async () => {
    const array = (lines: string[]) => `[\n${lines.join(',\n')}\n]\n`;
    const cases: [string, ChainState][] = [
      [array([l1, l2, l3]), { state: 'intact', lines: 3 }],
      [array([l1, altered, l3]), { state: 'broken', lines: 3, line: 4, reason: `prev is ${short(hex(l2))}, but line 3 hashes to ${short(hex(altered))}` }],
    ];
    for (const [input, expected] of cases) {
      expect((await ingest(input)).chain).toEqual(expected);
      expect((await readRemotely(new TextEncoder().encode(input), 9)).session.chain).toEqual(expected);
    }
  });

  test('a builder never initialised says the chain is not verified, and why', () => {
    const builder = new SessionBuilder();
    builder.push(bytes(chain));
    builder.end();
    expect(builder.session.chain).toEqual({ state: 'broken', lines: 5, line: 1, reason: 'not verified' });
    expect(builder.session.diagnostics.warnings).toEqual([{ line: 1, message: 'ledger chain not verified: BLAKE3 was not loaded (call init())' }]);
  });
});

describe('batches for a verifier elsewhere', () => {
  test('a live ledger: each batch sent is verified and the state grows as lines arrive', async () => {
    const { builder, batcher, posted } = await remote();
    const states: (ChainState | null)[] = [];
    for (const line of chain) {
      builder.push(new TextEncoder().encode(`${line}\n`));
      await batcher.drain();
      states.push(builder.session.chain && { ...builder.session.chain });
    }
    expect(states.map((state) => state?.lines)).toEqual([1, 2, 3, 4, 5]);
    expect(states.at(-1)).toEqual({ state: 'intact', lines: 5 });
    // One message per batch, not per line; bytes are copied until the verifier has answered once.
    expect(posted.map((post) => [post.batch.prevs.length, post.transfer])).toEqual([[1, false], [1, true], [1, true], [1, true], [1, true]]);
  });

  test('many lines go out in one batch, with every line\'s bytes', async () => {
    const { posted, session } = await readRemotely(bytes(ledger(200)), 1 << 20);
    expect(session.chain).toEqual({ state: 'intact', lines: 200 });
    expect(posted).toHaveLength(1);
    expect(posted[0]!.batch.bytes.length).toBe(text(ledger(200)).length - 200);
  });

  test('a verifier that never starts: the lines it was sent, and every line after, are verified here', async () => {
    const batcher = new ChainBatcher(() => undefined, () => undefined);
    const builder = new SessionBuilder({ chain: batcher });
    await builder.init();
    builder.push(bytes([l1, l2, 'garbage']));
    batcher.send();
    builder.push(bytes([l3]));
    await batcher.verifierFailed('blocked');
    builder.push(bytes([l4]));
    builder.end();
    await batcher.drain();
    expect(builder.session.chain).toEqual({ state: 'broken', lines: 4, line: 4, reason: 'line 3 is not part of the chain: it was inserted between ledger lines 2 and 4' });
    const intact = new ChainBatcher(() => undefined, () => undefined);
    const again = new SessionBuilder({ chain: intact });
    again.push(bytes([l1, l2]));
    intact.send();
    await intact.verifierFailed('blocked');
    again.push(bytes([l3, l4, l5]));
    expect(again.session.chain).toEqual({ state: 'intact', lines: 5 });
  });

  test('a verifier that stops after answering: the chain is marked not verified from the first line it did not answer', async () => {
    const replies: ChainReply[] = [];
    const verifier = await ChainVerifier.create();
    let warned: { line: number; message: string }[] = [];
    const batcher = new ChainBatcher((batch) => {
      if (batch.seq > 1) return;
      verifyBatch(verifier, batch);
      replies.push({ seq: batch.seq, state: { ...verifier.state! }, warnings: [] });
    }, (_state, warnings) => void (warned = warnings));
    const builder = new SessionBuilder({ chain: batcher });
    await builder.init();
    builder.push(bytes([l1, l2]));
    batcher.send();
    batcher.receive(replies[0]!);
    expect(batcher.state).toEqual({ state: 'intact', lines: 2 });
    builder.push(bytes([l3]));
    batcher.send();
    await batcher.verifierFailed('the worker crashed');
    expect(warned).toEqual([{ line: 3, message: 'ledger chain not verified from this line on: the worker crashed' }]);
    builder.push(bytes([l4]));
    builder.end();
    await batcher.drain();
    expect(builder.session.chain).toEqual({ state: 'broken', lines: 4, line: 3, reason: 'not verified' });
  });
});
