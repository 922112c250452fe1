// Lines for the skimmers' tests (skim.test.ts, wasm/wasmSkimmer.test.ts): a tool-call update with
// every kind of bulk a light read leaves out, and strings long enough to be left out.
import { MIN_ELIDED_BYTES } from '../skim';

/** `word` repeated past the length from which a string is left out. */
export const long = (word: string) => `${word} `.repeat(Math.ceil(MIN_ELIDED_BYTES / word.length) + 4);

export const toolUpdate = {
  sessionUpdate: 'tool_call_update',
  toolCallId: 'c1',
  status: 'completed',
  content: [
    { type: 'content', content: { type: 'text', text: long('output') } },
    { type: 'terminal', terminalId: long('term') },
    { type: 'diff', path: '/a.ts', oldText: long('old'), newText: long('new') },
  ],
  rawOutput: { stdout: long('stdout'), code: 0 },
};
