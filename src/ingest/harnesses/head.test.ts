// readHead reads a file's first lines a chunk at a time, a line cut by a chunk's end joined to the
// rest of it from the next: whatever sizes the chunks come in (a read may give less than asked),
// the head is what its lines, read one by one, say.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { HeadLines, readHead } from './head';

const SESSION = 'session-1';

/** The head of `text`'s lines pushed one by one, as far as a complete head. */
function headOfLines(text: string) {
  const reader = new HeadLines();
  const lines = text.split('\n');
  // A last line without a newline counts; what follows the last newline is empty otherwise.
  for (const line of lines.at(-1) === '' ? lines.slice(0, -1) : lines) if (reader.push(line)) break;
  return reader.head;
}

test('a head read in chunks of any size, lines longer than a chunk among them, is what its lines say', async () => {
  const line = fc.oneof(
    fc.nat({ max: 150_000 }).map((size) => JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: '2026-01-02T00:00:00.000Z', sessionId: SESSION, content: 'é'.repeat(size) })),
    fc.constantFrom(
      JSON.stringify({ type: 'user', message: { role: 'user', content: '<command-name>/model</command-name>' }, uuid: 'u1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w', sessionId: SESSION }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'fix the build' }, uuid: 'u2', timestamp: '2026-01-03T00:00:00.000Z', cwd: '/w', sessionId: SESSION }),
      'not json',
      '',
    ),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.integer({ min: 512, max: 100_000 }), async (lines, lastNewline, most) => {
      const text = lines.join('\n') + (lastNewline ? '\n' : '');
      const bytes = new TextEncoder().encode(text);
      // Each read gives at most `most` bytes, from a buffer of its own.
      const head = await readHead({ slice: (start, end) => Promise.resolve(bytes.slice(start, Math.min(end, start + most))) });
      expect(head).toEqual(headOfLines(text));
    }),
    { numRuns: 40 },
  );
});
