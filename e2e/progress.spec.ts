import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, fixture, test } from './helpers';

// A server that sends the first part of a session and then holds the connection open: the state
// "the file has not finished" lasts as long as the test needs, with no timing involved.
let server: Server;
let base = '';
const open: ServerResponse[] = [];

test.beforeAll(async () => {
  const head = readFileSync(fixture('grok/esc-interrupt.updates.jsonl'), 'utf8').split('\n').slice(0, 4).join('\n') + '\n';
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'access-control-allow-origin': '*', 'content-length': String(10 * 1024 * 1024) });
    res.write(head);
    open.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  for (const r of open) r.destroy();
  await new Promise((resolve) => server.close(resolve));
});

test('the first rows show while the file is still arriving, with progress, and Cancel keeps them', async ({ page }) => {
  await page.goto(`/?src=${encodeURIComponent(`${base}/slow.jsonl`)}`);
  const root = page.locator('[data-load-state]');
  const row = page.locator('[data-call-id="call-41033b16-03a7-4ca3-950c-0a015137f366-0"]');
  await expect(row).toContainText('sleep 45');
  await expect(root).toHaveAttribute('data-load-state', 'loading');
  await expect(page.getByRole('progressbar', { name: 'Reading progress' })).toBeVisible();
  await expect(page.getByTestId('records')).toHaveText('4');
  await expect(page.getByTestId('load-status')).toContainText('of 10.0 MB');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(root).toHaveAttribute('data-load-state', 'cancelled');
  await expect(row).toContainText('sleep 45');
  // Cut short, the running command now reads as unfinished.
  await expect(row).toHaveAttribute('data-status', 'unfinished');
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
});
