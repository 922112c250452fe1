// Fuzzing the reader with hostile values in every field the model reads: tool_call fields, _meta,
// the x.ai/tool envelope, permission requests, terminals, prompts, ledger records and ids, as JSON
// lines, capture lines and persisted updates. Values are nested (up to 2,000 levels), huge (up to
// 200,000 characters), full of escapes and control characters, and named like prototypes
// (`__proto__`, `constructor`, `toString`…). On every run: ingest never throws, the counts
// reconcile, Object.prototype is untouched, and distinct ids stay distinct calls.
//
// A short run is part of `npm test`; a longer one before a release:
//   FUZZ_RUNS=100000 npx vitest run src/model/fuzz.test.ts
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ingest, type Session } from './index';
import { nonBlankLines } from './testing/nonBlankLines';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
// A long run takes as long as it takes; a short one stays within the default timeout.
const TIMEOUT = RUNS > 200 ? 0 : 60_000;

const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];
const ESCAPES = ['\u0000', '\u001b]0;title\u0007', '\u001b]52;c;Y2xpcA==\u0007', '\u001b[2J', '\u009b2J', '\u202e', '\u2028', '\ud800', '\\', '"', '\r\n'];

/** A short string a hostile writer would choose: a prototype name, escapes, NULs, lone surrogates, or anything. */
const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTO_NAMES, ...ESCAPES, '', 'x.ai/tool', 'claudeCode', 'toolName', 'Bash', 'read_file'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.constantFrom(...PROTO_NAMES, ...ESCAPES, 'a', '-', '__'), { maxLength: 4 }).map((parts) => parts.join('')),
);

/** As `hostileKey`, or now and then a huge string. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileKey, weight: 8 },
  { arbitrary: fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('x', '\u001b[1m', '\u0000')).map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length))), weight: 1 },
);

/** An object with these own keys (a `__proto__` key too), as JSON.parse would make it. */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  return target;
}

/** A value `depth` levels deep. */
function nested(depth: number, key: string): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : own([[key, value]]);
  return value;
}

const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(null, true, 0, -1, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
    fc.tuple(fc.integer({ min: 100, max: 2_000 }), hostileKey).map(([depth, key]) => nested(depth, key)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map(own),
  ),
})).value;

/** Sometimes the field is left out, so records of every shape are also well formed. */
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });

const envelope = fc.oneof(
  hostileValue,
  fc.record({ version: fc.constantFrom(1, 2, '1'), label: hostileString, name: hostileString, kind: maybe(hostileString), namespace: maybe(hostileString), read_only: maybe(fc.boolean()), input: maybe(hostileValue) }).map((e) => own(Object.entries(e).filter(([, v]) => v !== undefined))),
);

const meta = fc.array(fc.tuple(hostileKey, fc.oneof(hostileValue, envelope, fc.record({ toolName: hostileString }))), { maxLength: 4 })
  .chain((entries) => envelope.map((xai) => own([...entries, ...(entries.length % 2 ? [['x.ai/tool', xai] as [string, unknown]] : [])])));

const toolFields = fc.record({
  toolCallId: fc.oneof(hostileString, hostileValue),
  title: maybe(fc.oneof(hostileString, hostileValue)),
  kind: maybe(fc.oneof(fc.constantFrom('read', 'edit', 'execute', 'other'), hostileString)),
  status: maybe(fc.oneof(fc.constantFrom('pending', 'in_progress', 'completed', 'failed'), hostileString)),
  name: maybe(hostileString),
  rawInput: maybe(hostileValue),
  rawOutput: maybe(hostileValue),
  content: maybe(fc.oneof(hostileValue, fc.array(fc.oneof(
    fc.record({ type: fc.constant('terminal'), terminalId: hostileString }),
    fc.record({ type: fc.constant('content'), content: fc.record({ type: fc.constant('text'), text: hostileString }) }),
    fc.record({ type: fc.constant('diff'), path: hostileString, oldText: maybe(hostileString), newText: hostileString }),
  ), { maxLength: 3 }))),
  locations: maybe(fc.oneof(hostileValue, fc.array(fc.record({ path: hostileString, line: maybe(fc.integer()) }), { maxLength: 2 }))),
  _meta: maybe(meta),
});

const defined = (record: Record<string, unknown>) => own(Object.entries(record).filter(([, v]) => v !== undefined));

const sessionUpdate = fc.tuple(fc.constantFrom('tool_call', 'tool_call_update'), toolFields).map(([tag, fields]) => own([['sessionUpdate', tag], ...Object.entries(defined(fields))]));
const chunk = fc.record({ sessionUpdate: fc.constantFrom('agent_message_chunk', 'user_message_chunk', 'agent_thought_chunk'), content: fc.oneof(hostileValue, fc.record({ type: fc.constantFrom('text', 'image'), text: hostileString, data: hostileString, mimeType: hostileString })), messageId: maybe(hostileString) });
const rpcId = fc.oneof(fc.integer({ min: 0, max: 3 }), hostileString);

