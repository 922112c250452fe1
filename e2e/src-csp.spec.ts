// The static app narrows its connect-src to its own origin and the ones `?src=` and `?vs=` name
// (src/app/csp.ts). The parser worker, which does the fetching, must be held to that too: a
// `data:` URL or a redirect to another origin loads nothing. Needs `npm run build` (dist/app).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { runSession, stepCount, stepsOfSession } from '../src/analysis/compare';
import { expect, expectCallsShown, expectedCalls, expectedSession, fixture, test, waitLoaded } from './helpers';

const SESSION = fixture('acp/codex-acp-1.6.2_unwrapped.jsonl');
// Two more origins, on ports past the app's servers (a free one if those are taken): where ?src=
// points, and another one it redirects to.
const BASE_PORT = Number(process.env.LOUPE_E2E_PORT ?? 4173);
let namedPort = 0;
let otherPort = 0;

test.describe.configure({ mode: 'serial' });

let named: Server;
let other: Server;
const otherRequests: string[] = [];

async function listen(port: number, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handle);
  const on = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => resolve());
    });
  await on(port).catch((error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? on(0) : Promise.reject(error)));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

const sessionResponse = (res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Access-Control-Allow-Origin': '*' });
  res.end(readFileSync(SESSION));
};

test.beforeAll(async () => {
  other = await listen(BASE_PORT + 41, (req, res) => {
    otherRequests.push(req.url ?? '');
    sessionResponse(res);
  });
  otherPort = portOf(other);
  named = await listen(BASE_PORT + 40, (req, res) => {
    if (req.url === '/session.jsonl') return sessionResponse(res);
    if (req.url === '/elsewhere.jsonl') {
      res.writeHead(302, { Location: `http://127.0.0.1:${otherPort}/session.jsonl`, 'Access-Control-Allow-Origin': '*' });
      return res.end();
    }
    res.writeHead(404).end();
  });
  namedPort = portOf(named);
});

test.afterAll(async () => {
  await Promise.all([named, other].map((server) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))));
});

const srcUrl = (src: string) => `/?src=${encodeURIComponent(src)}`;

async function expectNotLoaded(page: import('@playwright/test').Page): Promise<void> {
  const root = page.locator('[data-load-state]').first();
  // Once the load has ended, it ended in an error.
  await expect(root).toHaveAttribute('data-load-state', /^(done|error|cancelled)$/, { timeout: 20_000 });
  expect(await root.getAttribute('data-load-state')).toBe('error');
  await expect(page.locator('[data-call-id]')).toHaveCount(0);
}

test('a session on the origin ?src= names loads (the parser worker may fetch it)', async ({ page }) => {
  await page.goto(srcUrl(`http://127.0.0.1:${namedPort}/session.jsonl`));
  await waitLoaded(page);
  await expectCallsShown(page, await expectedCalls(SESSION));
});

test('a redirect from that origin to another loads nothing, and the other origin is never asked', async ({ page, cspViolations }) => {
  cspViolations.allow(/connect-src|Refused to connect/);
  await page.goto(srcUrl(`http://127.0.0.1:${namedPort}/elsewhere.jsonl`));
  await expectNotLoaded(page);
  expect(otherRequests).toEqual([]);
});

test('a data: URL loads nothing', async ({ page, cspViolations }) => {
  cspViolations.allow(/connect-src|Refused to connect/);
  const line = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 'from-data', title: 'ls', kind: 'execute', status: 'completed' } } });
  const data = `data:application/x-ndjson;base64,${Buffer.from(`${line}\n`).toString('base64')}`;
  await page.goto(srcUrl(data));
  await expectNotLoaded(page);
});

test('?src= and ?vs= on two other origins: both are allowed, and the runs compare', async ({ page }) => {
  // The file holds several sessions: the first with calls is the run, as loupe diff reads it.
  const session = await expectedSession(SESSION);
  const steps = stepsOfSession(session, runSession(session.sessionIds, [...session.calls.values()].map((call) => call.sessionId)));
  expect(steps.length).toBeGreaterThan(0);
  await page.goto(`${srcUrl(`http://127.0.0.1:${namedPort}/session.jsonl`)}&vs=${encodeURIComponent(`http://127.0.0.1:${otherPort}/session.jsonl`)}`);
  await expect(page.getByTestId('compare-summary')).toHaveText(`The runs agree throughout (${stepCount(steps.length)}).`, { timeout: 20_000 });
  await expect(page.locator('[data-diff="same"]')).toHaveCount(steps.length);
});
