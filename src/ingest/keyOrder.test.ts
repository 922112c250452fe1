// sourceKeyOrder walks JSON text by hand: it must find the same keys JSON.parse does, escapes and all.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sourceKeyOrder } from './keyOrder';

const key = fc.oneof(fc.string(), fc.constantFrom('10', '2', 'a"b', 'a\\', '\\"', '\u00e9', 'x\ny'));
const leaf = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constantFrom('"', '\\', '\\"', '{', '}', ']'));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
})).node;

test('keys of a nested object, found through any JSON (written by JSON.stringify, so in enumeration order)', () => {
  fc.assert(
    fc.property(fc.dictionary(key, value, { maxKeys: 4 }), fc.dictionary(key, value, { maxKeys: 5 }), fc.boolean(), (outer, inner, spaced) => {
      const doc = { ...outer, data: { ...outer, args: inner } };
      const text = spaced ? JSON.stringify(doc, null, 1) : JSON.stringify(doc);
      const parsed = JSON.parse(text) as { data: { args: object } };
      expect(sourceKeyOrder(text, ['data', 'args'])).toEqual(Object.keys(parsed.data.args));
      expect(sourceKeyOrder(text, [])).toEqual(Object.keys(parsed));
    }),
    { numRuns: 1000 },
  );
});

test('source order, not enumeration order; escaped keys decoded; the last duplicate wins the descent', () => {
  expect(sourceKeyOrder('{"10":"a","2":"b"}', [])).toEqual(['10', '2']);
  expect(sourceKeyOrder('{"d\\u0061ta":{"x\\"y":1,"1":2}}', ['data'])).toEqual(['x"y', '1']);
  expect(sourceKeyOrder('{"a":{"1":0},"a":{"2":0,"0":1}}', ['a'])).toEqual(['2', '0']);
  expect(sourceKeyOrder('{"a":"\\\\","b":{"3":1,"1":2}}', ['b'])).toEqual(['3', '1']);
  expect(sourceKeyOrder('{"a":[1,{"5":1,"4":0}]}', ['a', 1])).toEqual(['5', '4']);
});
