#!/usr/bin/env node
// Make sure a Python with Polars exists for the test that reads a team's index with a distributed
// engine (src/cli/teamEngines.test.ts): a venv of its own in the cache folder
// ($XDG_CACHE_HOME/loupe/polars-venv, else ~/.cache/…; $LOUPE_POLARS_VENV to put it elsewhere),
// made with `python3 -m venv` and `pip install polars==VERSION` (pip's own configuration decides
// where the wheels come from: an index, or a local wheel folder). Nothing is installed outside it.
//   - ready            → prints {"python": PATH} on stdout, exit 0
//   - cannot be made   → says why on stderr, exit 1 (the test then skips, printing that reason)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Pinned, as every dependency is; polars ≥ 1.3x is `polars` plus a runtime wheel, both pulled by pip. */
export const POLARS_VERSION = '1.44.2';

const venv = process.env.LOUPE_POLARS_VENV || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loupe', 'polars-venv');
const python = join(venv, 'bin', 'python');

/** The venv's Polars version, or null when it has none. */
function installed() {
  if (!existsSync(python)) return null;
  const r = spawnSync(python, ['-c', 'import polars; print(polars.__version__)'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Run a step; its output goes to stderr (stdout is this script's answer). Returns why it failed, or null. */
function step(/** @type {string} */ cmd, /** @type {string[]} */ args) {
  console.error(`ensure-polars: $ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 2, 2], timeout: 600_000 });
  if (r.error) return `could not run ${cmd}: ${r.error.message}`;
  return r.status === 0 ? null : `\`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`;
}

function fail(/** @type {string} */ why) {
  console.error(`ensure-polars: ${why}`);
  process.exit(1);
}

if (installed() !== POLARS_VERSION) {
  console.error(`ensure-polars: making ${venv} with polars ${POLARS_VERSION}…`);
  try {
    rmSync(venv, { recursive: true, force: true });
    mkdirSync(dirname(venv), { recursive: true });
  } catch (error) {
    fail(`cannot make ${venv}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const made = step('python3', ['-m', 'venv', venv]) ?? step(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `polars==${POLARS_VERSION}`]);
  if (made) {
    rmSync(venv, { recursive: true, force: true, maxRetries: 2 });
    fail(`${made}; Polars could not be installed (python3 with venv and pip, and polars==${POLARS_VERSION} from pip's index, are needed)`);
  }
  const version = installed();
  if (version !== POLARS_VERSION) fail(`pip finished but ${python} imports polars ${version ?? '(none)'}, not ${POLARS_VERSION}`);
}
console.error(`ensure-polars: using ${python} (polars ${POLARS_VERSION})`);
console.log(JSON.stringify({ python }));
