// An ACP agent built on the SDK that plays one scripted turn, with small pauses between steps:
// messages, a plan, an edit behind a permission request with a diff, a command run in the
// client's terminal, a failing call, a 5 MB message and a line that is not JSON. A prompt saying
// "crash" makes it die mid-turn (exit code 3) instead.
//
// Every byte it reads and writes is also appended to files in LOUPE_AGENT_TAP, synchronously, so
// a test can compare them with what the client sent and received even after the crash.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import * as acp from '@agentclientprotocol/sdk';

const TAP = process.env.LOUPE_AGENT_TAP;
const STEP_MS = Number(process.env.LOUPE_AGENT_STEP_MS ?? 5);
export const HUGE_MESSAGE_BYTES = 5 * 1024 * 1024;

function tap(file: 'stdin' | 'stdout' | 'stderr', bytes: Uint8Array | string): void {
  if (TAP) appendFileSync(join(TAP, `agent.${file}`), bytes);
}

function writeStdout(bytes: Uint8Array | string): Promise<void> {
  tap('stdout', bytes);
  return new Promise((done, fail) => process.stdout.write(bytes, (error) => (error ? fail(error) : done())));
}

// Everything written to stderr, the SDK's own console.error included.
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: Uint8Array | string, ...rest: never[]) => {
  tap('stderr', chunk);
  return writeStderr(chunk, ...rest);
});

function logStderr(text: string): void {
  process.stderr.write(text);
}

const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
const tappedInput = input.pipeThrough(
  new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      tap('stdin', chunk);
      controller.enqueue(chunk);
    },
  }),
);
const output = new WritableStream<Uint8Array>({ write: (chunk) => writeStdout(chunk) });

async function playTurn(client: acp.AgentContext, sessionId: string, crash: boolean): Promise<acp.PromptResponse> {
  const update = (sessionUpdate: acp.SessionUpdate) => client.notify('session/update', { sessionId, update: sessionUpdate });
  const say = (text: string) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

  logStderr('scripted agent: turn started\n');
  await say('Looking at hello.py.');
  await sleep(STEP_MS);
  await update({
    sessionUpdate: 'plan',
    entries: [
      { content: 'Fix the greeting', priority: 'high', status: 'in_progress' },
      { content: 'Run it', priority: 'medium', status: 'pending' },
    ],
  });

  if (crash) {
    await update({ sessionUpdate: 'tool_call', toolCallId: 'call-crash', title: 'Read notes.md', kind: 'read', status: 'in_progress', rawInput: { path: '/ws/notes.md' } });
    logStderr('scripted agent: about to crash\n');
    // Half a line, never finished: tee must keep it.
    await writeStdout('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"');
    process.exit(3);
  }

  await sleep(STEP_MS);
  const oldText = "print('helo')\n";
  const newText = "print('hello')\n";
  await update({ sessionUpdate: 'tool_call', toolCallId: 'call-edit', title: 'Edit hello.py', kind: 'edit', status: 'pending', rawInput: { path: '/ws/hello.py', old: oldText, new: newText } });
  const permission = await client.request('session/request_permission', {
    sessionId,
    toolCall: { toolCallId: 'call-edit', title: 'Edit hello.py', kind: 'edit', status: 'pending' },
    options: [
      { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    ],
  });
  const allowed = permission.outcome.outcome === 'selected' && permission.outcome.optionId === 'allow_once';
  if (allowed) {
    const { content } = await client.request('fs/read_text_file', { sessionId, path: '/ws/hello.py' });
    await client.request('fs/write_text_file', { sessionId, path: '/ws/hello.py', content: content.replace('helo', 'hello') });
  }
  await update({
    sessionUpdate: 'tool_call_update', toolCallId: 'call-edit', status: allowed ? 'completed' : 'failed',
    content: [{ type: 'diff', path: '/ws/hello.py', oldText, newText }],
  });

  await sleep(STEP_MS);
  await update({ sessionUpdate: 'tool_call', toolCallId: 'call-run', title: 'python3 hello.py', kind: 'execute', status: 'pending', rawInput: { command: 'python3 hello.py' } });
  const terminal = await client.createTerminal({ sessionId, command: 'python3', args: ['hello.py'], cwd: '/ws' });
  await update({ sessionUpdate: 'tool_call_update', toolCallId: 'call-run', status: 'in_progress', content: [{ type: 'terminal', terminalId: terminal.id }] });
  const exit = await terminal.waitForExit();
  await terminal.currentOutput();
  await terminal.release();
  await update({ sessionUpdate: 'tool_call_update', toolCallId: 'call-run', status: exit.exitCode === 0 ? 'completed' : 'failed' });

  await sleep(STEP_MS);
  await update({ sessionUpdate: 'tool_call', toolCallId: 'call-fetch', title: 'Fetch the docs', kind: 'fetch', status: 'in_progress', rawInput: { url: 'https://docs.invalid/python' } });
  await sleep(STEP_MS);
  await update({ sessionUpdate: 'tool_call_update', toolCallId: 'call-fetch', status: 'failed', rawOutput: { error: 'could not resolve docs.invalid' } });

  await say(`Here is the whole file again: ${'x'.repeat(HUGE_MESSAGE_BYTES)}`);
  // Not JSON-RPC at all: agents do print stray lines on stdout, and the client must see them as they are.
  await writeStdout('debug: this line is not JSON\n');
  await say('Done.');
  return { stopReason: 'end_turn' };
}

acp
  .agent({ name: 'loupe scripted agent' })
  .onRequest('initialize', () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
  .onRequest('session/new', () => ({ sessionId: 'scripted-session' }))
  .onRequest('session/prompt', ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    return playTurn(client, params.sessionId, text.includes('crash'));
  })
  .connect(acp.ndJsonStream(output, tappedInput));
