// Shared by scripts/ensure-chromium.mjs and scripts/ensure-nginx.mjs: make sure a Debian package's
// binary exists for the browser tests.
//   - found ($ENV_VAR, else the package's default path) → print its version, exit 0
//   - $ENV_VAR set but not executable                   → say so, exit 1
//   - missing, root    → apt-get update && apt-get install -y …, then verify
//   - missing, no root → print the caller's message (what to run), exit with the caller's code
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @typedef {object} AptBinary
 * @property {string} tag              prefix of every message, e.g. 'ensure-nginx'
 * @property {string} defaultPath      where Debian's package puts the binary
 * @property {string} envVar           variable that points at another binary instead
 * @property {string} binaryKind       what $envVar must point at, e.g. 'an nginx binary'
 * @property {string} packageName      Debian's package, e.g. 'nginx'
 * @property {string[]} installOptions extra `apt-get install` options before the package name
 * @property {string[]} versionArgs    arguments that make the binary print its version
 * @property {(r: { stdout: string, stderr: string }) => string} versionText which output holds the version
 * @property {() => string} missingMessage what a user without root should run
 * @property {number} missingExitCode  exit code when missing and not root
 */

/** Finds, or installs, the binary; always ends the process. @param {AptBinary} o */
export function ensureAptBinary(o) {
  const fromEnv = process.env[o.envVar];
  const target = fromEnv || o.defaultPath;
  const versionCommand = `\`${o.packageName} ${o.versionArgs[0] ?? ''}\``;

  /** @param {string} path */
  const version = (path) => {
    const r = spawnSync(path, o.versionArgs, { encoding: 'utf8', timeout: 30_000 });
    return r.status === 0 ? o.versionText(r).trim() : null;
  };

  /** Run a command with inherited stdio (output streams through); exit on failure. */
  const run = (/** @type {string} */ cmd, /** @type {string[]} */ args) => {
    console.log(`${o.tag}: $ ${cmd} ${args.join(' ')}`);
    const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.error) {
      console.error(`${o.tag}: could not run ${cmd}: ${r.error.message}`);
      process.exit(1);
    }
    if (r.status !== 0) {
      console.error(`${o.tag}: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}).`);
      process.exit(1);
    }
  };

  if (isExecutable(target)) {
    const v = version(target);
    console.log(`${o.tag}: using ${target}${v ? ` (${v})` : ''}`);
    process.exit(0);
  }

  if (fromEnv) {
    console.error(
      `${o.tag}: ${o.envVar}=${fromEnv} is not an executable file.\n` +
        `  Point ${o.envVar} at ${o.binaryKind}, or unset it to use ${o.defaultPath}.`,
    );
    process.exit(1);
  }

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(o.missingMessage());
    process.exit(o.missingExitCode);
  }

  console.log(`${o.tag}: ${o.defaultPath} missing; installing Debian's ${o.packageName} with apt-get…`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', ...o.installOptions, o.packageName]);

  if (!isExecutable(o.defaultPath)) {
    console.error(`${o.tag}: apt-get finished but ${o.defaultPath} is still missing.`);
    process.exit(1);
  }
  const v = version(o.defaultPath);
  if (!v) {
    console.error(`${o.tag}: ${o.defaultPath} is installed but ${versionCommand} failed.`);
    process.exit(1);
  }
  console.log(`${o.tag}: installed ${v}`);
  process.exit(0);
}
