// `loupe open --follow` of a session kept as one JSON document that its writer rewrites whole each
// turn (Cline 3.0.65's `<id>.messages.json`, the real recording in fixtures/native/): the page
// gets the document, then what each rewrite adds, and reads from that what the file finally says.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { displayStatus, ingest, type Session } from '../model';
import { isWholeDocument } from './followDocument';
import { startServer, type RunningServer } from './openServer';

const FIXTURES = join(import.meta.dirname, '../../fixtures');

type Document = { messages: unknown[] } & Record<string, unknown>;

/** The file as its writer writes it after its first `count` messages (pretty-printed, every key). */
const documentWith = (recorded: Document, count: number) => `${JSON.stringify({ ...recorded, messages: recorded.messages.slice(0, count) }, null, 2)}\n`;

let dir: string;
let server: RunningServer | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-follow-document-'));
  mkdirSync(join(dir, 'app', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'app', 'index.html'), '<!doctype html><title>Loupe</title>');
});

afterEach(async () => {
  await server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

/** The response's text as it comes, and a wait for it to hold `documents` documents. */
function reading(res: IncomingMessage): { text: () => string; documents: (count: number) => Promise<void> } {
  let text = '';
  const waiting: { count: number; done: () => void; failed: (error: Error) => void }[] = [];
  // A document's own messages key, two spaces in (a message's text cannot hold a raw newline).
  const documents = () => text.match(/\n {2}"messages": \[/g)?.length ?? 0;
  res.setEncoding('utf8');
  let ended = false;
  res.on('data', (chunk: string) => {
    text += chunk;
    for (const wait of [...waiting]) if (documents() >= wait.count) wait.done();
  });
  // A follow that stops (the file read as truncated or replaced) ends the response short.
  res.on('end', () => {
    ended = true;
    for (const wait of waiting) if (documents() < wait.count) wait.failed(new Error(`the response ended after ${documents()} documents, not ${wait.count}`));
  });
  return {
    text: () => text,
    documents: (count) =>
      documents() >= count ? Promise.resolve() : ended ? Promise.reject(new Error('the response ended')) : new Promise((done, failed) => waiting.push({ count, done, failed })),
  };
}

const calls = (session: Session) => [...session.calls.values()].map((call) => [call.id, call.label, call.subject, displayStatus(call, session.ended)]);
const messages = (session: Session) => session.items.flatMap((item) => (item.type === 'message' ? [`${item.role}: ${item.text}`] : []));

describe('following a document rewritten whole', () => {
  test.each([
    // Cline 3.0.65's (the real recording), 17 messages; an older Gemini CLI's session-*.json (CONTRACTS §11), 3.
    ['native/cline-3.0.65_tidy-notes.messages.json', '1796192429067_g2n1j.messages.json', 3, 9],
    ['gemini/old-json-object_from-contract.json', 'session-2025-08-01T09-00-old1.json', 1, 2],
  ])('%s rewritten in place and then by a rename, growing: the page reads what the file finally says, what it showed first kept', async (fixture, name, first, middle) => {
    const recorded = JSON.parse(readFileSync(join(FIXTURES, fixture), 'utf8')) as Document;
    const path = join(dir, name);
    writeFileSync(path, documentWith(recorded, first));
    expect(await isWholeDocument(path)).toBe(true);
    server = await startServer({ appDir: join(dir, 'app'), capturesDir: dir, port: 0, pollMs: 50, session: { kind: 'file', path, follow: true } });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      request({ host: '127.0.0.1', port: server!.port, path: `/${server!.token}/session`, headers: { host: `127.0.0.1:${server!.port}` } }, resolve).on('error', reject).end();
    });
    const body = reading(res);
    await body.documents(1);
    expect(body.text()).toBe(documentWith(recorded, first));

    // Cline's next turn: the file written again in place, longer.
    writeFileSync(path, documentWith(recorded, middle));
    await body.documents(2);
    // And again, as an editor or a careful writer does it: a new file renamed over the old.
    writeFileSync(`${path}.tmp`, documentWith(recorded, recorded.messages.length));
    renameSync(`${path}.tmp`, path);
    await body.documents(3);
    res.destroy();

    const followed = await ingest(body.text());
    const whole = await ingest(documentWith(recorded, recorded.messages.length));
    expect(calls(followed)).toEqual(calls(whole));
    expect(calls(followed).length).toBeGreaterThan(0);
    expect(messages(followed)).toEqual(messages(whole));
    expect(followed.diagnostics.bad).toEqual([]);
  });

  test('a JSON Lines log is not a whole document: it is followed by its bytes', async () => {
    const path = join(dir, 'rollout.jsonl');
    writeFileSync(path, '{"type":"session_meta","payload":{}}\n');
    expect(await isWholeDocument(path)).toBe(false);
  });
});