/** One record of any shape the reader knows, with hostile values where it reads fields. */
const record: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ sessionId: hostileString, update: fc.oneof(sessionUpdate, chunk) }).map((params) => ({ jsonrpc: '2.0', method: 'session/update', params })),
  fc.record({ sessionId: hostileString, update: sessionUpdate, _meta: maybe(meta) }).map((params) => ({ timestamp: 1_785_193_970, method: 'session/update', params: defined(params) })),
  fc.record({ id: rpcId, params: fc.record({ sessionId: hostileString, toolCall: fc.oneof(toolFields.map(defined), hostileValue), options: fc.array(fc.record({ optionId: hostileString, name: hostileString, kind: hostileString }), { maxLength: 2 }) }) })
    .map(({ id, params }) => ({ jsonrpc: '2.0', id, method: 'session/request_permission', params })),
  fc.record({ id: rpcId, outcome: fc.oneof(fc.record({ outcome: fc.constant('selected'), optionId: hostileString }), hostileValue) }).map(({ id, outcome }) => ({ jsonrpc: '2.0', id, result: { outcome } })),
  fc.record({ id: rpcId, method: fc.constantFrom('terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'session/prompt', 'session/new'), params: fc.record({ sessionId: hostileString, terminalId: hostileString, command: hostileString, prompt: fc.oneof(hostileValue, fc.array(fc.record({ type: fc.constant('text'), text: hostileString }), { maxLength: 2 })) }) })
    .map(({ id, method, params }) => ({ jsonrpc: '2.0', id, method, params })),
  fc.record({ id: rpcId, result: fc.oneof(hostileValue, fc.record({ terminalId: hostileString, output: hostileString, truncated: fc.boolean(), sessionId: hostileString, stopReason: hostileString })) }).map(({ id, result }) => ({ jsonrpc: '2.0', id, result })),
  fc.record({ v: fc.constantFrom(2, 1, 99), run: hostileString, seq: fc.nat(), prev: fc.oneof(fc.constant('0'.repeat(64)), hostileString), kind: fc.constantFrom('tool_called', 'tool_result', 'model_returned', 'run_started', '__proto__'), data: fc.oneof(hostileValue, fc.record({ id: hostileString, name: hostileString, args: hostileValue, subject: maybe(hostileValue), tool_use_id: hostileString, result: hostileValue, text: hostileString })) })
    .map((ledger) => own(Object.entries(ledger))),
  hostileValue,
);

/** A line: the record as it is, or wrapped as a capture line. */
const line = fc.tuple(record, fc.constantFrom(undefined, 'client->agent', 'agent->client')).map(([msg, dir]) => JSON.stringify(dir === undefined ? msg : { t_ms: 1, dir, msg }) ?? 'null');

function reconciles(session: Session, lines: string[]): void {
  const { lines: read, events, unknown, bad } = session.counts;
  expect(events + unknown + bad).toBe(read);
  // A first line that is a JSON array makes the input a JSON array document: its elements are the records.
  if (!lines[0]?.trimStart().startsWith('[')) expect(read).toBe(nonBlankLines(lines.join('\n')));
  expect(session.diagnostics.bad).toHaveLength(bad);
}

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();
const PROTOTYPE = prototypeNames();

function untouched(session: Session): void {
  expect(prototypeNames()).toEqual(PROTOTYPE);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  for (const call of session.calls.values()) expect(Object.getPrototypeOf(call.meta)).toBe(Object.prototype);
}

/** Ids from `a` and NUL only (in most runs, two of them differ only in where a NUL falls), or any hostile string. */
const idPart = fc.oneof({ arbitrary: fc.array(fc.constantFrom('a', '\u0000'), { maxLength: 3 }).map((parts) => parts.join('')), weight: 4 }, { arbitrary: hostileString, weight: 1 });

describe(`fuzz: hostile values in every field the model reads (${RUNS} runs; FUZZ_RUNS=N for more)`, () => {
  test('ingest never throws, counts reconcile, Object.prototype is untouched', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      // Light reads skim long lines on their bytes (ingest/skim.ts): hostile values go through that reader too.
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), fc.integer({ min: 256, max: 1 << 16 }), fc.constantFrom('full', 'light'), async (lines, chunkSize, detail) => {
        const session = await ingest(`${lines.join('\n')}\n`, { chunkSize, detail });
        reconciles(session, lines);
        untouched(session);
      }),
      { numRuns: RUNS },
    );
  });

  test('distinct session and call ids stay distinct calls', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(idPart, idPart), { minLength: 1, maxLength: 30, selector: ([s, c]) => JSON.stringify([s, c]) }), async (pairs) => {
        const lines = pairs.map(([sessionId, toolCallId]) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call', toolCallId, title: 't', status: 'in_progress' } } }));
        const session = await ingest(lines.join('\n'));
        reconciles(session, lines);
        expect(session.calls.size).toBe(pairs.length);
        expect([...session.calls.values()].map((call) => [call.sessionId, call.id])).toEqual(pairs);
      }),
      { numRuns: RUNS },
    );
  });
});
