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
