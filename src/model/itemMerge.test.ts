// Message chunks merge into the item before them without object spreads: the merged item has the
// keys, in the order, that `{ ...last, text, blocks }` gives, however that item was made.
import { expect, test } from 'vitest';
import { SessionBuilder } from './builder';

const chunk = (text: string, sessionId = 's', tag = 'user_message_chunk') => ({ sessionId, update: { sessionUpdate: tag, content: { type: 'text', text } } });
const image = (sessionId = 's') => ({ sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'AA==' } } });
const prompt = (text: string) => ({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text }] } });
const returned = (text: string) => ({ v: 2, seq: 0, kind: 'model_returned', run: 's', data: { message: { content: [{ kind: 'text', text }] } } });

test.each([
  ['chunk, chunk, image', [chunk('a'), chunk('b'), image()], ['type', 'role', 'loc', 'sessionId', 'messageId', 'blocks', 'text', 'ts']],
  ['prompt, chunk', [prompt('a'), chunk('b')], ['type', 'role', 'loc', 'sessionId', 'blocks', 'text', 'ts']],
  ['model_returned, agent chunk', [returned('a'), chunk('b', 's', 'agent_message_chunk')], ['type', 'role', 'loc', 'sessionId', 'blocks', 'text']],
])('%s', (_name, lines, keys) => {
  const builder = new SessionBuilder();
  for (const line of lines) builder.pushValue(line);
  const items = builder.session.items;
  expect(items).toHaveLength(1);
  expect(Object.keys(items[0]!)).toEqual(keys);
  expect(items[0]).toMatchObject({ type: 'message', text: 'ab' });
});

test('a message handed out by a take stays as it was while later chunks grow the session’s own', () => {
  const builder = new SessionBuilder();
  builder.pushValue(chunk('a'));
  const taken = builder.takeChanges().items[0]!;
  builder.pushValue(chunk('b'));
  builder.pushValue(image());
  builder.pushValue(chunk('c'));
  expect(taken).toMatchObject({ type: 'message', text: 'a', blocks: [] });
  expect(builder.session.items[0]).toMatchObject({ type: 'message', text: 'abc', blocks: [{ type: 'image' }] });
  const { grown } = builder.takeChanges();
  expect(grown).toMatchObject({ index: 0, textFrom: 1, text: 'bc', blocksFrom: 0, blocks: [{ type: 'image' }] });
});

test('text-only messages share no list a later block could write into', () => {
  const builder = new SessionBuilder();
  builder.pushValue(chunk('a', 's'));
  builder.pushValue(chunk('b', 't'));
  builder.pushValue(image('t'));
  const [first, second] = builder.session.items;
  expect(first).toMatchObject({ text: 'a', blocks: [] });
  expect(second).toMatchObject({ text: 'b', blocks: [{ type: 'image' }] });
});
