// `loupe open` serves the viewer under a strict CSP (OPEN_POLICY): the session opens and its rows
// draw with no violation report. Needs `npm run build` (dist/app).
import { join } from 'node:path';
import { OPEN_POLICY, startServer, type RunningServer } from '../src/cli/openServer';
import { expect, expectCallsShown, expectedCalls, fixture, ROOT, test, waitLoaded } from './helpers';

const SESSION = fixture('acp/codex-acp-1.6.2_unwrapped.jsonl');
let server: RunningServer | null = null;

test.afterEach(async () => {
  await server?.close();
  server = null;
});

test('loupe open sends its CSP and the viewer runs under it without a violation', async ({ page, cspViolations }, info) => {
  server = await startServer({ appDir: join(ROOT, 'dist/app'), capturesDir: info.outputPath('captures'), port: 0, session: { kind: 'file', path: SESSION, follow: false } });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`));
  });
  const response = await page.goto(server.url);
  expect(response?.headers()['content-security-policy']).toBe(OPEN_POLICY);
  await waitLoaded(page);
  await expectCallsShown(page, await expectedCalls(SESSION));
  // An opened call draws its details under the policy too.
  await page.locator('[data-call-id]').first().click();
  expect(violations).toEqual([]);
  // Nothing but this server can be reached.
  cspViolations.allow(/connect-src|Refused to connect/);
  const blocked = await page.evaluate(() => fetch('https://example.com/').then(() => 'fetched', () => 'blocked'));
  expect(blocked).toBe('blocked');
  expect(violations.some((text) => text.includes('connect-src'))).toBe(true);
});
