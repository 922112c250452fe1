// A call's ledger data is rebuilt on each line without object spreads: the same keys, in the same
// order, as `{ ...before, ...fields }` would give, whichever of call and result comes first.
import { expect, test } from 'vitest';
import { SessionBuilder } from './builder';

const called = (id: string) => ({ v: 2, seq: 0, kind: 'tool_called', data: { id, name: 'read', args: { path: 'a' }, effect: 'read', render: 'generic' } });
const result = (id: string) => ({ v: 2, seq: 0, kind: 'tool_result', data: { tool_use_id: id, name: 'read', result: { text: 'x' }, took_us: 5 } });
const failed = (id: string) => ({ v: 2, seq: 0, kind: 'tool_result', data: { tool_use_id: id, error: { code: 'e' }, took_us: 7 } });

function spreadReference(lines: { kind: string; data: Record<string, unknown> }[]): Record<string, unknown> | undefined {
  let ledger: Record<string, unknown> | undefined;
  for (const { kind, data } of lines) {
    ledger = kind === 'tool_called'
      ? { ...ledger, name: data.name, args: data.args, argsKeyOrder: undefined, subject: undefined, effect: data.effect, render: data.render }
      : { ...ledger, name: ledger?.name ?? data.name, result: data.result, error: data.error, tookUs: data.took_us };
  }
  return ledger;
}

test.each([
  ['call, result', [called('a'), result('a')]],
  ['result, call', [result('a'), called('a')]],
  ['call, result, result', [called('a'), result('a'), failed('a')]],
  ['result, call, call', [failed('a'), called('a'), called('a')]],
  ['result, call, result', [result('a'), called('a'), failed('a')]],
  ['call, call', [called('a'), called('a')]],
  ['result, result', [result('a'), failed('a')]],
])('%s', (_name, lines) => {
  const builder = new SessionBuilder();
  for (const line of lines) builder.pushValue(line);
  const call = [...builder.session.calls.values()][0]!;
  const expected = spreadReference(lines);
  expect(Object.keys(call.ledger!)).toEqual(Object.keys(expected!));
  expect(call.ledger).toStrictEqual(expected);
});
