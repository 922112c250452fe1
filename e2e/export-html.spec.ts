// The html export opens from disk with the network blocked and shows the same rows as the viewer,
// with no CSP violation. Needs `npm run build` (dist/cli and dist/export).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, expectCallsShown, expectedCalls, fixture, ROOT, test, waitLoaded } from './helpers';

const FIXTURES = ['acp/codex-acp-1.6.2_unwrapped.jsonl', 'ledger/golden-p0.ledger-00000000000000000000.jsonl'];

for (const name of FIXTURES) {
  test(`html export of ${name} opens offline from file:// with the viewer's rows`, async ({ page, context }) => {
    const out = join(mkdtempSync(join(tmpdir(), 'loupe-html-')), 'session.html');
    execFileSync(process.execPath, [join(ROOT, 'bin/loupe.mjs'), 'export', fixture(name), '--format', 'html', '--redact', '--out', out], { stdio: 'pipe' });

    const requests: string[] = [];
    await context.route(/^(?!file:|data:|blob:)/, (route) => {
      requests.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await context.setOffline(true);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`));
    });

    await page.goto(pathToFileURL(out).href);
    await waitLoaded(page);
    await expectCallsShown(page, await expectedCalls(fixture(name)));
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([]);
  });
}
