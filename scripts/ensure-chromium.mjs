#!/usr/bin/env node
// Make sure a Chromium for the browser tests exists.
//
// Playwright cannot download its own browsers in this environment, so the e2e tests use
// Debian's `chromium` package (/usr/bin/chromium) or whatever $CHROMIUM_PATH points at.
//   - found            → exit 0
//   - missing, root    → apt-get update && apt-get install -y chromium, then verify
//   - missing, no root → print what to run, exit 1
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';
const fromEnv = process.env.CHROMIUM_PATH;
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

/** @param {string} path */
function version(path) {
  const r = spawnSync(path, ['--version', '--no-sandbox'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Run a command with inherited stdio (output streams through); exit on failure. */
function run(/** @type {string} */ cmd, /** @type {string[]} */ args) {
  console.log(`ensure-chromium: $ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.error) {
    console.error(`ensure-chromium: could not run ${cmd}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) {
    console.error(`ensure-chromium: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

if (isExecutable(target)) {
  const v = version(target);
  console.log(`ensure-chromium: using ${target}${v ? ` (${v})` : ''}`);
  process.exit(0);
}

if (fromEnv) {
  console.error(
    `ensure-chromium: CHROMIUM_PATH=${fromEnv} is not an executable file.\n` +
      `  Point CHROMIUM_PATH at a Chromium/Chrome binary, or unset it to use ${DEFAULT_PATH}.`,
  );
  process.exit(1);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `ensure-chromium: Chromium not found at ${DEFAULT_PATH}; the browser tests need it.\n` +
      `  Install Debian's Chromium:\n` +
      `    sudo apt-get update && sudo apt-get install -y chromium\n` +
      `  or point at an existing Chromium/Chrome binary:\n` +
      `    CHROMIUM_PATH=/path/to/chromium npm run test:e2e`,
  );
  process.exit(1);
}

console.log(`ensure-chromium: ${DEFAULT_PATH} missing; installing Debian's chromium with apt-get…`);
run('apt-get', ['update']);
run('apt-get', ['install', '-y', 'chromium']);

if (!isExecutable(DEFAULT_PATH)) {
  console.error(`ensure-chromium: apt-get finished but ${DEFAULT_PATH} is still missing.`);
  process.exit(1);
}
const v = version(DEFAULT_PATH);
if (!v) {
  console.error(`ensure-chromium: ${DEFAULT_PATH} is installed but \`chromium --version\` failed.`);
  process.exit(1);
}
console.log(`ensure-chromium: installed ${v}`);
