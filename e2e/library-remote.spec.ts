// The app opened with `?index=URL` (a team's index.json on a static web host, here a small node
// server with CORS and Range): the library of every partition, with no Loupe server; a host that
// does not allow the page (no CORS) gets one clear message.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, statSync, utimesSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { expect, failOnPageErrors, GENERATOR, ROOT, test } from './helpers';

const LOUPE = join(ROOT, 'bin/loupe.mjs');
const servers: Server[] = [];

failOnPageErrors();

test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A static host of `root`: GET with Range support, CORS for any origin when `cors`. */
async function staticHost(root: string, cors: boolean): Promise<string> {
  const server = createServer((req, res) => {
    if (cors) res.setHeader('Access-Control-Allow-Origin', '*');
    const path = resolve(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1));
    if (!path.startsWith(root + sep)) return void res.writeHead(403).end();
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return void res.writeHead(404).end();
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      res.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': end - start + 1, 'Accept-Ranges': 'bytes' });
      return void createReadStream(path, { start, end }).pipe(res);
    }
    res.writeHead(200, { 'Content-Length': size, 'Accept-Ranges': 'bytes' });
    createReadStream(path).pipe(res);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function teamIndex(dir: string, base: string): void {
  const made: [string, string, string[]][] = [
    ['alpha', 'a.jsonl', ['--format', 'acp', '--calls', '9', '--seed', '61']],
    ['beta', 'b.jsonl', ['--format', 'grok', '--calls', '6', '--seed', '62']],
  ];
  for (const [machine, file, args] of made) {
    mkdirSync(join(dir, machine), { recursive: true });
    const out = join(dir, machine, file);
    spawnSync(process.execPath, [GENERATOR, ...args, '--out', out]);
    utimesSync(out, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const run = spawnSync(process.execPath, [LOUPE, 'index', join(dir, machine), '--out', base, '--machine', machine], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
  }
}

test('?index=URL reads a team\'s partitions from a static host: every machine\'s sessions, the Machine filter', async ({ page }, info) => {
  const base = info.outputPath('team');
  teamIndex(info.outputPath('sessions'), base);
  const host = await staticHost(resolve(base), true);
  await page.goto(`/?index=${encodeURIComponent(`${host}/index.json`)}`);
  const library = page.getByTestId('library');
  await expect(library).toHaveAttribute('data-team', '2');
  const rows = library.locator('[data-session-file]');
  await expect(rows).toHaveCount(2);
  await expect(library.locator('[data-machine="alpha"]')).toHaveAttribute('data-calls', '9');
  await expect(library.locator('[data-machine="beta"]')).toHaveAttribute('data-calls', '6');
  await expect(page.getByRole('table', { name: 'Calls per label' }).locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', '15');
  // No file opens from a static host: each row says where it lives.
  await expect(library.locator('[data-elsewhere]')).toHaveCount(2);
  await page.locator('select[data-filter="machine"]').selectOption('beta');
  await expect(rows).toHaveCount(1);
});

test('?index=URL on a host that does not allow the page (no CORS): one clear message', async ({ page }, info) => {
  const base = info.outputPath('team');
  teamIndex(info.outputPath('sessions'), base);
  const host = await staticHost(resolve(base), false);
  await page.goto(`/?index=${encodeURIComponent(`${host}/index.json`)}`);
  await expect(page.getByRole('alert')).toContainText(`${host}/index.json did not answer this page. The host must allow this page (CORS: Access-Control-Allow-Origin`);
});
