import { expect, test } from 'vitest';
import { rekeyNotes } from './exportNotes';
import { ingest } from '../model';

const update = (fields: string) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{${fields}}}}`;
const opened = (title: string) => update(`"sessionUpdate":"tool_call","toolCallId":"t1","title":"${title}","kind":"execute","status":"pending"`);
const closed = update('"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"');

test('a note follows its call into an export where a filter renumbered the reused id', async () => {
  // One agent reuses the id t1 for a second call once the first has completed.
  const original = await ingest([opened('first'), closed, opened('second'), closed].join('\n'));
  const [first, second] = [...original.calls.values()];
  expect(first?.key).not.toBe(second?.key);
  // An export under a filter that shows only the second call holds only its lines.
  const exported = await ingest([opened('second'), closed].join('\n'));
  const [onlyCall] = [...exported.calls.values()];
  const note = { text: 'the second one', bookmarked: true };
  // What the viewer shows under that filter: the second call, under the key the whole file gave it.
  const shown = { ...original, calls: new Map([[second!.key, second!]]) };

  expect(rekeyNotes({ [second!.key]: note }, shown, exported)).toEqual({ [onlyCall!.key]: note });
  // A note on a call the export does not hold is dropped, never moved onto another call.
  expect(rekeyNotes({ [first!.key]: note }, shown, exported)).toEqual({});
  // Unfiltered, every key stays as it was.
  expect(rekeyNotes({ [first!.key]: note, [second!.key]: note }, original, original)).toEqual({ [first!.key]: note, [second!.key]: note });
});
