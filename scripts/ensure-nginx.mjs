#!/usr/bin/env node
// Make sure an nginx exists for the browser test that serves a team's index from a plain web
// server (e2e/library-nginx.spec.ts). The test runs it as an unprivileged process with its own
// config in a temp folder, on a free port; nothing of the system's nginx set-up is used.
//   - found (Debian's /usr/sbin/nginx, or $NGINX_PATH) → exit 0
//   - missing, root    → apt-get update && apt-get install -y nginx, then verify
//   - missing, no root → print what to run; exit 1 under CI (the test must run there), else 0 (the test skips, saying so)
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const DEFAULT_PATH = '/usr/sbin/nginx';
const fromEnv = process.env.NGINX_PATH;
const target = fromEnv || DEFAULT_PATH;

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `nginx -v` (it prints on stderr). @param {string} path */
function version(path) {
  const r = spawnSync(path, ['-v'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? `${r.stderr}${r.stdout}`.trim() : null;
}

/** Run a command with inherited stdio (output streams through); exit on failure. */
function run(/** @type {string} */ cmd, /** @type {string[]} */ args) {
  console.log(`ensure-nginx: $ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.error) {
    console.error(`ensure-nginx: could not run ${cmd}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) {
    console.error(`ensure-nginx: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

if (isExecutable(target)) {
  const v = version(target);
  console.log(`ensure-nginx: using ${target}${v ? ` (${v})` : ''}`);
  process.exit(0);
}

if (fromEnv) {
  console.error(`ensure-nginx: NGINX_PATH=${fromEnv} is not an executable file.\n  Point NGINX_PATH at an nginx binary, or unset it to use ${DEFAULT_PATH}.`);
  process.exit(1);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `ensure-nginx: nginx not found at ${DEFAULT_PATH}; the browser test of a team's index on a plain web server needs it` +
      `${process.env.CI ? '' : ' (without it that test is skipped)'}.\n` +
      `  Install Debian's nginx (the test runs its own unprivileged nginx; the service need not run):\n` +
      `    sudo apt-get update && sudo apt-get install -y nginx\n` +
      `  or point at an existing nginx binary:\n` +
      `    NGINX_PATH=/path/to/nginx npm run test:e2e`,
  );
  process.exit(process.env.CI ? 1 : 0);
}

console.log(`ensure-nginx: ${DEFAULT_PATH} missing; installing Debian's nginx with apt-get…`);
run('apt-get', ['update']);
run('apt-get', ['install', '-y', '--no-install-recommends', 'nginx']);

const v = isExecutable(DEFAULT_PATH) ? version(DEFAULT_PATH) : null;
if (!v) {
  console.error(`ensure-nginx: apt-get finished but ${DEFAULT_PATH} is missing or \`nginx -v\` failed.`);
  process.exit(1);
}
console.log(`ensure-nginx: installed ${v}`);
