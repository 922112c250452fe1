// A team's index on a plain web server: three machines' `loupe index --out BASE --machine A|B|C`
// over fixtures, BASE served by Debian's nginx (scripts/ensure-nginx.mjs installs it) with a
// generated config in a temp folder, unprivileged, on a free port; the app opened at
// `?index=http://127.0.0.1:PORT/BASE/index.json` shows every session of the three, with the
// Machine column, read by range requests (nginx's access log has no whole-table GET of a calls
// table); the machine that published its files (`--publish`) has rows that open them from nginx.
// Without nginx (not root, not CI) the test is skipped, saying so.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedFleet } from './fleet';
import { cssEscape, expect, failOnPageErrors, ROOT, test, waitLoaded } from './helpers';

const LOUPE = join(ROOT, 'bin/loupe.mjs');
const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const asRoot = process.getuid?.() === 0;
/** Under root nginx runs as `nobody`: a web server that does not need root. */
const NOBODY = { uid: 65534, gid: 65534 };

failOnPageErrors();

/** Each machine's session files, from the fixtures. */
const MACHINES: [string, string[]][] = [
  ['A', ['acp/codex-acp-1.6.2_unwrapped.jsonl', 'acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl', 'grok/esc-interrupt.updates.jsonl']],
  ['B', ['native/codex-0.137.0_rollout.jsonl', 'ledger/golden-s1.ledger-00000000000000000000.jsonl']],
  ['C', ['native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'native/gemini-cli-0.61.0_chat-session-A.jsonl', 'grok/probe-interjection.updates.jsonl', 'native/pi-0.73.1_two-turns-and-a-branch.jsonl']],
];

function nginxFound(): boolean {
  try {
    accessSync(NGINX, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * nginx serving `root` as a static host does for `?index=`: CORS for any origin, `Range` allowed
 * and the range headers readable, an OPTIONS preflight answered. The README's config, as a file.
 */
function nginxConfig(dir: string, root: string, port: number): string {
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { application/json json; application/vnd.apache.parquet parquet; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / {
      add_header Access-Control-Allow-Origin * always;
      add_header Access-Control-Allow-Headers Range always;
      add_header Access-Control-Expose-Headers "Content-Range, Content-Length, Accept-Ranges" always;
      if ($request_method = OPTIONS) { return 204; }
    }
  }
}
`;
}

let nginx: ChildProcess | null = null;
let nginxDir: string | null = null;

test.afterEach(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((done) => nginx?.once('exit', done));
    nginx.kill('SIGTERM');
    await exited;
  }
  nginx = null;
  if (nginxDir) rmSync(nginxDir, { recursive: true, force: true });
  nginxDir = null;
});

/** A folder for nginx (its config, logs, temp folders and what it serves) that `nobody` can enter: removed after the test. */
function nginxFolder(): string {
  nginxDir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'loupe-nginx-'));
  chmodSync(nginxDir, 0o755);
  return nginxDir;
}

/** nginx started in `dir` on `dir/www`, its address once it answers. */
async function startNginx(dir: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, join(dir, 'www'), port));
    // Its logs and temp folders are written as nobody.
    for (const log of ['error.log', 'access.log']) {
      writeFileSync(join(dir, log), '');
      chmodSync(join(dir, log), 0o666);
    }
    chmodSync(dir, 0o777);
    const child = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { stdio: 'ignore', ...(asRoot ? NOBODY : {}) });
    nginx = child;
    const url = `http://127.0.0.1:${port}`;
    for (let wait = 0; wait < 200 && child.exitCode === null; wait++) {
      // Any answer (a 404 of `/` too) is nginx listening.
      const answered = await fetch(`${url}/`).then(() => true, () => false);
      if (answered) return url;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const log = readFileSync(join(dir, 'error.log'), 'utf8');
    child.kill('SIGTERM');
    // Another process may have taken the port between the probe and nginx's bind: a new one.
    if (attempt < 3 && /Address already in use/.test(log)) continue;
    throw new Error(`nginx did not start: ${log}`);
  }
}

test('a team\'s index served by nginx: ?index= shows every session of the three machines, with the Machine column, read by range', async ({ page }, info) => {
  test.skip(!nginxFound() && !process.env.CI, `no nginx at ${NGINX}: run node scripts/ensure-nginx.mjs (apt-get install nginx) or set NGINX_PATH`);
  const sessions = info.outputPath('sessions');
  const dir = nginxFolder();
  const base = join(dir, 'www/team');
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const [machine, fixtures] of MACHINES) {
    mkdirSync(join(sessions, machine), { recursive: true });
    for (const fixture of fixtures) {
      const copy = join(sessions, machine, fixture.replace('/', '__'));
      copyFileSync(join(ROOT, 'fixtures', fixture), copy);
      utimesSync(copy, hourAgo, hourAgo);
    }
    // C publishes its session files beside its tables (files/): its rows open from the host.
    const run = spawnSync(process.execPath, [LOUPE, 'index', join(sessions, machine), '--out', base, '--machine', machine, ...(machine === 'C' ? ['--publish'] : [])], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  }
  // nginx (as nobody under root) reads what it serves.
  for (const entry of readdirSync(join(dir, 'www'), { recursive: true, withFileTypes: true })) chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  chmodSync(join(dir, 'www'), 0o755);

  const host = await startNginx(dir);
  await page.goto(`/?index=${encodeURIComponent(`${host}/team/index.json`)}`);

  const library = page.getByTestId('library');
  await expect(library).toHaveAttribute('data-team', '3');
  const rows = library.locator('[data-session-file]');
  const everyFile = MACHINES.flatMap(([machine, fixtures]) => fixtures.map((fixture) => [machine, `${machine}/${fixture.replace('/', '__')}`] as const));
  await expect(rows).toHaveCount(everyFile.length);
  const fleet = await expectedFleet(sessions, everyFile.map(([, file]) => file));
  for (const [machine, file] of everyFile) {
    const row = library.locator(`[data-machine="${machine}"][data-session-file="${cssEscape(join(sessions, file))}"]`);
    await expect(row).toHaveAttribute('data-calls', String(fleet.perFile.get(file)!.calls));
    await expect(row.locator('span').first()).toHaveText(machine);
  }
  await expect(library.getByRole('button', { name: 'Machine' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Calls per label' }).locator('tfoot [data-label=""]')).toHaveAttribute('data-calls', String(fleet.total));
  await expect(library).toHaveAttribute('data-fetched-bytes', /^\d+$/);
  await page.locator('select[data-filter="machine"]').selectOption('B');
  await expect(rows).toHaveCount(MACHINES[1]![1].length);
  // A and B did not publish their files: each row says where it lives; C's open.
  await expect(rows.locator('a')).toHaveCount(0);
  await expect(rows.locator('[data-elsewhere]')).toHaveCount(MACHINES[1]![1].length);
  await page.locator('select[data-filter="machine"]').selectOption('C');
  await expect(rows.locator('[data-elsewhere]')).toHaveCount(0);
  const opened = `C/${MACHINES[2]![1][0]!.replace('/', '__')}`;
  await library.locator(`[data-machine="C"][data-session-file="${cssEscape(join(sessions, opened))}"] a`).click();
  await waitLoaded(page);
  await expect(page.getByText(`Tool calls: ${fleet.perFile.get(opened)!.calls}`)).toBeVisible();

  // What nginx served: the listing, and each table by range (206), never a calls table whole.
  const served = readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter((line) => line.includes('.parquet'));
  expect(served.length).toBeGreaterThan(0);
  for (const [machine] of MACHINES) expect(served.filter((line) => line.includes(`/team/machine%3D${machine}/calls.parquet`)).length).toBeGreaterThan(0);
  for (const line of served.filter((l) => l.includes('calls.parquet'))) expect(line).toMatch(/" 206 /);
});
